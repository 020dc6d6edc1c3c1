#include "irithyll/nn/attention/state_kernels.hpp"
#include "../cpu_features.hpp"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#define IRITHYLL_STATE_X86 1
#endif

namespace irithyll::nn::attn {

// The references are plain loops; GCC/Clang compile them twice (AVX2 and
// baseline) and pick at load time. No FP contraction under -std=c++20, so both
// clones give the same bits.
#if defined(__x86_64__) && !defined(__clang_analyzer__)
#define IRITHYLL_REF_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define IRITHYLL_REF_CLONES
#endif

IRITHYLL_REF_CLONES
void read_ref(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  std::fill(o, o + dv, 0.0);
  for (std::size_t i = 0; i < dk; ++i) {
    const double* row = s + i * dv;
    for (std::size_t c = 0; c < dv; ++c) o[c] += q[i] * row[c];
  }
}

IRITHYLL_REF_CLONES
void decay_write_read_ref(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                          const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  for (std::size_t i = 0; i < dk; ++i) {
    double* row = s + i * dv;
    const double ai = a[i * a_stride], ki = k[i];
    for (std::size_t c = 0; c < dv; ++c) row[c] = ai * row[c] + ki * v[c];
  }
  if (q != nullptr) read_ref(s, q, o, dk, dv);
}

IRITHYLL_REF_CLONES
void delta_write_read_ref(double* s, double g, const double* kh, const double* v, double beta, const double* q,
                          double* o, std::size_t dk, std::size_t dv, double* u) noexcept {
  if (g != 1.0)
    for (std::size_t i = 0; i < dk * dv; ++i) s[i] *= g;
  read_ref(s, kh, u, dk, dv);
  for (std::size_t c = 0; c < dv; ++c) u[c] = beta * (v[c] - u[c]);
  for (std::size_t i = 0; i < dk; ++i) {
    double* row = s + i * dv;
    for (std::size_t c = 0; c < dv; ++c) row[c] += kh[i] * u[c];
  }
  if (q != nullptr) read_ref(s, q, o, dk, dv);
}

IRITHYLL_REF_CLONES
void rwkv7_write_read_ref(double* s, const double* w, const double* kh, const double* kt, const double* r,
                          const double* v, const double* q, double* o, std::size_t dk, std::size_t dv,
                          double* u) noexcept {
  for (std::size_t i = 0; i < dk; ++i)
    for (std::size_t c = 0; c < dv; ++c) s[i * dv + c] *= w[i];
  read_ref(s, kh, u, dk, dv);  // u = S^T kh after the decay
  for (std::size_t i = 0; i < dk; ++i) {
    double* row = s + i * dv;
    for (std::size_t c = 0; c < dv; ++c) row[c] += kt[i] * v[c] - r[i] * u[c];
  }
  if (q != nullptr) read_ref(s, q, o, dk, dv);
}

#ifdef IRITHYLL_STATE_X86
namespace {

#define IRITHYLL_AVX512 __attribute__((target("avx512f,avx512dq")))

// GCC 12's AVX-512 headers trip its own -Wmaybe-uninitialized (they start
// from _mm512_undefined_pd()); a false positive in the system header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// The state is swept one 8-wide column chunk at a time (the last chunk
// masked), down all d_key rows: the chunk's readout accumulators, its slice
// of v and of u stay in registers, and each row element is loaded and stored
// once per pass. Two accumulators (even / odd rows) halve the FMA chains.
IRITHYLL_AVX512 inline __mmask8 chunk_mask(std::size_t c, std::size_t dv) noexcept {
  const std::size_t n = std::min<std::size_t>(8, dv - c);
  return static_cast<__mmask8>((1u << n) - 1u);
}

IRITHYLL_AVX512 void read_avx512(const double* s, const double* q, double* o, std::size_t dk,
                                 std::size_t dv) noexcept {
  for (std::size_t c = 0; c < dv; c += 8) {
    const __mmask8 m = chunk_mask(c, dv);
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    std::size_t i = 0;
    for (; i + 2 <= dk; i += 2) {
      a0 = _mm512_fmadd_pd(_mm512_set1_pd(q[i]), _mm512_maskz_loadu_pd(m, s + i * dv + c), a0);
      a1 = _mm512_fmadd_pd(_mm512_set1_pd(q[i + 1]), _mm512_maskz_loadu_pd(m, s + (i + 1) * dv + c), a1);
    }
    if (i < dk) a0 = _mm512_fmadd_pd(_mm512_set1_pd(q[i]), _mm512_maskz_loadu_pd(m, s + i * dv + c), a0);
    _mm512_mask_storeu_pd(o + c, m, _mm512_add_pd(a0, a1));
  }
}

IRITHYLL_AVX512 void decay_write_read_avx512(double* s, const double* a, std::size_t a_stride, const double* k,
                                             const double* v, const double* q, double* o, std::size_t dk,
                                             std::size_t dv) noexcept {
  for (std::size_t c = 0; c < dv; c += 8) {
    const __mmask8 m = chunk_mask(c, dv);
    const __m512d vc = _mm512_maskz_loadu_pd(m, v + c);
    __m512d acc = _mm512_setzero_pd();
    for (std::size_t i = 0; i < dk; ++i) {
      double* p = s + i * dv + c;
      const __m512d row = _mm512_fmadd_pd(_mm512_set1_pd(a[i * a_stride]), _mm512_maskz_loadu_pd(m, p),
                                          _mm512_mul_pd(_mm512_set1_pd(k[i]), vc));
      _mm512_mask_storeu_pd(p, m, row);
      if (q != nullptr) acc = _mm512_fmadd_pd(_mm512_set1_pd(q[i]), row, acc);
    }
    if (q != nullptr) _mm512_mask_storeu_pd(o + c, m, acc);
  }
}

IRITHYLL_AVX512 void delta_write_read_avx512(double* s, double g, const double* kh, const double* v, double beta,
                                             const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  const __m512d gv = _mm512_set1_pd(g);
  for (std::size_t c = 0; c < dv; c += 8) {
    const __mmask8 m = chunk_mask(c, dv);
    // u = (g S)^T kh = g (S^T kh) on the old state.
    __m512d u0 = _mm512_setzero_pd(), u1 = _mm512_setzero_pd();
    std::size_t i = 0;
    for (; i + 2 <= dk; i += 2) {
      u0 = _mm512_fmadd_pd(_mm512_set1_pd(kh[i]), _mm512_maskz_loadu_pd(m, s + i * dv + c), u0);
      u1 = _mm512_fmadd_pd(_mm512_set1_pd(kh[i + 1]), _mm512_maskz_loadu_pd(m, s + (i + 1) * dv + c), u1);
    }
    if (i < dk) u0 = _mm512_fmadd_pd(_mm512_set1_pd(kh[i]), _mm512_maskz_loadu_pd(m, s + i * dv + c), u0);
    const __m512d u = _mm512_mul_pd(gv, _mm512_add_pd(u0, u1));
    const __m512d w = _mm512_mul_pd(_mm512_set1_pd(beta), _mm512_sub_pd(_mm512_maskz_loadu_pd(m, v + c), u));
    __m512d acc = _mm512_setzero_pd();
    for (i = 0; i < dk; ++i) {
      double* p = s + i * dv + c;
      const __m512d row = _mm512_fmadd_pd(gv, _mm512_maskz_loadu_pd(m, p), _mm512_mul_pd(_mm512_set1_pd(kh[i]), w));
      _mm512_mask_storeu_pd(p, m, row);
      if (q != nullptr) acc = _mm512_fmadd_pd(_mm512_set1_pd(q[i]), row, acc);
    }
    if (q != nullptr) _mm512_mask_storeu_pd(o + c, m, acc);
  }
}

IRITHYLL_AVX512 void rwkv7_write_read_avx512(double* s, const double* w, const double* kh, const double* kt,
                                             const double* r, const double* v, const double* q, double* o,
                                             std::size_t dk, std::size_t dv) noexcept {
  for (std::size_t c = 0; c < dv; c += 8) {
    const __mmask8 m = chunk_mask(c, dv);
    // u = (diag(w) S)^T kh on the old state.
    __m512d u0 = _mm512_setzero_pd(), u1 = _mm512_setzero_pd();
    std::size_t i = 0;
    for (; i + 2 <= dk; i += 2) {
      u0 = _mm512_fmadd_pd(_mm512_set1_pd(kh[i] * w[i]), _mm512_maskz_loadu_pd(m, s + i * dv + c), u0);
      u1 = _mm512_fmadd_pd(_mm512_set1_pd(kh[i + 1] * w[i + 1]), _mm512_maskz_loadu_pd(m, s + (i + 1) * dv + c), u1);
    }
    if (i < dk) u0 = _mm512_fmadd_pd(_mm512_set1_pd(kh[i] * w[i]), _mm512_maskz_loadu_pd(m, s + i * dv + c), u0);
    const __m512d u = _mm512_add_pd(u0, u1);
    const __m512d vc = _mm512_maskz_loadu_pd(m, v + c);
    __m512d acc = _mm512_setzero_pd();
    for (i = 0; i < dk; ++i) {
      double* p = s + i * dv + c;
      const __m512d write = _mm512_fnmadd_pd(_mm512_set1_pd(r[i]), u, _mm512_mul_pd(_mm512_set1_pd(kt[i]), vc));
      const __m512d row = _mm512_fmadd_pd(_mm512_set1_pd(w[i]), _mm512_maskz_loadu_pd(m, p), write);
      _mm512_mask_storeu_pd(p, m, row);
      if (q != nullptr) acc = _mm512_fmadd_pd(_mm512_set1_pd(q[i]), row, acc);
    }
    if (q != nullptr) _mm512_mask_storeu_pd(o + c, m, acc);
  }
}

const bool kUseAvx512 = detail::cpu_has_avx512();

}  // namespace

void read(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  if (kUseAvx512) {
    read_avx512(s, q, o, dk, dv);
  } else {
    read_ref(s, q, o, dk, dv);
  }
}
void decay_write_read(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                      const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  if (kUseAvx512) {
    decay_write_read_avx512(s, a, a_stride, k, v, q, o, dk, dv);
  } else {
    decay_write_read_ref(s, a, a_stride, k, v, q, o, dk, dv);
  }
}
void delta_write_read(double* s, double g, const double* kh, const double* v, double beta, const double* q, double* o,
                      std::size_t dk, std::size_t dv, double* u) noexcept {
  if (kUseAvx512) {
    delta_write_read_avx512(s, g, kh, v, beta, q, o, dk, dv);
  } else {
    delta_write_read_ref(s, g, kh, v, beta, q, o, dk, dv, u);
  }
}
void rwkv7_write_read(double* s, const double* w, const double* kh, const double* kt, const double* r,
                      const double* v, const double* q, double* o, std::size_t dk, std::size_t dv, double* u) noexcept {
  if (kUseAvx512) {
    rwkv7_write_read_avx512(s, w, kh, kt, r, v, q, o, dk, dv);
  } else {
    rwkv7_write_read_ref(s, w, kh, kt, r, v, q, o, dk, dv, u);
  }
}
const char* state_kernels_backend() noexcept { return kUseAvx512 ? "avx512" : "scalar"; }
#else
void read(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  read_ref(s, q, o, dk, dv);
}
void decay_write_read(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                      const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  decay_write_read_ref(s, a, a_stride, k, v, q, o, dk, dv);
}
void delta_write_read(double* s, double g, const double* kh, const double* v, double beta, const double* q, double* o,
                      std::size_t dk, std::size_t dv, double* u) noexcept {
  delta_write_read_ref(s, g, kh, v, beta, q, o, dk, dv, u);
}
void rwkv7_write_read(double* s, const double* w, const double* kh, const double* kt, const double* r,
                      const double* v, const double* q, double* o, std::size_t dk, std::size_t dv, double* u) noexcept {
  rwkv7_write_read_ref(s, w, kh, kt, r, v, q, o, dk, dv, u);
}
const char* state_kernels_backend() noexcept { return "scalar"; }
#endif

}  // namespace irithyll::nn::attn
