#include "irithyll/ensemble/moe_gate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace irithyll {

namespace {
constexpr std::uint32_t kGateVersion = 1;
constexpr double kInitTilt = 0.01;  // half-width of the initial feature weights
constexpr double kZClip = 8.0;      // a standardised value beyond +-8 sd is clipped (outliers)
}  // namespace

Result<MoERouting> parse_moe_routing(std::string_view s) {
  if (s == "soft") return MoERouting::kSoft;
  if (s == "topk") return MoERouting::kTopK;
  return Status::invalid_argument("routing must be soft or topk, got '" + std::string(s) + "'");
}

std::string_view moe_routing_name(MoERouting r) { return r == MoERouting::kSoft ? "soft" : "topk"; }


MoEGate::MoEGate(std::size_t n_experts, std::uint64_t seed) : k_(n_experts), rng_(seed) {}

void MoEGate::resize(std::size_t n_features) {
  d_ = n_features;
  w_.assign(k_ * (d_ + 1), 0.0);
  // The feature weights get the tilt; the biases stay 0, so the gate is
  // uniform on the first sample (whose standardised values are all 0).
  for (std::size_t k = 0; k < k_; ++k)
    for (std::size_t i = 0; i < d_; ++i) w_[k * (d_ + 1) + i] = rng_.uniform(-kInitTilt, kInitTilt);
  mean_.assign(d_, 0.0);
  m2_.assign(d_, 0.0);
  z_.assign(d_, 0.0);
  n_ = 0;
}

void MoEGate::standardise(std::span<const double> x) const {
  for (std::size_t i = 0; i < d_; ++i) {
    const double v = i < x.size() ? x[i] : std::numeric_limits<double>::quiet_NaN();
    const double var = n_ > 1 ? m2_[i] / static_cast<double>(n_ - 1) : 0.0;
    z_[i] = std::isfinite(v) && var > 0.0 ? std::clamp((v - mean_[i]) / std::sqrt(var), -kZClip, kZClip) : 0.0;
  }
}

void MoEGate::probabilities(std::span<const double> x, std::span<double> out) const {
  if (d_ == 0) {
    std::fill(out.begin(), out.end(), 1.0 / static_cast<double>(k_));
    return;
  }
  standardise(x);
  double mx = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < k_; ++k) {
    const double* row = &w_[k * (d_ + 1)];
    double a = row[d_];
    for (std::size_t i = 0; i < d_; ++i) a += row[i] * z_[i];
    out[k] = a;
    mx = std::max(mx, a);
  }
  double total = 0.0;
  for (std::size_t k = 0; k < k_; ++k) total += (out[k] = std::exp(out[k] - mx));
  for (std::size_t k = 0; k < k_; ++k) out[k] /= total;
}

void MoEGate::route(std::span<const double> probs, MoERouting routing, std::size_t top_k, std::span<double> out) {
  const std::size_t k_all = probs.size();
  if (routing == MoERouting::kSoft || top_k >= k_all) {
    std::copy(probs.begin(), probs.end(), out.begin());
    return;
  }
  // Selection by repeated arg-max over the unchosen (K and k are small); a
  // chosen slot is marked by a negative placeholder until renormalised.
  std::fill(out.begin(), out.end(), 0.0);
  double total = 0.0;
  for (std::size_t r = 0; r < std::max<std::size_t>(top_k, 1); ++r) {
    std::size_t best = k_all;
    for (std::size_t k = 0; k < k_all; ++k)
      if (out[k] == 0.0 && (best == k_all || probs[k] > probs[best])) best = k;
    out[best] = -1.0;
    total += probs[best];
  }
  for (std::size_t k = 0; k < k_all; ++k)
    out[k] = out[k] < 0.0 ? (total > 0.0 ? probs[k] / total : 1.0 / static_cast<double>(top_k)) : 0.0;
}

void MoEGate::learn(std::span<const double> x, std::span<const double> probs, std::size_t best, double lr,
                    double weight) {
  if (d_ == 0) resize(x.size());
  standardise(x);  // the z the probabilities were computed from
  const double step = lr * weight;
  for (std::size_t k = 0; k < k_; ++k) {
    const double dz = step * (probs[k] - (k == best ? 1.0 : 0.0));
    double* row = &w_[k * (d_ + 1)];
    for (std::size_t i = 0; i < d_; ++i) row[i] -= dz * z_[i];
    row[d_] -= dz;
  }
  ++n_;
  for (std::size_t i = 0; i < d_ && i < x.size(); ++i) {
    if (!std::isfinite(x[i])) continue;  // a missing value leaves the moments as they are
    const double delta = x[i] - mean_[i];
    mean_[i] += delta / static_cast<double>(n_);
    m2_[i] += delta * (x[i] - mean_[i]);
  }
}

std::size_t MoEGate::memory_bytes() const {
  return (w_.capacity() + mean_.capacity() + m2_.capacity() + z_.capacity()) * sizeof(double);
}

void MoEGate::encode(ByteWriter& out) const {
  out.u32(kGateVersion);
  out.u64(k_);
  out.u64(d_);
  out.u64(rng_.state());
  out.u64(n_);
  out.f64s(w_);
  out.f64s(mean_);
  out.f64s(m2_);
}

Status MoEGate::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("moe gate version");
  const std::uint64_t k = in.u64("gate experts"), d = in.u64("gate features"), rng = in.u64("gate rng");
  const std::uint64_t n = in.u64("gate samples");
  std::vector<double> w = in.f64s("gate weights"), mean = in.f64s("gate means"), m2 = in.f64s("gate moments");
  if (!in.ok()) return in.status();
  if (version != kGateVersion) return Status::corruption("moe gate: unknown record version " + std::to_string(version));
  if (k == 0 || k > 4096 || d > (1u << 24)) return Status::corruption("moe gate: bad sizes");
  if (w.size() != (d == 0 ? 0 : k * (d + 1)) || mean.size() != d || m2.size() != d)
    return Status::corruption("moe gate: weight or moment arrays do not match the sizes");
  k_ = k;
  d_ = d;
  rng_.set_state(rng);
  n_ = n;
  w_ = std::move(w);
  mean_ = std::move(mean);
  m2_ = std::move(m2);
  z_.assign(d_, 0.0);
  return Status::ok();
}

}  // namespace irithyll
