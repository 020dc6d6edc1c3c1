#include "irithyll/stream/generators/hetero.hpp"

#include <array>

#include "irithyll/stream/generators/friedman.hpp"

namespace irithyll {

HeteroGenerator::HeteroGenerator(const HeteroConfig& config, std::uint64_t seed)
    : GeneratorStream(Schema{{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10"}, "y", Task::kRegression, {}},
                      seed, config.n_samples),
      config_(config) {}

double HeteroGenerator::noise_sd(std::span<const double> x, bool drifted) {
  return drifted ? 0.5 + 6.0 * x[6] : 0.5 + 3.0 * x[5];
}

void HeteroGenerator::generate(std::span<double> x, double& y) {
  for (double& v : x) v = rng_.uniform();
  const bool drifted = t_ >= config_.drift_at;
  ++t_;
  std::array<double, 5> m{x[0], x[1], x[2], x[3], x[4]};
  if (drifted) std::swap(m[3], m[4]);
  y = FriedmanGenerator::target(m) + noise_sd(x, drifted) * rng_.normal();
}

}  // namespace irithyll
