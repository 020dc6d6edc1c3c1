// Random RBF with moving centroids (MOA's RandomRBFGeneratorDrift, after
// Bifet et al., "New ensemble methods for evolving data streams", KDD 2009):
// n_centroids Gaussian blobs in [0, 1]^d, each with a random class, a random
// spread sigma_c in [0, 1) and a random weight. A sample picks a centroid c
// with probability proportional to its weight and lies at
//
//   x = centre_c + u * (N(0,1) * sigma_c),   u a uniformly random unit vector.
//
// Incremental drift: the first n_drift_centroids centroids move by `speed`
// per sample along a random unit direction, bouncing off the faces of the
// unit cube. Features are unbounded in principle (mostly in [-1, 2]).
//
// Cost per sample: O(d + log n_centroids) plus O(n_drift_centroids * d) for
// the motion. Memory: O(n_centroids * d). Not thread-safe.
#pragma once

#include <vector>

#include "irithyll/stream/generators/generator.hpp"

namespace irithyll {

struct RbfConfig {
  std::size_t n_features = 10;          // 1..100000
  std::size_t n_classes = 2;            // 2..65536
  std::size_t n_centroids = 50;         // 1..1000000
  std::size_t n_drift_centroids = 50;   // <= n_centroids
  double speed = 0.0001;                // distance moved per sample, >= 0
  std::optional<std::uint64_t> n_samples;
};

class RbfGenerator final : public GeneratorStream {
 public:
  struct Centroid {
    std::vector<double> centre;
    std::vector<double> velocity;  // speed * unit direction (zero when not drifting)
    double sigma;
    std::size_t label;
  };

  static Status validate(const RbfConfig& config);
  // REQUIRES: validate(config) is OK.
  RbfGenerator(const RbfConfig& config, std::uint64_t seed);
  const std::vector<Centroid>& centroids() const { return centroids_; }

 private:
  void generate(std::span<double> x, double& y) override;
  void random_unit(std::span<double> u);

  RbfConfig config_;
  std::vector<Centroid> centroids_;
  std::vector<double> cumulative_weight_;  // for weighted choice by binary search
};

}  // namespace irithyll
