// Three regression targets on the Friedman #1 features ("friedman3"), for
// multi-target models (multi_target_sgbt): ten features uniform in [0, 1),
//
//   y1 = friedman1(x) + N(0, 1)                         (the "friedman" target)
//   y2 = 10 x7 x8 + 5 cos(pi x9) + N(0, 0.5)            (features y1 ignores)
//   y3 = friedman1(x) / 2 - 4 x10 + N(0, 0.5)           (shares y1's structure)
//
// with noise scaled by `noise` (1 = as written). Stationary. Cost per sample:
// 10 uniform draws and three normals. Not thread-safe.
#pragma once

#include "irithyll/stream/generators/generator.hpp"

namespace irithyll {

struct FriedmanMultiConfig {
  double noise = 1.0;  // scale of every target's noise, >= 0
  std::optional<std::uint64_t> n_samples;
};

class FriedmanMultiGenerator final : public GeneratorStream {
 public:
  static constexpr std::size_t kFeatures = 10;
  static constexpr std::size_t kTargets = 3;
  static Status validate(const FriedmanMultiConfig& config);
  FriedmanMultiGenerator(const FriedmanMultiConfig& config, std::uint64_t seed);

 private:
  void generate(std::span<double> x, double& y) override;
  void extra_targets(std::span<double> out) const override;
  FriedmanMultiConfig config_;
  double extra_[kTargets - 1] = {0.0, 0.0};  // y2, y3 of the last sample
};

}  // namespace irithyll
