// Squared Euclidean distances from one point to many centres: the inner loop
// of every clusterer (nearest micro-cluster, points within a radius, the
// nearest-neighbour links of CluStream).
//
// Centres are read feature-major ("columns"): coordinate f of centre i at
// cols[f * stride + i], so one pass over a feature touches consecutive
// centres and the loop runs across centres in vector registers (AVX2 where
// the CPU has it, picked once by the loader; SSE2 otherwise).
//
// Each distance is summed over features in order 0..d-1, starting from 0,
// exactly as squared_distance does for a row-major centre: no FP
// contraction under -std=c++20, so the fast path gives the same bits as the
// reference, not merely close ones (tests/cluster/distance_kernels_test.cpp).
//
// Cost: n d subtractions, multiplications and additions; no allocation;
// thread-safe (pure functions).
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::cluster_detail {

// The reference: the squared distance between two row-major points.
inline double squared_distance(const double* a, const double* b, std::size_t d) noexcept {
  double s = 0.0;
  for (std::size_t i = 0; i < d; ++i) {
    const double t = a[i] - b[i];
    s += t * t;
  }
  return s;
}

// out[i] = |x - centre i|^2 for i < n; centre i's coordinates at
// cols[f * stride + i] (stride >= n). out must not overlap x or cols.
void squared_distances(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                       double* out) noexcept;

// The centres i < n within r2 of x (|x - centre i|^2 <= r2), in index order:
// their indices to idx and their squared distances (the same bits as
// squared_distances) to dist; returns how many. Layout as above; idx and dist
// need room for n (slots past the count are scratch). A radius search touches
// few centres, so a block of 16 with none inside stores nothing, and stops
// as soon as its partial sums (every 2 features) all exceed r2: centres
// stored near each other in space make that early.
std::size_t within_radius(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                          double r2, std::size_t* idx, double* dist) noexcept;

// close[a] = 1 for each point a < n of cols (layout as above) with another
// point at a squared distance (as squared_distances computes it) below r2,
// 0 for the others. REQUIRES: stride >= n + 3 and finite values in
// cols[f * stride + n .. + 3) (blocks of 4 may read past n; those lanes are
// not used); close has room for n + 3.
void close_pairs(const double* cols, std::size_t stride, std::size_t n, std::size_t d, double r2,
                 std::int64_t* close) noexcept;

// The reference: the same, one pair at a time.
inline void close_pairs_ref(const double* cols, std::size_t stride, std::size_t n, std::size_t d, double r2,
                            std::int64_t* close) noexcept {
  for (std::size_t a = 0; a < n; ++a) close[a] = 0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      double s = 0.0;
      for (std::size_t f = 0; f < d; ++f) {
        const double t = cols[f * stride + a] - cols[f * stride + b];
        s += t * t;
      }
      if (s < r2) close[a] = close[b] = 1;
    }
}

// Among the centres i < n with labels[i] >= 0 and a finite squared distance
// from x (as squared_distances computes it), the one with the smallest
// (distance, order[i]): returns its order[i], or -1 when there is none.
// order holds distinct values >= 0 (with order[i] = i it is the first
// nearest labelled centre). bound: +inf, or the distance of one of the
// labelled centres (no smaller than the answer's), which lets blocks of
// centres all farther than it stop early. Layout as above.
std::int64_t nearest_labelled(const double* x, const double* cols, std::size_t stride, std::size_t n, std::size_t d,
                              const std::int64_t* labels, const std::int64_t* order, double bound) noexcept;

// The reference: the same search, one centre at a time.
inline std::int64_t nearest_labelled_ref(const double* x, const double* cols, std::size_t stride, std::size_t n,
                                         std::size_t d, const std::int64_t* labels, const std::int64_t* order) noexcept {
  std::int64_t best = -1;
  double bd = __builtin_inf();
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (std::size_t f = 0; f < d; ++f) {
      const double t = x[f] - cols[f * stride + i];
      s += t * t;
    }
    if (labels[i] >= 0 && (s < bd || (s == bd && order[i] < best))) bd = s, best = order[i];
  }
  return best;
}

}  // namespace irithyll::cluster_detail
