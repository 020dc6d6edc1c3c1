// Friedman #1 regression (Friedman, "Multivariate adaptive regression
// splines", Ann. Statist. 1991): ten features uniform in [0, 1), of which
// only the first five matter,
//
//   y = 10 sin(pi x1 x2) + 20 (x3 - 0.5)^2 + 10 x4 + 5 x5 + noise * N(0, 1).
//
// Stationary: no drift. Cost per sample: 10 uniform draws and one normal.
// Not thread-safe.
#pragma once

#include "irithyll/stream/generators/generator.hpp"

namespace irithyll {

struct FriedmanConfig {
  double noise = 1.0;  // standard deviation of the additive Gaussian noise, >= 0
  std::optional<std::uint64_t> n_samples;
};

class FriedmanGenerator final : public GeneratorStream {
 public:
  static constexpr std::size_t kFeatures = 10;
  static Status validate(const FriedmanConfig& config);
  FriedmanGenerator(const FriedmanConfig& config, std::uint64_t seed);
  // The noise-free target for x (size >= 5).
  static double target(std::span<const double> x);

 private:
  void generate(std::span<double> x, double& y) override;
  FriedmanConfig config_;
};

}  // namespace irithyll
