#include "nn/continual/streaming_ewc.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll::nn {

StreamingEwc::StreamingEwc(std::size_t n_params, StreamingEwcConfig config)
    : config_(config), fisher_(n_params, 0.0), anchor_(n_params, 0.0) {}

void StreamingEwc::pre_update(std::span<const double> params, std::span<double> grads) noexcept {
  const double a = config_.fisher_alpha;
  for (std::size_t i = 0; i < fisher_.size(); ++i) {
    const double g = grads[i];
    if (std::isfinite(g)) fisher_[i] = a * fisher_[i] + (1.0 - a) * g * g;
  }
  if (!has_anchor_) return;
  for (std::size_t i = 0; i < fisher_.size(); ++i)
    grads[i] += std::min(config_.lambda * fisher_[i], max_coefficient_) * (params[i] - anchor_[i]);
}

void StreamingEwc::on_drift(std::span<const double> params, DriftSignal signal) noexcept {
  if (signal != DriftSignal::kDrift) return;
  std::copy(params.begin(), params.begin() + static_cast<std::ptrdiff_t>(anchor_.size()), anchor_.begin());
  has_anchor_ = true;
}

void StreamingEwc::reset() noexcept {
  std::fill(fisher_.begin(), fisher_.end(), 0.0);
  std::fill(anchor_.begin(), anchor_.end(), 0.0);
  has_anchor_ = false;
}

double StreamingEwc::penalty(std::span<const double> params) const noexcept {
  if (!has_anchor_) return 0.0;
  double s = 0.0;
  for (std::size_t i = 0; i < fisher_.size(); ++i) {
    const double d = params[i] - anchor_[i];
    s += fisher_[i] * d * d;
  }
  return 0.5 * config_.lambda * s;
}

}  // namespace irithyll::nn

namespace irithyll::nn {

void StreamingEwc::encode_state(ByteWriter& out) const {
  out.f64s(fisher_);
  out.f64s(anchor_);
  out.boolean(has_anchor_);
}

Status StreamingEwc::decode_state(ByteReader& in) {
  auto fisher = in.f64s("ewc fisher");
  auto anchor = in.f64s("ewc anchor");
  const bool has_anchor = in.boolean("ewc has anchor");
  if (!in.ok()) return in.status();
  if (fisher.size() != fisher_.size() || anchor.size() != anchor_.size())
    return Status::corruption("ewc: state does not match the number of parameters");
  for (const double f : fisher)
    if (!(f >= 0.0) || !std::isfinite(f)) return Status::corruption("ewc: Fisher entries must be finite and >= 0");
  fisher_ = std::move(fisher);
  anchor_ = std::move(anchor);
  has_anchor_ = has_anchor;
  return Status::ok();
}

}  // namespace irithyll::nn
