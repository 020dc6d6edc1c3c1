#include "nn/reservoir/cycle_reservoir.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "irithyll/core/rng.hpp"
#include "nn/reservoir/reservoir_kernels.hpp"

namespace irithyll::nn {

namespace {
constexpr std::size_t kMaxNeurons = std::size_t{1} << 16;
constexpr std::size_t kMaxInputs = std::size_t{1} << 16;
}  // namespace

Status CycleReservoirConfig::validate() const {
  if (n_neurons == 0 || n_neurons > kMaxNeurons)
    return Status::invalid_argument("cycle reservoir: n_neurons must be in [1, 65536], got " + std::to_string(n_neurons));
  if (n_inputs == 0 || n_inputs > kMaxInputs)
    return Status::invalid_argument("cycle reservoir: n_inputs must be in [1, 65536], got " + std::to_string(n_inputs));
  if (!(leak > 0.0 && leak <= 1.0)) return Status::invalid_argument("cycle reservoir: leak must be in (0, 1]");
  if (!(spectral_radius > 0.0) || !std::isfinite(spectral_radius))
    return Status::invalid_argument("cycle reservoir: spectral_radius must be finite and > 0");
  if (!(input_scaling >= 0.0) || !std::isfinite(input_scaling))
    return Status::invalid_argument("cycle reservoir: input_scaling must be finite and >= 0");
  if (!(bias_scaling >= 0.0) || !std::isfinite(bias_scaling))
    return Status::invalid_argument("cycle reservoir: bias_scaling must be finite and >= 0");
  return Status::ok();
}

CycleReservoir::CycleReservoir(const CycleReservoirConfig& config) : config_(config) {
  const std::size_t n = config.n_neurons, d = config.n_inputs;
  w_cyc_.assign(n, 0.0);
  w_in_.assign(n * d, 0.0);
  bias_.assign(n, 0.0);
  state_.assign(n, 0.0);
  scratch_.assign(2 * n, 0.0);
  Xorshift64 rng(config.seed);
  for (double& w : w_cyc_) w = (rng.next_u64() & 1) ? config.spectral_radius : -config.spectral_radius;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) w_in_[j * n + i] = rng.uniform(-config.input_scaling, config.input_scaling);
  if (config.bias_scaling > 0.0)
    for (double& b : bias_) b = rng.uniform(-config.bias_scaling, config.bias_scaling);
}

Result<CycleReservoir> CycleReservoir::make(const CycleReservoirConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return CycleReservoir(config);
}

void CycleReservoir::update(std::span<const double> u) noexcept {
  cycle_step(config_.n_neurons, config_.n_inputs, w_cyc_.data(), w_in_.data(), bias_.data(), u.data(),
             config_.leak, state_.data(), scratch_.data());
}

void CycleReservoir::update_ref(std::span<const double> u) noexcept {
  cycle_step_ref(config_.n_neurons, config_.n_inputs, w_cyc_.data(), w_in_.data(), bias_.data(), u.data(),
                 config_.leak, state_.data(), scratch_.data());
}

void CycleReservoir::peek(std::span<const double> u, std::span<double> out) const noexcept {
  std::copy(state_.begin(), state_.end(), out.begin());
  cycle_step(config_.n_neurons, config_.n_inputs, w_cyc_.data(), w_in_.data(), bias_.data(), u.data(),
             config_.leak, out.data(), scratch_.data());
}

void CycleReservoir::reset() noexcept { std::fill(state_.begin(), state_.end(), 0.0); }

std::size_t CycleReservoir::memory_bytes() const noexcept {
  return sizeof(*this) +
         (w_cyc_.capacity() + w_in_.capacity() + bias_.capacity() + state_.capacity() + scratch_.capacity()) *
             sizeof(double);
}

void CycleReservoir::encode(ByteWriter& out) const {
  out.u64(config_.n_neurons);
  out.u64(config_.n_inputs);
  out.f64(config_.spectral_radius);
  out.f64(config_.input_scaling);
  out.f64(config_.leak);
  out.f64(config_.bias_scaling);
  out.u64(config_.seed);
  out.f64s(state_);
}

Status CycleReservoir::decode(ByteReader& in) {
  CycleReservoirConfig c;
  c.n_neurons = in.u64("n_neurons");
  c.n_inputs = in.u64("n_inputs");
  c.spectral_radius = in.f64("spectral_radius");
  c.input_scaling = in.f64("input_scaling");
  c.leak = in.f64("leak");
  c.bias_scaling = in.f64("bias_scaling");
  c.seed = in.u64("seed");
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("cycle reservoir"));
  if (c.n_neurons * c.n_inputs > (std::size_t{1} << 24))
    return Status::corruption("cycle reservoir: n_neurons * n_inputs too large");
  std::vector<double> s = in.f64s("reservoir state");
  if (!in.ok()) return in.status();
  if (s.size() != c.n_neurons) return Status::corruption("cycle reservoir: state size does not match n_neurons");
  for (double v : s)
    if (!std::isfinite(v)) return Status::corruption("cycle reservoir: non-finite state");
  // The record's settings are those this reservoir was built with (its owner
  // builds it from the named settings first); any others come from config_.
  if (c.n_neurons != config_.n_neurons || c.n_inputs != config_.n_inputs || c.spectral_radius != config_.spectral_radius ||
      c.input_scaling != config_.input_scaling || c.leak != config_.leak || c.bias_scaling != config_.bias_scaling ||
      c.seed != config_.seed)
    return Status::corruption("cycle reservoir: the record differs from the settings this reservoir was built with");
  CycleReservoir fresh(config_);
  fresh.state_ = std::move(s);
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
