#include "irithyll/stream/generators/rbf.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {

Status RbfGenerator::validate(const RbfConfig& config) {
  if (config.n_features < 1 || config.n_features > 100000)
    return Status::invalid_argument("rbf: n_features must be in 1..100000");
  if (config.n_classes < 2 || config.n_classes > 65536) return Status::invalid_argument("rbf: n_classes must be in 2..65536");
  if (config.n_centroids < 1 || config.n_centroids > 1000000)
    return Status::invalid_argument("rbf: n_centroids must be in 1..1000000");
  if (config.n_drift_centroids > config.n_centroids)
    return Status::invalid_argument("rbf: n_drift_centroids must not exceed n_centroids");
  if (!(config.speed >= 0.0 && std::isfinite(config.speed))) return Status::invalid_argument("rbf: speed must be finite and >= 0");
  return Status::ok();
}

RbfGenerator::RbfGenerator(const RbfConfig& config, std::uint64_t seed)
    : GeneratorStream(Schema{}, seed, config.n_samples), config_(config) {
  schema_.feature_names = numbered_feature_names(config.n_features);
  schema_.target_name = "class";
  schema_.task = Task::kClassification;
  schema_.class_names = numbered_class_names(config.n_classes);
  double total = 0.0;
  centroids_.resize(config.n_centroids);
  for (std::size_t c = 0; c < config.n_centroids; ++c) {
    Centroid& k = centroids_[c];
    k.centre.resize(config.n_features);
    for (double& v : k.centre) v = rng_.uniform();
    k.label = static_cast<std::size_t>(rng_.below(config.n_classes));
    k.sigma = rng_.uniform();
    total += rng_.uniform();
    cumulative_weight_.push_back(total);
    k.velocity.assign(config.n_features, 0.0);
    if (c < config.n_drift_centroids) {
      random_unit(k.velocity);
      for (double& v : k.velocity) v *= config.speed;
    }
  }
}

void RbfGenerator::random_unit(std::span<double> u) {
  double norm = 0.0;
  while (norm == 0.0) {
    norm = 0.0;
    for (double& v : u) {
      v = rng_.normal();
      norm += v * v;
    }
  }
  norm = std::sqrt(norm);
  for (double& v : u) v /= norm;
}

void RbfGenerator::generate(std::span<double> x, double& y) {
  const double pick = rng_.uniform() * cumulative_weight_.back();
  const auto it = std::upper_bound(cumulative_weight_.begin(), cumulative_weight_.end(), pick);
  const std::size_t c = std::min<std::size_t>(static_cast<std::size_t>(it - cumulative_weight_.begin()),
                                              centroids_.size() - 1);
  const Centroid& k = centroids_[c];
  random_unit(x);  // direction, scaled in place below
  const double radius = rng_.normal() * k.sigma;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = k.centre[i] + x[i] * radius;
  y = static_cast<double>(k.label);
  for (std::size_t d = 0; d < config_.n_drift_centroids; ++d) {
    Centroid& m = centroids_[d];
    for (std::size_t i = 0; i < m.centre.size(); ++i) {
      double p = m.centre[i] + m.velocity[i];
      if (p > 1.0 || p < 0.0) {  // bounce off the cube's face
        p = p > 1.0 ? 2.0 - p : -p;
        m.velocity[i] = -m.velocity[i];
      }
      m.centre[i] = p;
    }
  }
}

}  // namespace irithyll
