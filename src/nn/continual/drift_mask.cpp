#include "nn/continual/drift_mask.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace irithyll::nn {

DriftMask::DriftMask(std::size_t n_params, DriftMaskConfig config)
    : config_(config), importance_(n_params, 0.0), frozen_(n_params, 0), order_(n_params, 0) {}

void DriftMask::pre_update(std::span<const double>, std::span<double> grads) noexcept {
  const double a = config_.importance_alpha;
  for (std::size_t i = 0; i < importance_.size(); ++i) {
    const double g = grads[i];
    if (std::isfinite(g)) importance_[i] = a * importance_[i] + (1.0 - a) * std::fabs(g);
    if (frozen_[i]) grads[i] = 0.0;
  }
}

void DriftMask::on_drift(std::span<const double>, DriftSignal signal) noexcept {
  if (signal != DriftSignal::kDrift || importance_.empty()) return;
  const double f = std::clamp(config_.freeze_fraction, 0.0, 1.0);
  const auto k = static_cast<std::size_t>(std::floor(f * static_cast<double>(importance_.size())));
  if (k == 0) return;
  std::iota(order_.begin(), order_.end(), 0u);
  const auto more_important = [this](std::uint32_t a, std::uint32_t b) {
    return importance_[a] > importance_[b] || (importance_[a] == importance_[b] && a < b);
  };
  std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(k - 1), order_.end(), more_important);
  for (std::size_t i = 0; i < k; ++i) frozen_[order_[i]] = 1;
}

void DriftMask::unfreeze_all() noexcept { std::fill(frozen_.begin(), frozen_.end(), 0); }

std::size_t DriftMask::n_frozen() const noexcept {
  return static_cast<std::size_t>(std::count(frozen_.begin(), frozen_.end(), std::uint8_t{1}));
}

void DriftMask::reset() noexcept {
  std::fill(importance_.begin(), importance_.end(), 0.0);
  unfreeze_all();
}

}  // namespace irithyll::nn

namespace irithyll::nn {

void DriftMask::encode_state(ByteWriter& out) const {
  out.f64s(importance_);
  out.u64(frozen_.size());
  out.bytes(frozen_);
}

Status DriftMask::decode_state(ByteReader& in) {
  auto importance = in.f64s("mask importance");
  const std::size_t n = in.read_count(1, "mask frozen flags");
  if (!in.ok()) return in.status();
  if (importance.size() != importance_.size() || n != frozen_.size())
    return Status::corruption("mask: state does not match the number of parameters");
  const auto flags = in.bytes(n, "mask frozen flags");
  if (!in.ok()) return in.status();
  for (const std::uint8_t f : flags)
    if (f > 1) return Status::corruption("mask: frozen flag must be 0 or 1");
  importance_ = std::move(importance);
  std::copy(flags.begin(), flags.end(), frozen_.begin());
  return Status::ok();
}

}  // namespace irithyll::nn
