#include "cluster/distance_kernels.hpp"

// The loader picks an AVX2 or a baseline build of the distance loop
// (target_clones); both sum in the same order, so they give the same bits.
// Off under ThreadSanitizer, whose runtime is not up when the loader runs
// the ifunc resolver.
#if defined(__SANITIZE_THREAD__)
#define IRITHYLL_CLUSTER_NO_IFUNC 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define IRITHYLL_CLUSTER_NO_IFUNC 1
#endif
#endif
#if defined(__x86_64__) && !defined(__clang_analyzer__) && !defined(IRITHYLL_CLUSTER_NO_IFUNC)
#define IRITHYLL_CLUSTER_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define IRITHYLL_CLUSTER_CLONES
#endif

namespace irithyll::cluster_detail {

IRITHYLL_CLUSTER_CLONES
void squared_distances(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                       double* __restrict out) noexcept {
  for (std::size_t i = 0; i < n; ++i) out[i] = 0.0;
  for (std::size_t f = 0; f < d; ++f) {
    const double xf = x[f];
    const double* __restrict c = cols + f * stride;
    for (std::size_t i = 0; i < n; ++i) {
      const double t = xf - c[i];
      out[i] += t * t;
    }
  }
}

}  // namespace irithyll::cluster_detail
