#include "irithyll/stream/generators/sea.hpp"

#include <cmath>

namespace irithyll {

Status SeaGenerator::validate(const SeaConfig& config) {
  if (config.thresholds.empty()) return Status::invalid_argument("sea: thresholds must not be empty");
  for (double t : config.thresholds)
    if (!std::isfinite(t)) return Status::invalid_argument("sea: thresholds must be finite");
  if (!(config.noise >= 0.0 && config.noise <= 1.0)) return Status::invalid_argument("sea: noise must be in [0, 1]");
  return Status::ok();
}

SeaGenerator::SeaGenerator(const SeaConfig& config, std::uint64_t seed)
    : GeneratorStream(Schema{{"f1", "f2", "f3"}, "class", Task::kClassification, numbered_class_names(2)}, seed,
                      config.n_samples),
      config_(config) {}

double SeaGenerator::threshold_at(std::uint64_t t) const {
  const std::uint64_t concept_index = config_.drift_every == 0 ? 0 : t / config_.drift_every;
  return config_.thresholds[concept_index % config_.thresholds.size()];
}

void SeaGenerator::generate(std::span<double> x, double& y) {
  for (double& v : x) v = rng_.uniform(0.0, 10.0);
  bool label = x[0] + x[1] > threshold_at(position());
  if (rng_.uniform() < config_.noise) label = !label;
  y = label ? 1.0 : 0.0;
}

}  // namespace irithyll
