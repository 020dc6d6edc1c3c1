#include "scan_kernels.hpp"

#include <immintrin.h>

#include "core/cpu_features.hpp"

namespace irithyll::nn::detail {

void scan_update_ref(double* h, const double* alpha, const double* bb, const double* c, const double* x,
                     const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept {
  for (std::size_t d = 0; d < d_in; ++d) {
    double* hd = h + d * n;
    double acc = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      hd[k] = alpha[k] * hd[k] + bb[k] * x[d];
      acc += c[k] * hd[k];
    }
    y[d] = acc + skip[d] * x[d];
  }
}

void scan_peek_ref(const double* h, const double* alpha, const double* bb, const double* c, const double* x,
                   const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept {
  for (std::size_t d = 0; d < d_in; ++d) {
    const double* hd = h + d * n;
    double acc = 0.0;
    for (std::size_t k = 0; k < n; ++k) acc += c[k] * (alpha[k] * hd[k] + bb[k] * x[d]);
    y[d] = acc + skip[d] * x[d];
  }
}

namespace {

template <bool kCommit>
__attribute__((target("avx2,fma"))) void scan_avx2(double* h, const double* alpha, const double* bb, const double* c,
                                                   const double* x, const double* skip, double* y, std::size_t d_in,
                                                   std::size_t n) noexcept {
  const std::size_t n4 = n & ~std::size_t{3};
  for (std::size_t d = 0; d < d_in; ++d) {
    double* hd = h + d * n;
    const __m256d xd = _mm256_set1_pd(x[d]);
    __m256d acc = _mm256_setzero_pd();
    std::size_t k = 0;
    for (; k < n4; k += 4) {
      const __m256d hv = _mm256_fmadd_pd(_mm256_loadu_pd(alpha + k), _mm256_loadu_pd(hd + k),
                                         _mm256_mul_pd(_mm256_loadu_pd(bb + k), xd));
      if constexpr (kCommit) _mm256_storeu_pd(hd + k, hv);
      acc = _mm256_fmadd_pd(_mm256_loadu_pd(c + k), hv, acc);
    }
    const __m128d lo = _mm256_castpd256_pd128(acc), hi = _mm256_extractf128_pd(acc, 1);
    const __m128d s2 = _mm_add_pd(lo, hi);
    double s = _mm_cvtsd_f64(_mm_add_sd(s2, _mm_unpackhi_pd(s2, s2)));
    for (; k < n; ++k) {
      const double hv = alpha[k] * hd[k] + bb[k] * x[d];
      if constexpr (kCommit) hd[k] = hv;
      s += c[k] * hv;
    }
    y[d] = s + skip[d] * x[d];
  }
}

}  // namespace

void scan_update(double* h, const double* alpha, const double* bb, const double* c, const double* x,
                 const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept {
  if (cpu_has_avx2_fma()) return scan_avx2<true>(h, alpha, bb, c, x, skip, y, d_in, n);
  scan_update_ref(h, alpha, bb, c, x, skip, y, d_in, n);
}

void scan_peek(const double* h, const double* alpha, const double* bb, const double* c, const double* x,
               const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept {
  // The AVX2 body only writes h when committing, so casting away const is safe.
  if (cpu_has_avx2_fma()) return scan_avx2<false>(const_cast<double*>(h), alpha, bb, c, x, skip, y, d_in, n);
  scan_peek_ref(h, alpha, bb, c, x, skip, y, d_in, n);
}

const char* scan_backend() noexcept { return cpu_has_avx2_fma() ? "avx2" : "scalar"; }

}  // namespace irithyll::nn::detail
