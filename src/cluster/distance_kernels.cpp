#include "cluster/distance_kernels.hpp"

#include <cstdint>
#include <cstring>

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

// Blocks of 16 centres keep their partial sums in four 4-wide vectors (GCC
// and Clang vector extensions: four AVX2 registers, or eight SSE2 ones in
// the baseline build) across all d features, so a distance costs one load,
// subtraction, multiplication and addition per feature and nothing is
// stored until it is complete; the tail goes in blocks of 4, then one by one. Either
// way distance i is ((0 + t_0^2) + t_1^2) + ... in feature order.
using V4 = double __attribute__((vector_size(32)));

// Centre columns and outputs are only 8-byte aligned. Clang ignores a lowered
// alignment on a vector alias, so loads and stores go through memcpy, which
// both compilers turn into one unaligned vector move.
// (By reference: a 32-byte vector passed or returned by value changes the ABI
// outside the AVX2 clone.)
inline void load4(V4& v, const double* p) noexcept { std::memcpy(&v, p, sizeof v); }
inline void store4(double* p, const V4& v) noexcept { std::memcpy(p, &v, sizeof v); }

// The partial sums of centres begin .. begin + 15 in four vectors, and of
// centres begin .. begin + 3 in one (inlined into each clone below).
[[gnu::always_inline]] inline void sums16(const double* x, const double* cols, std::size_t stride, std::size_t begin,
                                          std::size_t d, V4 (&a)[4]) noexcept {
  a[0] = a[1] = a[2] = a[3] = V4{};
  for (std::size_t f = 0; f < d; ++f) {
    const double xf = x[f];
    const V4 xv = {xf, xf, xf, xf};
    const double* c = cols + f * stride + begin;
    V4 c0, c1, c2, c3;
    load4(c0, c);
    load4(c1, c + 4);
    load4(c2, c + 8);
    load4(c3, c + 12);
    const V4 t0 = xv - c0, t1 = xv - c1, t2 = xv - c2, t3 = xv - c3;
    a[0] += t0 * t0;
    a[1] += t1 * t1;
    a[2] += t2 * t2;
    a[3] += t3 * t3;
  }
}
[[gnu::always_inline]] inline void sums4(const double* x, const double* cols, std::size_t stride, std::size_t begin,
                                         std::size_t d, V4& a) noexcept {
  a = V4{};
  for (std::size_t f = 0; f < d; ++f) {
    const double xf = x[f];
    const V4 xv = {xf, xf, xf, xf};
    V4 c0;
    load4(c0, cols + f * stride + begin);
    const V4 t0 = xv - c0;
    a += t0 * t0;
  }
}
// The last centres one by one.
[[gnu::always_inline]] inline double sum1(const double* x, const double* cols, std::size_t stride, std::size_t i,
                                          std::size_t d) noexcept {
  double s = 0.0;
  for (std::size_t f = 0; f < d; ++f) {
    const double t = x[f] - cols[f * stride + i];
    s += t * t;
  }
  return s;
}

IRITHYLL_CLUSTER_CLONES
void squared_distances(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                       double* __restrict out) noexcept {
  std::size_t begin = 0;
  for (; begin + 16 <= n; begin += 16) {
    V4 a[4];
    sums16(x, cols, stride, begin, d, a);
    for (int k = 0; k < 4; ++k) store4(out + begin + 4 * k, a[k]);
  }
  for (; begin + 4 <= n; begin += 4) {
    V4 a;
    sums4(x, cols, stride, begin, d, a);
    store4(out + begin, a);
  }
  for (; begin < n; ++begin) out[begin] = sum1(x, cols, stride, begin, d);
}

IRITHYLL_CLUSTER_CLONES
std::size_t within_radius(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                          double r2, std::size_t* __restrict idx, double* __restrict dist) noexcept {
  std::size_t found = 0;
  // Branch-free append: which centres are inside is unpredictable.
  auto take = [&](std::size_t i, double s) {
    idx[found] = i;
    dist[found] = s;
    found += s <= r2 ? 1 : 0;
  };
  const V4 rv = {r2, r2, r2, r2};
  std::size_t begin = 0;
  for (; begin + 16 <= n; begin += 16) {
    V4 a[4];
    sums16(x, cols, stride, begin, d, a);
    const auto inside = (a[0] <= rv) | (a[1] <= rv) | (a[2] <= rv) | (a[3] <= rv);
    if ((inside[0] | inside[1] | inside[2] | inside[3]) == 0) continue;
    double s[16];
    for (int k = 0; k < 4; ++k) store4(s + 4 * k, a[k]);
    for (std::size_t q = 0; q < 16; ++q) take(begin + q, s[q]);
  }
  for (; begin + 4 <= n; begin += 4) {
    V4 a;
    sums4(x, cols, stride, begin, d, a);
    double s[4];
    store4(s, a);
    for (std::size_t q = 0; q < 4; ++q) take(begin + q, s[q]);
  }
  for (; begin < n; ++begin) take(begin, sum1(x, cols, stride, begin, d));
  return found;
}

// Each lane keeps the first smallest labelled distance among the centres it
// sees (a strict compare) and that centre's index; the lanes are merged at
// the end, a tie going to the smaller index, so the answer is the first
// smallest of all, as one scan in index order finds it. No branch per
// centre: where the next closer centre lies is unpredictable.
using I4 = std::int64_t __attribute__((vector_size(32)));
inline void load4(I4& v, const std::int64_t* p) noexcept { std::memcpy(&v, p, sizeof v); }

[[gnu::always_inline]] inline void keep_nearer(const V4& dist, const std::int64_t* labels, std::int64_t first,
                                               V4& best, I4& at) noexcept {
  I4 lab;
  load4(lab, labels);
  const I4 take = (dist < best) & (lab >= 0);
  const I4 idx = {first, first + 1, first + 2, first + 3};
  best = (V4)(((I4)dist & take) | ((I4)best & ~take));
  at = (idx & take) | (at & ~take);
}

IRITHYLL_CLUSTER_CLONES
std::size_t nearest_labelled(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                             const std::int64_t* labels) noexcept {
  const double inf = __builtin_inf();
  V4 best[4];
  I4 at[4];
  for (int k = 0; k < 4; ++k) best[k] = V4{inf, inf, inf, inf}, at[k] = I4{-1, -1, -1, -1};
  std::size_t begin = 0;
  for (; begin + 16 <= n; begin += 16) {
    V4 a[4];
    sums16(x, cols, stride, begin, d, a);
    for (std::size_t k = 0; k < 4; ++k)
      keep_nearer(a[k], labels + begin + 4 * k, static_cast<std::int64_t>(begin + 4 * k), best[k], at[k]);
  }
  for (; begin + 4 <= n; begin += 4) {
    V4 a;
    sums4(x, cols, stride, begin, d, a);
    keep_nearer(a, labels + begin, static_cast<std::int64_t>(begin), best[0], at[0]);
  }
  double bd = inf;
  std::size_t found = n;
  for (int k = 0; k < 4; ++k)
    for (int q = 0; q < 4; ++q) {
      if (at[k][q] < 0) continue;
      const auto i = static_cast<std::size_t>(at[k][q]);
      if (best[k][q] < bd || (best[k][q] == bd && i < found)) bd = best[k][q], found = i;
    }
  for (; begin < n; ++begin) {
    const double s = sum1(x, cols, stride, begin, d);
    if (labels[begin] >= 0 && s < bd) bd = s, found = begin;
  }
  return found;
}

}  // namespace irithyll::cluster_detail
