#include "irithyll/stream/generators/friedman.hpp"

#include <cmath>
#include <numbers>

namespace irithyll {

Status FriedmanGenerator::validate(const FriedmanConfig& config) {
  if (!(config.noise >= 0.0 && std::isfinite(config.noise)))
    return Status::invalid_argument("friedman: noise must be finite and >= 0");
  return Status::ok();
}

FriedmanGenerator::FriedmanGenerator(const FriedmanConfig& config, std::uint64_t seed)
    : GeneratorStream(Schema{{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10"}, "y", Task::kRegression, {}},
                      seed, config.n_samples),
      config_(config) {}

double FriedmanGenerator::target(std::span<const double> x) {
  const double d = x[2] - 0.5;
  return 10.0 * std::sin(std::numbers::pi * x[0] * x[1]) + 20.0 * d * d + 10.0 * x[3] + 5.0 * x[4];
}

void FriedmanGenerator::generate(std::span<double> x, double& y) {
  for (double& v : x) v = rng_.uniform();
  y = target(x);
  if (config_.noise > 0.0) y += config_.noise * rng_.normal();
}

}  // namespace irithyll
