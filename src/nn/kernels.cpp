#include "irithyll/nn/kernels.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define IRITHYLL_HAVE_X86 1
#endif

namespace irithyll::nn {

double dot_ref(const double* a, const double* b, std::size_t n) noexcept {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

void matvec_ref(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  for (std::size_t r = 0; r < rows; ++r) y[r] = dot_ref(m + r * cols, x, cols);
}

void matvec_t_ref(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  for (std::size_t c = 0; c < cols; ++c) y[c] = 0.0;
  for (std::size_t r = 0; r < rows; ++r) axpy_ref(x[r], m + r * cols, y, cols);
}

void axpy_ref(double a, const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] += a * x[i];
}

#ifdef IRITHYLL_HAVE_X86
namespace {

__attribute__((target("avx2,fma"))) inline double hsum(__m256d v) noexcept {
  const __m128d lo = _mm256_castpd256_pd128(v);
  const __m128d hi = _mm256_extractf128_pd(v, 1);
  const __m128d s = _mm_add_pd(lo, hi);
  return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

__attribute__((target("avx2,fma"))) double dot_avx2(const double* a, const double* b, std::size_t n) noexcept {
  __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 = _mm256_fmadd_pd(_mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i), s0);
    s1 = _mm256_fmadd_pd(_mm256_loadu_pd(a + i + 4), _mm256_loadu_pd(b + i + 4), s1);
  }
  for (; i + 4 <= n; i += 4) s0 = _mm256_fmadd_pd(_mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i), s0);
  double s = hsum(_mm256_add_pd(s0, s1));
  for (; i < n; ++i) s += a[i] * b[i];
  return s;
}

// Four rows per pass so each load of x feeds four FMAs; this is what makes the
// fused attention projection (a few hundred rows of 64) run near the FMA bound.
__attribute__((target("avx2,fma"))) void matvec_avx2(const double* m, const double* x, double* y, std::size_t rows,
                                                     std::size_t cols) noexcept {
  std::size_t r = 0;
  const std::size_t c4 = cols & ~std::size_t{3};
  for (; r + 4 <= rows; r += 4) {
    const double* m0 = m + r * cols;
    const double* m1 = m0 + cols;
    const double* m2 = m1 + cols;
    const double* m3 = m2 + cols;
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(),
            a3 = _mm256_setzero_pd();
    for (std::size_t c = 0; c < c4; c += 4) {
      const __m256d xv = _mm256_loadu_pd(x + c);
      a0 = _mm256_fmadd_pd(_mm256_loadu_pd(m0 + c), xv, a0);
      a1 = _mm256_fmadd_pd(_mm256_loadu_pd(m1 + c), xv, a1);
      a2 = _mm256_fmadd_pd(_mm256_loadu_pd(m2 + c), xv, a2);
      a3 = _mm256_fmadd_pd(_mm256_loadu_pd(m3 + c), xv, a3);
    }
    // Transpose-reduce the four accumulators into one vector of four sums.
    const __m256d h01 = _mm256_hadd_pd(a0, a1);
    const __m256d h23 = _mm256_hadd_pd(a2, a3);
    const __m256d sw = _mm256_permute2f128_pd(h01, h23, 0x21);
    const __m256d bl = _mm256_blend_pd(h01, h23, 0xC);
    __m256d sums = _mm256_add_pd(sw, bl);
    if (c4 != cols) {
      alignas(32) double tail[4] = {0.0, 0.0, 0.0, 0.0};
      for (std::size_t c = c4; c < cols; ++c) {
        tail[0] += m0[c] * x[c];
        tail[1] += m1[c] * x[c];
        tail[2] += m2[c] * x[c];
        tail[3] += m3[c] * x[c];
      }
      sums = _mm256_add_pd(sums, _mm256_load_pd(tail));
    }
    _mm256_storeu_pd(y + r, sums);
  }
  for (; r < rows; ++r) y[r] = dot_avx2(m + r * cols, x, cols);
}

__attribute__((target("avx2,fma"))) void axpy_avx2(double a, const double* x, double* y, std::size_t n) noexcept {
  const __m256d av = _mm256_set1_pd(a);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(y + i, _mm256_fmadd_pd(av, _mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i)));
  for (; i < n; ++i) y[i] += a * x[i];
}

__attribute__((target("avx2,fma"))) void matvec_t_avx2(const double* m, const double* x, double* y, std::size_t rows,
                                                       std::size_t cols) noexcept {
  for (std::size_t c = 0; c < cols; ++c) y[c] = 0.0;
  for (std::size_t r = 0; r < rows; ++r) axpy_avx2(x[r], m + r * cols, y, cols);
}

bool detect_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

const bool kUseAvx2 = detect_avx2();

}  // namespace

double dot(const double* a, const double* b, std::size_t n) noexcept {
  return kUseAvx2 ? dot_avx2(a, b, n) : dot_ref(a, b, n);
}
void matvec(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  if (kUseAvx2) {
    matvec_avx2(m, x, y, rows, cols);
  } else {
    matvec_ref(m, x, y, rows, cols);
  }
}
void matvec_t(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  if (kUseAvx2) {
    matvec_t_avx2(m, x, y, rows, cols);
  } else {
    matvec_t_ref(m, x, y, rows, cols);
  }
}
void axpy(double a, const double* x, double* y, std::size_t n) noexcept {
  if (kUseAvx2) {
    axpy_avx2(a, x, y, n);
  } else {
    axpy_ref(a, x, y, n);
  }
}
const char* kernels_backend() noexcept { return kUseAvx2 ? "avx2" : "scalar"; }
#else
double dot(const double* a, const double* b, std::size_t n) noexcept { return dot_ref(a, b, n); }
void matvec(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  matvec_ref(m, x, y, rows, cols);
}
void matvec_t(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  matvec_t_ref(m, x, y, rows, cols);
}
void axpy(double a, const double* x, double* y, std::size_t n) noexcept { axpy_ref(a, x, y, n); }
const char* kernels_backend() noexcept { return "scalar"; }
#endif

}  // namespace irithyll::nn
