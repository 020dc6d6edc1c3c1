#include "irithyll/nn/kernels_f32w.hpp"
#include "cpu_features.hpp"

#include <algorithm>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define IRITHYLL_HAVE_X86 1
#endif

namespace irithyll::nn {

void matvec_f32w_ref(const float* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = m + r * cols;
    double s = 0.0;
    for (std::size_t c = 0; c < cols; ++c) s += static_cast<double>(row[c]) * x[c];
    y[r] = s;
  }
}

#ifdef IRITHYLL_HAVE_X86
namespace {

__attribute__((target("avx2,fma"))) inline __m256d w4(const float* p) noexcept {
  return _mm256_cvtps_pd(_mm_loadu_ps(p));
}

// Four rows per pass so each load of x feeds four FMAs (as matvec_avx2 in
// kernels.cpp); vcvtps2pd widens four weights per load.
__attribute__((target("avx2,fma"))) void matvec_f32w_avx2(const float* m, const double* x, double* y,
                                                          std::size_t rows, std::size_t cols) noexcept {
  const std::size_t c4 = cols & ~std::size_t{3};
  std::size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float* m0 = m + r * cols;
    const float* m1 = m0 + cols;
    const float* m2 = m1 + cols;
    const float* m3 = m2 + cols;
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(),
            a3 = _mm256_setzero_pd();
    for (std::size_t c = 0; c < c4; c += 4) {
      const __m256d xv = _mm256_loadu_pd(x + c);
      a0 = _mm256_fmadd_pd(w4(m0 + c), xv, a0);
      a1 = _mm256_fmadd_pd(w4(m1 + c), xv, a1);
      a2 = _mm256_fmadd_pd(w4(m2 + c), xv, a2);
      a3 = _mm256_fmadd_pd(w4(m3 + c), xv, a3);
    }
    const __m256d h01 = _mm256_hadd_pd(a0, a1);
    const __m256d h23 = _mm256_hadd_pd(a2, a3);
    __m256d sums = _mm256_add_pd(_mm256_permute2f128_pd(h01, h23, 0x21), _mm256_blend_pd(h01, h23, 0xC));
    if (c4 != cols) {
      alignas(32) double tail[4] = {0.0, 0.0, 0.0, 0.0};
      for (std::size_t c = c4; c < cols; ++c) {
        tail[0] += static_cast<double>(m0[c]) * x[c];
        tail[1] += static_cast<double>(m1[c]) * x[c];
        tail[2] += static_cast<double>(m2[c]) * x[c];
        tail[3] += static_cast<double>(m3[c]) * x[c];
      }
      sums = _mm256_add_pd(sums, _mm256_load_pd(tail));
    }
    _mm256_storeu_pd(y + r, sums);
  }
  for (; r < rows; ++r) matvec_f32w_ref(m + r * cols, x, y + r, 1, cols);
}

#define IRITHYLL_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))

// GCC 12's AVX-512 headers trip its own -Wmaybe-uninitialized (they start
// from _mm512_undefined_pd()); a false positive in the system header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

IRITHYLL_AVX512 inline __m512d widen8(const float* p) noexcept { return _mm512_cvtps_pd(_mm256_loadu_ps(p)); }
IRITHYLL_AVX512 inline __m512d widen8_masked(__mmask8 k, const float* p) noexcept {
  return _mm512_cvtps_pd(_mm256_maskz_loadu_ps(k, p));
}

// Lane j = sum of a[j]'s lanes (the shuffle tree of kernels.cpp).
IRITHYLL_AVX512 inline __m512d transpose_sum8(const __m512d* a) noexcept {
  const __m512d t0 = _mm512_add_pd(_mm512_unpacklo_pd(a[0], a[1]), _mm512_unpackhi_pd(a[0], a[1]));
  const __m512d t1 = _mm512_add_pd(_mm512_unpacklo_pd(a[2], a[3]), _mm512_unpackhi_pd(a[2], a[3]));
  const __m512d t2 = _mm512_add_pd(_mm512_unpacklo_pd(a[4], a[5]), _mm512_unpackhi_pd(a[4], a[5]));
  const __m512d t3 = _mm512_add_pd(_mm512_unpacklo_pd(a[6], a[7]), _mm512_unpackhi_pd(a[6], a[7]));
  const __m512d u0 = _mm512_add_pd(_mm512_shuffle_f64x2(t0, t1, 0x88), _mm512_shuffle_f64x2(t0, t1, 0xDD));
  const __m512d u1 = _mm512_add_pd(_mm512_shuffle_f64x2(t2, t3, 0x88), _mm512_shuffle_f64x2(t2, t3, 0xDD));
  return _mm512_add_pd(_mm512_shuffle_f64x2(u0, u1, 0x88), _mm512_shuffle_f64x2(u0, u1, 0xDD));
}

// One row of cols <= 64 against x held in NC registers; two accumulators
// halve the FMA chain.
template <int NC, bool kFull>
IRITHYLL_AVX512 __attribute__((always_inline)) inline __m512d row_dot(const float* row, const __m512d* xv,
                                                                     __mmask8 last_mask) noexcept {
  constexpr int kLast = 8 * (NC - 1);
  const __m512d wl = kFull ? widen8(row + kLast) : widen8_masked(last_mask, row + kLast);
  if constexpr (NC == 1) {
    return _mm512_mul_pd(wl, xv[0]);
  } else {
    __m512d a = _mm512_mul_pd(widen8(row), xv[0]);
    __m512d b = _mm512_setzero_pd();
    for (int j = 1; j + 1 < NC; ++j) {
      if (j % 2 == 0) {
        a = _mm512_fmadd_pd(widen8(row + 8 * j), xv[j], a);
      } else {
        b = _mm512_fmadd_pd(widen8(row + 8 * j), xv[j], b);
      }
    }
    b = _mm512_fmadd_pd(wl, xv[NC - 1], b);
    return _mm512_add_pd(a, b);
  }
}

// Prefetch this matrix's lines a fixed distance ahead of the row being read
// (kernels.cpp explains why: the L2 stream rate then does not depend on how
// the compiler orders the eight rows' loads). Addresses are compared as
// integers, never formed as pointers past the array.
constexpr std::uintptr_t kPrefetchBytes = 4096;

template <int NC>
IRITHYLL_AVX512 __attribute__((always_inline)) inline void prefetch_ahead(const float* row,
                                                                         std::uintptr_t end) noexcept {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(row) + kPrefetchBytes;
  if (a >= end) return;
  for (int j = 0; j < (NC + 1) / 2; ++j) _mm_prefetch(reinterpret_cast<const char*>(a + 64 * j), _MM_HINT_T0);
}

template <int NC, bool kFull>
IRITHYLL_AVX512 void matvec_f32w_narrow(const float* m, const double* x, double* y, std::size_t rows,
                                        std::size_t cols) noexcept {
  constexpr std::size_t kLast = 8 * (NC - 1);
  const auto last_mask = static_cast<__mmask8>((1u << (cols - kLast)) - 1u);  // cols - kLast in 1..8
  __m512d xv[NC];
  for (int j = 0; j + 1 < NC; ++j) xv[j] = _mm512_loadu_pd(x + 8 * j);
  xv[NC - 1] = _mm512_maskz_loadu_pd(last_mask, x + kLast);
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(m + rows * cols);
  std::size_t r = 0;
  for (; r + 8 <= rows; r += 8) {
    const float* m0 = m + r * cols;
    __m512d acc[8];
    for (std::size_t q = 0; q < 8; ++q) {
      prefetch_ahead<NC>(m0 + q * cols, end);
      acc[q] = row_dot<NC, kFull>(m0 + q * cols, xv, last_mask);
    }
    _mm512_storeu_pd(y + r, transpose_sum8(acc));
  }
  for (; r < rows; ++r) y[r] = _mm512_reduce_add_pd(row_dot<NC, kFull>(m + r * cols, xv, last_mask));
}

template <int NC>
IRITHYLL_AVX512 void matvec_f32w_narrow_any(const float* m, const double* x, double* y, std::size_t rows,
                                            std::size_t cols) noexcept {
  if (cols % 8 == 0) {
    matvec_f32w_narrow<NC, true>(m, x, y, rows, cols);
  } else {
    matvec_f32w_narrow<NC, false>(m, x, y, rows, cols);
  }
}

// cols > 64: one row at a time, two accumulators, masked tail.
IRITHYLL_AVX512 void matvec_f32w_wide(const float* m, const double* x, double* y, std::size_t rows,
                                      std::size_t cols) noexcept {
  const std::size_t c16 = cols & ~std::size_t{15};
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = m + r * cols;
    __m512d a = _mm512_setzero_pd(), b = _mm512_setzero_pd();
    std::size_t c = 0;
    for (; c < c16; c += 16) {
      a = _mm512_fmadd_pd(widen8(row + c), _mm512_loadu_pd(x + c), a);
      b = _mm512_fmadd_pd(widen8(row + c + 8), _mm512_loadu_pd(x + c + 8), b);
    }
    for (; c < cols; c += 8) {
      const std::size_t n = std::min<std::size_t>(8, cols - c);
      const auto k = static_cast<__mmask8>((1u << n) - 1u);
      a = _mm512_fmadd_pd(widen8_masked(k, row + c), _mm512_maskz_loadu_pd(k, x + c), a);
    }
    y[r] = _mm512_reduce_add_pd(_mm512_add_pd(a, b));
  }
}

IRITHYLL_AVX512 void matvec_f32w_avx512(const float* m, const double* x, double* y, std::size_t rows,
                                        std::size_t cols) noexcept {
  switch ((cols + 7) / 8) {
    case 0: std::fill(y, y + rows, 0.0); return;
    case 1: matvec_f32w_narrow_any<1>(m, x, y, rows, cols); return;
    case 2: matvec_f32w_narrow_any<2>(m, x, y, rows, cols); return;
    case 3: matvec_f32w_narrow_any<3>(m, x, y, rows, cols); return;
    case 4: matvec_f32w_narrow_any<4>(m, x, y, rows, cols); return;
    case 5: matvec_f32w_narrow_any<5>(m, x, y, rows, cols); return;
    case 6: matvec_f32w_narrow_any<6>(m, x, y, rows, cols); return;
    case 7: matvec_f32w_narrow_any<7>(m, x, y, rows, cols); return;
    case 8: matvec_f32w_narrow_any<8>(m, x, y, rows, cols); return;
    default: matvec_f32w_wide(m, x, y, rows, cols); return;
  }
}

const bool kUseAvx2 = detail::cpu_has_avx2_fma();
const bool kUseAvx512 = detail::cpu_has_avx512();

}  // namespace

void matvec_f32w(const float* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  if (kUseAvx512) {
    matvec_f32w_avx512(m, x, y, rows, cols);
  } else if (kUseAvx2) {
    matvec_f32w_avx2(m, x, y, rows, cols);
  } else {
    matvec_f32w_ref(m, x, y, rows, cols);
  }
}
void matvec_f32w_avx2_kernel(const float* m, const double* x, double* y, std::size_t rows,
                             std::size_t cols) noexcept {
  if (kUseAvx2) {
    matvec_f32w_avx2(m, x, y, rows, cols);
  } else {
    matvec_f32w_ref(m, x, y, rows, cols);
  }
}
void matvec_f32w_avx512_kernel(const float* m, const double* x, double* y, std::size_t rows,
                               std::size_t cols) noexcept {
  if (kUseAvx512) {
    matvec_f32w_avx512(m, x, y, rows, cols);
  } else {
    matvec_f32w_ref(m, x, y, rows, cols);
  }
}
#else
void matvec_f32w(const float* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  matvec_f32w_ref(m, x, y, rows, cols);
}
void matvec_f32w_avx2_kernel(const float* m, const double* x, double* y, std::size_t rows,
                             std::size_t cols) noexcept {
  matvec_f32w_ref(m, x, y, rows, cols);
}
void matvec_f32w_avx512_kernel(const float* m, const double* x, double* y, std::size_t rows,
                               std::size_t cols) noexcept {
  matvec_f32w_ref(m, x, y, rows, cols);
}
#endif

}  // namespace irithyll::nn
