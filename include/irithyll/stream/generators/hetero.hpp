// Heteroscedastic regression with one abrupt drift, for checking predictive
// intervals: ten features uniform in [0, 1), the Friedman #1 mean, and noise
// whose standard deviation depends on a feature the mean ignores,
//
//   before the drift:  y = friedman(x) + (0.5 + 3 x6) N(0, 1)
//   after the drift:   y = friedman(x') + (0.5 + 6 x7) N(0, 1),  x' = x with x4 and x5 swapped
//
// so both the mean and the noise's shape and scale change at once. The
// drift comes at sample `drift_at` (default 50,000). Cost per sample: 10
// uniform draws and one normal. Not thread-safe.
#pragma once

#include "irithyll/stream/generators/generator.hpp"

namespace irithyll {

struct HeteroConfig {
  std::uint64_t drift_at = 50000;
  std::optional<std::uint64_t> n_samples;
};

class HeteroGenerator final : public GeneratorStream {
 public:
  static constexpr std::size_t kFeatures = 10;
  static Status validate(const HeteroConfig&) { return Status::ok(); }
  HeteroGenerator(const HeteroConfig& config, std::uint64_t seed);
  // The noise's standard deviation at x for sample number t (0-based).
  static double noise_sd(std::span<const double> x, bool drifted);

 private:
  void generate(std::span<double> x, double& y) override;
  HeteroConfig config_;
  std::uint64_t t_ = 0;
};

}  // namespace irithyll
