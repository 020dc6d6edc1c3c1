#include "nn/continual/readout_regeneration.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll::nn {

Result<ReadoutRegenerator> ReadoutRegenerator::make(const ContinualConfig& c, std::size_t n_groups,
                                                    std::vector<std::int32_t> feature_group) {
  IRITHYLL_RETURN_IF_ERROR(c.validate());
  if (c.kind != ContinualKind::kRegen)
    return Status::invalid_argument("continual: a fixed extractor with an RLS readout has no gradient; only regen applies");
  if (n_groups == 0 || n_groups > (1u << 30)) return Status::invalid_argument("continual: no groups to regenerate");
  auto detector = make_continual_detector(c);
  if (!detector.is_ok()) return detector.status();
  ReadoutRegenerator r;
  NeuronRegenerationConfig nc;
  nc.fraction = c.regen_fraction;
  nc.interval = c.interval;
  nc.utility_alpha = c.alpha;
  nc.seed = c.seed;
  nc.on_drift = c.regen_on_drift;
  r.regen_ = NeuronRegeneration(n_groups, nc);
  r.watch_ = LossWatch(std::move(detector).value());
  std::vector<double> count(n_groups, 0.0);
  for (const std::int32_t g : feature_group) {
    if (g == kNoGroup) continue;
    if (g < 0 || static_cast<std::size_t>(g) >= n_groups) return Status::invalid_argument("continual: feature group out of range");
    count[static_cast<std::size_t>(g)] += 1.0;
  }
  r.inv_count_.assign(n_groups, 0.0);
  for (std::size_t g = 0; g < n_groups; ++g) r.inv_count_[g] = count[g] > 0.0 ? 1.0 / count[g] : 0.0;
  r.feature_group_ = std::move(feature_group);
  r.score_.assign(n_groups, 0.0);
  return r;
}

void ReadoutRegenerator::observe_prediction(double y_hat, double y, Task task) noexcept {
  const double loss = task == Task::kClassification ? (y_hat == y ? 0.0 : 1.0) : std::fabs(y - y_hat);
  const DriftSignal s = watch_.update(loss);
  if (s != DriftSignal::kStable) regen_.on_drift({}, s);
}

void ReadoutRegenerator::add_scores(std::span<const double> weights, std::span<const double> features) noexcept {
  const std::size_t n = std::min({features.size(), weights.size(), feature_group_.size()});
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t g = feature_group_[i];
    if (g != kNoGroup) score_[static_cast<std::size_t>(g)] += std::fabs(weights[i]) * std::fabs(features[i]);
  }
}

bool ReadoutRegenerator::finish_step() noexcept {
  for (std::size_t g = 0; g < score_.size(); ++g) score_[g] *= inv_count_[g];
  regen_.observe_utility(score_);
  return regen_.step();
}

std::size_t ReadoutRegenerator::memory_bytes() const noexcept {
  return watch_.memory_bytes() + feature_group_.capacity() * sizeof(std::int32_t) +
         (score_.capacity() + inv_count_.capacity() + 2 * regen_.n_groups()) * sizeof(double);
}

void ReadoutRegenerator::encode_state(ByteWriter& out) const {
  regen_.encode_state(out);
  watch_.encode(out);
}

Status ReadoutRegenerator::decode_state(ByteReader& in) {
  ReadoutRegenerator next = *this;
  IRITHYLL_RETURN_IF_ERROR(next.regen_.decode_state(in));
  IRITHYLL_RETURN_IF_ERROR(next.watch_.decode(in));
  *this = std::move(next);
  return Status::ok();
}

Status reset_regenerator(std::optional<ReadoutRegenerator>& regen, const ContinualConfig& config, std::size_t n_groups,
                         std::vector<std::int32_t> feature_group) {
  regen.reset();
  if (!config.enabled()) return Status::ok();
  auto r = ReadoutRegenerator::make(config, n_groups, std::move(feature_group));
  if (!r.is_ok()) return r.status();
  regen = std::move(r).value();
  return Status::ok();
}

Status reset_unit_regenerator(std::optional<ReadoutRegenerator>& regen, const ContinualConfig& config,
                              std::size_t n_features, std::size_t n_units) {
  if (!config.enabled()) {
    regen.reset();
    return Status::ok();
  }
  std::vector<std::int32_t> groups(n_features, ReadoutRegenerator::kNoGroup);
  for (std::size_t j = 0; j < n_units && j < n_features; ++j) groups[j] = static_cast<std::int32_t>(j);
  return reset_regenerator(regen, config, n_units, std::move(groups));
}

}  // namespace irithyll::nn
