#include "cluster/distance_kernels.hpp"

#include <algorithm>
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
using I4 = std::int64_t __attribute__((vector_size(32)));
inline void load4(I4& v, const std::int64_t* p) noexcept { std::memcpy(&v, p, sizeof v); }
inline void store4(std::int64_t* p, const I4& v) noexcept { std::memcpy(p, &v, sizeof v); }

// The partial sums of centres begin .. begin + 15 in four vectors, and of
// centres begin .. begin + 3 in one (inlined into each clone below).
// add16 adds features f0 .. f1 - 1 to sums already holding 0 .. f0 - 1.
[[gnu::always_inline]] inline void add16(const double* x, const double* cols, std::size_t stride, std::size_t begin,
                                         std::size_t f0, std::size_t f1, V4 (&a)[4]) noexcept {
  for (std::size_t f = f0; f < f1; ++f) {
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
[[gnu::always_inline]] inline void sums16(const double* x, const double* cols, std::size_t stride, std::size_t begin,
                                          std::size_t d, V4 (&a)[4]) noexcept {
  a[0] = a[1] = a[2] = a[3] = V4{};
  add16(x, cols, stride, begin, 0, d, a);
}
// True when all 16 sums exceed lim. Rounding to nearest never makes a sum
// smaller by adding a square (fl(s + q) >= s for q >= 0), so a partial sum
// above lim means the whole distance is too: the block can stop early,
// with no effect on the result. A NaN never counts as above.
[[gnu::always_inline]] inline bool all_above(const V4 (&a)[4], const V4& lim) noexcept {
  const auto above = (a[0] > lim) & (a[1] > lim) & (a[2] > lim) & (a[3] > lim);
  return (above[0] & above[1] & above[2] & above[3]) != 0;
}
// The partial sums of a block of 16, 2 features at a time, stopping once
// they all exceed lim; returns false when they all do (at the end too).
[[gnu::always_inline]] inline bool sums16_below(const double* x, const double* cols, std::size_t stride,
                                                std::size_t begin, std::size_t d, const V4& lim,
                                                V4 (&a)[4]) noexcept {
  a[0] = a[1] = a[2] = a[3] = V4{};
  std::size_t f = 0;
  for (; f + 2 <= d; f += 2) {
    add16(x, cols, stride, begin, f, f + 2, a);
    if (all_above(a, lim)) return false;
  }
  if (f < d) add16(x, cols, stride, begin, f, d, a);
  return f == d || !all_above(a, lim);
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
    if (!sums16_below(x, cols, stride, begin, d, rv, a)) continue;
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

// Point a against points b .. b + 3 in one vector, all pairs in one call
// (DBStream's move guard asks this for its dozen or so moved centres each
// sample). The close lanes are or-ed into a per-row vector for a and into
// close[b .. b + 3] as whole vectors, so nothing is taken out lane by lane
// until the end; branch-free, as which pairs are close is unpredictable.
IRITHYLL_CLUSTER_CLONES
void close_pairs(const double* cols, std::size_t stride, std::size_t n, std::size_t d, double r2,
                 std::int64_t* __restrict close) noexcept {
  for (std::size_t a = 0; a < n + 3; ++a) close[a] = 0;
  const V4 rv = {r2, r2, r2, r2};
  const auto limit = static_cast<std::int64_t>(n);
  // Rows a and a + 1 together: each block of 4 columns is loaded once for
  // both. Both start at column a + 1; a lane counts for a row only past the
  // row's own point and before n.
  for (std::size_t a = 0; a + 1 < n; a += 2) {
    const auto a0 = static_cast<std::int64_t>(a);
    I4 row0 = {0, 0, 0, 0}, row1 = {0, 0, 0, 0};
    for (std::size_t b = a + 1; b < n; b += 4) {
      V4 s0{}, s1{};
      for (std::size_t f = 0; f < d; ++f) {
        const double* cf = cols + f * stride;
        const V4 x0 = {cf[a], cf[a], cf[a], cf[a]};
        const V4 x1 = {cf[a + 1], cf[a + 1], cf[a + 1], cf[a + 1]};
        V4 c;
        load4(c, cf + b);
        const V4 t0 = x0 - c, t1 = x1 - c;
        s0 += t0 * t0;
        s1 += t1 * t1;
      }
      const auto first = static_cast<std::int64_t>(b);
      const I4 lane = {first, first + 1, first + 2, first + 3};
      const I4 in = lane < limit;
      const I4 near0 = (s0 < rv) & in;  // lanes > a: b starts past a
      const I4 near1 = (s1 < rv) & in & (lane > a0 + 1);
      row0 |= near0;
      row1 |= near1;
      I4 cb;
      load4(cb, close + b);
      cb |= near0 | near1;
      store4(close + b, cb);
    }
    close[a] |= (row0[0] | row0[1] | row0[2] | row0[3]);
    close[a + 1] |= (row1[0] | row1[1] | row1[2] | row1[3]);
  }
  for (std::size_t a = 0; a < n; ++a) close[a] = close[a] != 0 ? 1 : 0;
}

// Each lane keeps the smallest (distance, order) of the labelled centres it
// sees; the lanes are merged at the end, the same way, so the answer is the
// smallest of all, as one scan finds it. No branch per centre: where the
// next closer centre lies is unpredictable. A block whose partial sums all
// exceed the best distance so far stops early (all_above): none of its
// centres can win or tie.

[[gnu::always_inline]] inline void keep_nearer(const V4& dist, const std::int64_t* labels, const std::int64_t* order,
                                               V4& best, I4& at) noexcept {
  I4 lab, ord;
  load4(lab, labels);
  load4(ord, order);
  // An infinite distance may tie an empty lane (best = inf); the merge
  // below ignores lanes at inf, and any finite distance replaces it.
  const I4 take = (lab >= 0) & ((dist < best) | ((dist == best) & (ord < at)));
  best = (V4)(((I4)dist & take) | ((I4)best & ~take));
  at = (ord & take) | (at & ~take);
}

IRITHYLL_CLUSTER_CLONES
std::int64_t nearest_labelled(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                              const std::int64_t* labels, const std::int64_t* order, double bound) noexcept {
  const double inf = __builtin_inf();
  constexpr std::int64_t kNone = INT64_MAX;
  V4 best[4];
  I4 at[4];
  for (int k = 0; k < 4; ++k) best[k] = V4{inf, inf, inf, inf}, at[k] = I4{kNone, kNone, kNone, kNone};
  V4 lim = {bound, bound, bound, bound};  // the smallest of best[] and bound
  std::size_t begin = 0;
  for (; begin + 16 <= n; begin += 16) {
    V4 a[4];
    if (!sums16_below(x, cols, stride, begin, d, lim, a)) continue;
    for (std::size_t k = 0; k < 4; ++k)
      keep_nearer(a[k], labels + begin + 4 * k, order + begin + 4 * k, best[k], at[k]);
    V4 m = best[0];
    for (int k = 1; k < 4; ++k) m = m < best[k] ? m : best[k];
    const double lo = std::min(std::min(std::min(m[0], m[1]), std::min(m[2], m[3])), bound);
    lim = V4{lo, lo, lo, lo};
  }
  for (; begin + 4 <= n; begin += 4) {
    V4 a;
    sums4(x, cols, stride, begin, d, a);
    keep_nearer(a, labels + begin, order + begin, best[0], at[0]);
  }
  double bd = inf;
  std::int64_t found = kNone;
  for (int k = 0; k < 4; ++k)
    for (int q = 0; q < 4; ++q)
      if (best[k][q] < bd || (best[k][q] == bd && at[k][q] < found)) bd = best[k][q], found = at[k][q];
  for (; begin < n; ++begin) {
    const double s = sum1(x, cols, stride, begin, d);
    if (labels[begin] >= 0 && (s < bd || (s == bd && order[begin] < found))) bd = s, found = order[begin];
  }
  return bd < inf ? found : -1;
}

}  // namespace irithyll::cluster_detail
