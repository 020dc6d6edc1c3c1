#include <cmath>
#include <numbers>

#include "irithyll/stream/generators/friedman.hpp"
#include "irithyll/stream/generators/friedman_multi.hpp"

namespace irithyll {

Status FriedmanMultiGenerator::validate(const FriedmanMultiConfig& config) {
  if (!(config.noise >= 0.0 && std::isfinite(config.noise)))
    return Status::invalid_argument("friedman3: noise must be finite and >= 0");
  return Status::ok();
}

FriedmanMultiGenerator::FriedmanMultiGenerator(const FriedmanMultiConfig& config, std::uint64_t seed)
    : GeneratorStream(Schema{numbered_feature_names(kFeatures), "y1", Task::kRegression, {}, {}, {"y1", "y2", "y3"}}, seed,
                      config.n_samples),
      config_(config) {}

void FriedmanMultiGenerator::generate(std::span<double> x, double& y) {
  for (double& v : x) v = rng_.uniform();
  const double f1 = FriedmanGenerator::target(x);
  y = f1;
  extra_[0] = 10.0 * x[6] * x[7] + 5.0 * std::cos(std::numbers::pi * x[8]);
  extra_[1] = 0.5 * f1 - 4.0 * x[9];
  if (config_.noise > 0.0) {
    // Always three draws in this order, so a sample's features do not depend on the noise setting.
    y += config_.noise * rng_.normal();
    extra_[0] += 0.5 * config_.noise * rng_.normal();
    extra_[1] += 0.5 * config_.noise * rng_.normal();
  }
}

void FriedmanMultiGenerator::extra_targets(std::span<double> out) const {
  for (std::size_t k = 0; k < out.size() && k < kTargets - 1; ++k) out[k] = extra_[k];
}

}  // namespace irithyll
