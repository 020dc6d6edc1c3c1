#include "nn/attention/state_kernels.hpp"
#include "../cpu_features.hpp"
#include "nn/attention/state_kernels_avx2.hpp"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#define IRITHYLL_STATE_X86 1
#endif

namespace irithyll::nn::attn {

// The references are plain loops, cloned for AVX2 (cpu_features.hpp).

IRITHYLL_AVX2_CLONES
void read_ref(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  std::fill(o, o + dv, 0.0);
  for (std::size_t i = 0; i < dk; ++i) {
    const double* row = s + i * dv;
    for (std::size_t c = 0; c < dv; ++c) o[c] += q[i] * row[c];
  }
}

IRITHYLL_AVX2_CLONES
void decay_write_read_ref(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                          const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  for (std::size_t i = 0; i < dk; ++i) {
    double* row = s + i * dv;
    const double ai = a[i * a_stride], ki = k[i];
    for (std::size_t c = 0; c < dv; ++c) row[c] = ai * row[c] + ki * v[c];
  }
  if (q != nullptr) read_ref(s, q, o, dk, dv);
}

IRITHYLL_AVX2_CLONES
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

IRITHYLL_AVX2_CLONES
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

// The state is swept by groups of up to four 8-wide column chunks (the last
// chunk masked), down all d_key rows: a group's readout accumulators, its
// slices of v and u stay in registers, and each state element is loaded and
// stored once per pass. The per-row readout sums are split over two
// accumulator sets (even / odd rows) so that, with the group's chunks, four
// or more independent FMA chains are in flight: at d_key = d_value = 16 a
// single chain per chunk left the kernel bound by FMA latency.
IRITHYLL_AVX512 inline __mmask8 chunk_mask(std::size_t c, std::size_t dv) noexcept {
  const std::size_t n = std::min<std::size_t>(8, dv - c);
  return static_cast<__mmask8>((1u << n) - 1u);
}

// One group: NC chunks starting at column c0, all inside [0, dv). Only the
// last chunk of the last group can be partial (kTail); the others use plain
// loads and stores, so the common d_value % 8 == 0 case carries no masks.
template <int NC, bool kTail>
struct Group {
  std::size_t c0;
  __mmask8 tail;
  IRITHYLL_AVX512 Group(std::size_t c, std::size_t dv) noexcept
      : c0(c), tail(kTail ? chunk_mask(c + 8 * (NC - 1), dv) : static_cast<__mmask8>(0xff)) {}
  IRITHYLL_AVX512 __m512d load(const double* row, int j) const noexcept {
    const double* p = row + c0 + 8 * static_cast<std::size_t>(j);
    return kTail && j == NC - 1 ? _mm512_maskz_loadu_pd(tail, p) : _mm512_loadu_pd(p);
  }
  IRITHYLL_AVX512 void store(double* row, int j, __m512d x) const noexcept {
    double* p = row + c0 + 8 * static_cast<std::size_t>(j);
    if (kTail && j == NC - 1) {
      _mm512_mask_storeu_pd(p, tail, x);
    } else {
      _mm512_storeu_pd(p, x);
    }
  }
};

// Calls k.run(Group) over the columns of a dv-wide state.
template <class Kernel>
IRITHYLL_AVX512 inline void sweep(const Kernel& k, std::size_t dv) noexcept {
  std::size_t c = 0;
  for (; c + 32 <= dv; c += 32) k.run(Group<4, false>(c, dv));
  const std::size_t rest = dv - c;
  const bool tail = rest % 8 != 0;
  switch ((rest + 7) / 8) {
    case 1: tail ? k.run(Group<1, true>(c, dv)) : k.run(Group<1, false>(c, dv)); break;
    case 2: tail ? k.run(Group<2, true>(c, dv)) : k.run(Group<2, false>(c, dv)); break;
    case 3: tail ? k.run(Group<3, true>(c, dv)) : k.run(Group<3, false>(c, dv)); break;
    case 4: k.run(Group<4, true>(c, dv)); break;  // a full group would have been swept above
    default: break;
  }
}

// acc[j] = sum_i x_i (y_i) S[i, chunk j] for one group; y may be null.
template <int NC, bool T>
IRITHYLL_AVX512 inline void row_sums(const Group<NC, T>& g, const double* s, const double* x, const double* y,
                                     std::size_t dk, std::size_t dv, __m512d* acc) noexcept {
  __m512d even[NC], odd[NC];
  for (int j = 0; j < NC; ++j) even[j] = odd[j] = _mm512_setzero_pd();
  auto coef = [x, y](std::size_t i) { return y == nullptr ? x[i] : x[i] * y[i]; };
  std::size_t i = 0;
  for (; i + 2 <= dk; i += 2) {
    const __m512d c0 = _mm512_set1_pd(coef(i)), c1 = _mm512_set1_pd(coef(i + 1));
    for (int j = 0; j < NC; ++j) {
      even[j] = _mm512_fmadd_pd(c0, g.load(s + i * dv, j), even[j]);
      odd[j] = _mm512_fmadd_pd(c1, g.load(s + (i + 1) * dv, j), odd[j]);
    }
  }
  if (i < dk) {
    const __m512d c0 = _mm512_set1_pd(coef(i));
    for (int j = 0; j < NC; ++j) even[j] = _mm512_fmadd_pd(c0, g.load(s + i * dv, j), even[j]);
  }
  for (int j = 0; j < NC; ++j) acc[j] = _mm512_add_pd(even[j], odd[j]);
}

// The write pass shared by every kernel:
//   S[i,:] <- a_i S[i,:] + k_i X - r_i Y   (the removal term only if kRemoval)
// with X, Y one group's registers, then o = S^T q over the new rows.
template <int NC, bool kRemoval>
struct WriteTerms {
  const double* a;
  std::size_t a_stride;
  const double* k;
  const double* r;  // read only when kRemoval
  __m512d x[NC], y[NC];
};

template <int NC, bool R, bool T>
IRITHYLL_AVX512 inline __m512d new_row(const WriteTerms<NC, R>& t, const Group<NC, T>& g, double* row, std::size_t i,
                                       int j) noexcept {
  __m512d write = _mm512_mul_pd(_mm512_set1_pd(t.k[i]), t.x[j]);
  if constexpr (R) write = _mm512_fnmadd_pd(_mm512_set1_pd(t.r[i]), t.y[j], write);
  const __m512d next = _mm512_fmadd_pd(_mm512_set1_pd(t.a[i * t.a_stride]), g.load(row, j), write);
  g.store(row, j, next);
  return next;
}

template <int NC, bool R, bool T>
IRITHYLL_AVX512 inline void write_rows(const WriteTerms<NC, R>& t, const Group<NC, T>& g, double* s, const double* q,
                                       double* o, std::size_t dk, std::size_t dv) noexcept {
  if (q == nullptr) {
    for (std::size_t i = 0; i < dk; ++i)
      for (int j = 0; j < NC; ++j) new_row(t, g, s + i * dv, i, j);
    return;
  }
  __m512d even[NC], odd[NC];
  for (int j = 0; j < NC; ++j) even[j] = odd[j] = _mm512_setzero_pd();
  std::size_t i = 0;
  for (; i + 2 <= dk; i += 2) {
    const __m512d q0 = _mm512_set1_pd(q[i]), q1 = _mm512_set1_pd(q[i + 1]);
    for (int j = 0; j < NC; ++j) {
      even[j] = _mm512_fmadd_pd(q0, new_row(t, g, s + i * dv, i, j), even[j]);
      odd[j] = _mm512_fmadd_pd(q1, new_row(t, g, s + (i + 1) * dv, i + 1, j), odd[j]);
    }
  }
  if (i < dk) {
    const __m512d q0 = _mm512_set1_pd(q[i]);
    for (int j = 0; j < NC; ++j) even[j] = _mm512_fmadd_pd(q0, new_row(t, g, s + i * dv, i, j), even[j]);
  }
  for (int j = 0; j < NC; ++j) g.store(o, j, _mm512_add_pd(even[j], odd[j]));
}

struct ReadKernel {
  const double* s;
  const double* q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX512 void run(const Group<NC, T>& g) const noexcept {
    __m512d acc[NC];
    row_sums(g, s, q, nullptr, dk, dv, acc);
    for (int j = 0; j < NC; ++j) g.store(o, j, acc[j]);
  }
};

struct DecayWriteKernel {
  double* s;
  const double* a;
  std::size_t a_stride;
  const double *k, *v, *q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX512 void run(const Group<NC, T>& g) const noexcept {
    WriteTerms<NC, false> t{a, a_stride, k, nullptr, {}, {}};
    for (int j = 0; j < NC; ++j) t.x[j] = g.load(v, j);
    write_rows(t, g, s, q, o, dk, dv);
  }
};

// The scalar decay is folded into u: (g S)^T kh = g (S^T kh) on the old state.
struct DeltaKernel {
  double* s;
  double gate;
  const double *kh, *v;
  double beta;
  const double* q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX512 void run(const Group<NC, T>& g) const noexcept {
    __m512d u[NC];
    row_sums(g, s, kh, nullptr, dk, dv, u);
    WriteTerms<NC, false> t{&gate, 0, kh, nullptr, {}, {}};
    const __m512d gv = _mm512_set1_pd(gate), bv = _mm512_set1_pd(beta);
    for (int j = 0; j < NC; ++j) t.x[j] = _mm512_mul_pd(bv, _mm512_fnmadd_pd(gv, u[j], g.load(v, j)));
    write_rows(t, g, s, q, o, dk, dv);
  }
};

// u = (diag(w) S)^T kh on the old state.
struct Rwkv7Kernel {
  double* s;
  const double *w, *kh, *kt, *r, *v, *q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX512 void run(const Group<NC, T>& g) const noexcept {
    WriteTerms<NC, true> t{w, 1, kt, r, {}, {}};
    row_sums(g, s, kh, w, dk, dv, t.y);
    for (int j = 0; j < NC; ++j) t.x[j] = g.load(v, j);
    write_rows(t, g, s, q, o, dk, dv);
  }
};

IRITHYLL_AVX512 void read_avx512(const double* s, const double* q, double* o, std::size_t dk,
                                 std::size_t dv) noexcept {
  sweep(ReadKernel{s, q, o, dk, dv}, dv);
}

IRITHYLL_AVX512 void decay_write_read_avx512(double* s, const double* a, std::size_t a_stride, const double* k,
                                             const double* v, const double* q, double* o, std::size_t dk,
                                             std::size_t dv) noexcept {
  sweep(DecayWriteKernel{s, a, a_stride, k, v, q, o, dk, dv}, dv);
}

IRITHYLL_AVX512 void delta_write_read_avx512(double* s, double g, const double* kh, const double* v, double beta,
                                             const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  sweep(DeltaKernel{s, g, kh, v, beta, q, o, dk, dv}, dv);
}

IRITHYLL_AVX512 void rwkv7_write_read_avx512(double* s, const double* w, const double* kh, const double* kt,
                                             const double* r, const double* v, const double* q, double* o,
                                             std::size_t dk, std::size_t dv) noexcept {
  sweep(Rwkv7Kernel{s, w, kh, kt, r, v, q, o, dk, dv}, dv);
}

const bool kUseAvx512 = nn::detail::cpu_has_avx512();
const bool kUseAvx2 = !kUseAvx512 && nn::detail::cpu_has_avx2_fma();

}  // namespace

void read(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  if (kUseAvx512) {
    read_avx512(s, q, o, dk, dv);
  } else if (kUseAvx2) {
    detail::read_avx2(s, q, o, dk, dv);
  } else {
    read_ref(s, q, o, dk, dv);
  }
}
void decay_write_read(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                      const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  if (kUseAvx512) {
    decay_write_read_avx512(s, a, a_stride, k, v, q, o, dk, dv);
  } else if (kUseAvx2) {
    detail::decay_write_read_avx2(s, a, a_stride, k, v, q, o, dk, dv);
  } else {
    decay_write_read_ref(s, a, a_stride, k, v, q, o, dk, dv);
  }
}
void delta_write_read(double* s, double g, const double* kh, const double* v, double beta, const double* q, double* o,
                      std::size_t dk, std::size_t dv, double* u) noexcept {
  if (kUseAvx512) {
    delta_write_read_avx512(s, g, kh, v, beta, q, o, dk, dv);
  } else if (kUseAvx2) {
    detail::delta_write_read_avx2(s, g, kh, v, beta, q, o, dk, dv);
  } else {
    delta_write_read_ref(s, g, kh, v, beta, q, o, dk, dv, u);
  }
}
void rwkv7_write_read(double* s, const double* w, const double* kh, const double* kt, const double* r,
                      const double* v, const double* q, double* o, std::size_t dk, std::size_t dv, double* u) noexcept {
  if (kUseAvx512) {
    rwkv7_write_read_avx512(s, w, kh, kt, r, v, q, o, dk, dv);
  } else if (kUseAvx2) {
    detail::rwkv7_write_read_avx2(s, w, kh, kt, r, v, q, o, dk, dv);
  } else {
    rwkv7_write_read_ref(s, w, kh, kt, r, v, q, o, dk, dv, u);
  }
}
const char* state_kernels_backend() noexcept { return kUseAvx512 ? "avx512" : kUseAvx2 ? "avx2" : "scalar"; }
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
