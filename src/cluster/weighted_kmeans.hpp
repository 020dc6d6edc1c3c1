// Batch weighted k-means for small point sets: the k-means++ start of
// streaming k-means and CluStream's offline macro clustering over
// micro-cluster centres. Seeding is weighted k-means++ (Arthur &
// Vassilvitskii 2007: the first centre drawn by weight, each next by weight x
// squared distance to the nearest chosen one), then Lloyd iterations with
// weighted means until no assignment changes; the best of `restarts` runs by
// weighted inertia is kept. Squared Euclidean distance throughout.
//
// Cost: restarts x iterations x n k d. Allocates (it runs rarely).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cluster/distance_kernels.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll::cluster_detail {

struct WeightedKMeansResult {
  std::vector<double> centres;  // k_eff x d
  std::vector<double> weights;  // k_eff: weight assigned to each centre
  double inertia = 0.0;
};

// points: n x d row-major, weights: n (> 0). k_eff = min(k, n); n = 0 gives
// an empty result.
WeightedKMeansResult weighted_kmeans(std::span<const double> points, std::span<const double> weights, std::size_t d,
                                     std::size_t k, Xorshift64& rng, int restarts, int max_iterations);

}  // namespace irithyll::cluster_detail
