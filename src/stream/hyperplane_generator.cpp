#include "irithyll/stream/generators/hyperplane.hpp"

#include <cmath>

namespace irithyll {
namespace {

Schema hyperplane_schema(std::size_t d) {
  Schema s;
  s.feature_names = numbered_feature_names(d);
  s.target_name = "class";
  s.task = Task::kClassification;
  s.class_names = numbered_class_names(2);
  return s;
}

}  // namespace

Status HyperplaneGenerator::validate(const HyperplaneConfig& config) {
  if (config.n_features < 1 || config.n_features > 100000)
    return Status::invalid_argument("hyperplane: n_features must be in 1..100000");
  if (config.n_drift_features > config.n_features)
    return Status::invalid_argument("hyperplane: n_drift_features must not exceed n_features");
  if (!(config.magnitude >= 0.0 && std::isfinite(config.magnitude)))
    return Status::invalid_argument("hyperplane: magnitude must be finite and >= 0");
  if (!(config.sigma >= 0.0 && config.sigma <= 1.0)) return Status::invalid_argument("hyperplane: sigma must be in [0, 1]");
  if (!(config.noise >= 0.0 && config.noise <= 1.0)) return Status::invalid_argument("hyperplane: noise must be in [0, 1]");
  return Status::ok();
}

HyperplaneGenerator::HyperplaneGenerator(const HyperplaneConfig& config, std::uint64_t seed)
    : GeneratorStream(hyperplane_schema(config.n_features), seed, config.n_samples),
      config_(config),
      weights_(config.n_features),
      direction_(config.n_drift_features) {
  for (double& w : weights_) w = rng_.uniform();
  for (double& s : direction_) s = rng_.uniform() < 0.5 ? -1.0 : 1.0;
}

void HyperplaneGenerator::generate(std::span<double> x, double& y) {
  double dot = 0.0, total = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = rng_.uniform();
    dot += weights_[i] * x[i];
    total += weights_[i];
  }
  bool label = dot >= 0.5 * total;
  if (rng_.uniform() < config_.noise) label = !label;
  y = label ? 1.0 : 0.0;
  for (std::size_t i = 0; i < direction_.size(); ++i) {
    weights_[i] += config_.magnitude * direction_[i];
    if (rng_.uniform() < config_.sigma) direction_[i] = -direction_[i];
  }
}

}  // namespace irithyll
