#include "nn/continual/neuron_regeneration.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace irithyll::nn {

NeuronRegeneration::NeuronRegeneration(std::size_t n_params, NeuronRegenerationConfig config)
    : config_(config), n_params_(n_params), rng_(config.seed) {
  config_.group_size = std::max<std::size_t>(config_.group_size, 1);
  config_.interval = std::max<std::uint64_t>(config_.interval, 1);
  const std::size_t groups = (n_params + config_.group_size - 1) / config_.group_size;
  utility_.assign(groups, 0.0);
  regenerated_.assign(groups, 0);
  order_.assign(groups, 0);
}

void NeuronRegeneration::pre_update(std::span<const double>, std::span<double> grads) noexcept {
  const double a = config_.utility_alpha;
  const std::size_t gs = config_.group_size;
  for (std::size_t g = 0; g < utility_.size(); ++g) {
    const std::size_t lo = g * gs, hi = std::min(lo + gs, n_params_);
    double s = 0.0;
    for (std::size_t i = lo; i < hi; ++i) s += std::isfinite(grads[i]) ? std::fabs(grads[i]) : 0.0;
    utility_[g] = a * utility_[g] + (1.0 - a) * s / static_cast<double>(hi - lo);
  }
}

void NeuronRegeneration::observe_utility(std::span<const double> score) noexcept {
  const double a = config_.utility_alpha;
  for (std::size_t g = 0; g < utility_.size(); ++g) {
    const double s = std::isfinite(score[g]) ? score[g] : 0.0;
    utility_[g] = a * utility_[g] + (1.0 - a) * s;
  }
}

void NeuronRegeneration::on_drift(std::span<const double>, DriftSignal signal) noexcept {
  if (config_.on_drift && signal == DriftSignal::kDrift) drift_pending_ = true;
}

bool NeuronRegeneration::step() noexcept {
  const bool due = ++updates_ % config_.interval == 0 || drift_pending_;
  drift_pending_ = false;
  if (due) select();
  return due;
}

void NeuronRegeneration::post_update(std::span<double> params) noexcept {
  if (!step()) return;
  const std::size_t gs = config_.group_size;
  for (const std::uint32_t g : last_regenerated())
    for (std::size_t i = g * gs; i < std::min((g + 1) * gs, n_params_); ++i) params[i] = rng_.uniform(-0.01, 0.01);
}

void NeuronRegeneration::select() noexcept {
  const std::size_t groups = utility_.size();
  std::fill(regenerated_.begin(), regenerated_.end(), 0);
  n_last_ = 0;
  if (groups == 0) return;
  const double frac = std::clamp(config_.fraction, 0.0, 1.0);
  const std::size_t m = std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(frac * static_cast<double>(groups))), 1, groups);
  std::iota(order_.begin(), order_.end(), 0u);
  const auto less_useful = [this](std::uint32_t a, std::uint32_t b) {
    return utility_[a] < utility_[b] || (utility_[a] == utility_[b] && a < b);
  };
  std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(m - 1), order_.end(), less_useful);
  const double mean = std::accumulate(utility_.begin(), utility_.end(), 0.0) / static_cast<double>(groups);
  for (std::size_t r = 0; r < m; ++r) {
    regenerated_[order_[r]] = 1;
    utility_[order_[r]] = mean;
  }
  n_last_ = m;
  ++n_regenerations_;
}

void NeuronRegeneration::force_regenerate(std::span<double> params) noexcept {
  select();
  const std::size_t gs = config_.group_size;
  for (const std::uint32_t g : last_regenerated())
    for (std::size_t i = g * gs; i < std::min((g + 1) * gs, n_params_); ++i) params[i] = rng_.uniform(-0.01, 0.01);
}

void NeuronRegeneration::reset() noexcept {
  std::fill(utility_.begin(), utility_.end(), 0.0);
  std::fill(regenerated_.begin(), regenerated_.end(), 0);
  n_last_ = 0;
  updates_ = n_regenerations_ = 0;
  drift_pending_ = false;
  rng_ = Xorshift64(config_.seed);
}

void NeuronRegeneration::encode_state(ByteWriter& out) const {
  out.f64s(utility_);
  out.u64(n_last_);
  for (std::size_t r = 0; r < n_last_; ++r) out.u32(order_[r]);
  out.u64(updates_);
  out.u64(n_regenerations_);
  out.boolean(drift_pending_);
  out.u64(rng_.state());
}

Status NeuronRegeneration::decode_state(ByteReader& in) {
  auto utility = in.f64s("regeneration utility");
  const std::size_t n_last = in.read_count(4, "regeneration picks");
  if (!in.ok()) return in.status();
  if (utility.size() != utility_.size() || n_last > utility_.size())
    return Status::corruption("regeneration: state does not match the number of groups");
  std::vector<std::uint32_t> picks(n_last);
  for (auto& g : picks) g = in.u32("regeneration pick");
  const std::uint64_t updates = in.u64("regeneration updates");
  const std::uint64_t n_regen = in.u64("regeneration count");
  const bool pending = in.boolean("regeneration drift pending");
  const std::uint64_t rng_state = in.u64("regeneration rng");
  if (!in.ok()) return in.status();
  for (const std::uint32_t g : picks)
    if (g >= utility_.size()) return Status::corruption("regeneration: picked group out of range");
  if (rng_state == 0) return Status::corruption("regeneration: generator state 0");
  utility_ = std::move(utility);
  std::fill(regenerated_.begin(), regenerated_.end(), 0);
  std::iota(order_.begin(), order_.end(), 0u);
  for (std::size_t r = 0; r < n_last; ++r) {
    order_[r] = picks[r];
    regenerated_[picks[r]] = 1;
  }
  n_last_ = n_last;
  updates_ = updates;
  n_regenerations_ = n_regen;
  drift_pending_ = pending;
  rng_.set_state(rng_state);
  return Status::ok();
}

}  // namespace irithyll::nn
