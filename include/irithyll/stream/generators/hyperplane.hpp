// Rotating hyperplane (Hulten, Spencer & Domingos, "Mining time-changing
// data streams", KDD 2001): x uniform in [0, 1)^d, weights w uniform in
// [0, 1) at the start, and
//
//   class = 1 if sum_i w_i x_i >= 0.5 * sum_i w_i, else 0  (flipped with prob. noise)
//
// so the classes are balanced. Incremental drift: after every sample, each
// of the first n_drift_features weights moves by magnitude * s_i, where the
// direction s_i = +-1 (random at the start) reverses with probability sigma
// (MOA's sigmaPercentage).
//
// Cost per sample: O(d). Memory: 2d doubles. Not thread-safe.
#pragma once

#include <vector>

#include "irithyll/stream/generators/generator.hpp"

namespace irithyll {

struct HyperplaneConfig {
  std::size_t n_features = 10;        // 1..100000
  std::size_t n_drift_features = 2;   // <= n_features
  double magnitude = 0.001;           // weight change per sample, >= 0 (0 = no drift)
  double sigma = 0.1;                 // probability a direction reverses, [0, 1]
  double noise = 0.05;                // label flip probability, [0, 1]
  std::optional<std::uint64_t> n_samples;
};

class HyperplaneGenerator final : public GeneratorStream {
 public:
  static Status validate(const HyperplaneConfig& config);
  // REQUIRES: validate(config) is OK.
  HyperplaneGenerator(const HyperplaneConfig& config, std::uint64_t seed);
  // Weights that will label the next sample.
  std::span<const double> weights() const { return weights_; }

 private:
  void generate(std::span<double> x, double& y) override;
  HyperplaneConfig config_;
  std::vector<double> weights_;
  std::vector<double> direction_;  // +-1 per drifting feature
};

}  // namespace irithyll
