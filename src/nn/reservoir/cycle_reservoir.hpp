// CycleReservoir: the simple cycle reservoir of Rodan & Tino (2011, "Minimum
// complexity echo state network", IEEE TNN 22(1)): n leaky-tanh neurons on a
// ring whose weights are +-spectral_radius with random signs, random uniform
// input weights and optional bias. A ring's spectral radius is exactly the
// magnitude of its weights, so no eigenvalue computation is needed.
//
//   s_i <- (1 - leak) s_i + leak * tanh(w_cyc[i-1] s_{i-1} + W_in[i] u + b_i)
//
// Neuron 0 reads neuron n-1. Weights are drawn from Xorshift64(seed) in the
// order cycle signs, input weights (neuron-major), bias (only if
// bias_scaling > 0), so the same seed always gives the same reservoir.
// With leak = 1 the state stays in [-1, 1].
//
// Cost O(n*d) per update (AVX2 kernel, see reservoir_kernels.hpp); memory
// n*(d+4) doubles; no allocation after construction. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

struct CycleReservoirConfig {
  std::size_t n_neurons = 100;    // ring size n >= 1; more neurons = longer memory, O(n^2) readout cost.
  std::size_t n_inputs = 1;       // input dimension d >= 1.
  double spectral_radius = 0.9;   // |ring weight| in (0, inf); < 1 for the echo-state property.
  double input_scaling = 0.5;     // input weights U[-s, s]; s >= 0.
  double leak = 0.3;              // leak rate in (0, 1]; 1 = no leaky integration.
  double bias_scaling = 0.0;      // bias U[-b, b] when b > 0, else no bias.
  std::uint64_t seed = 42;

  Status validate() const;
};

class CycleReservoir {
 public:
  CycleReservoir() = default;
  // REQUIRES: config.validate().is_ok() (use make() at boundaries).
  explicit CycleReservoir(const CycleReservoirConfig& config);
  static Result<CycleReservoir> make(const CycleReservoirConfig& config);

  // Advances the state by one input. REQUIRES: u.size() == n_inputs().
  void update(std::span<const double> u) noexcept;
  // Same as update() but with the scalar reference kernel (tests).
  void update_ref(std::span<const double> u) noexcept;
  // Computes the state update() would reach into `out` without changing this
  // reservoir. REQUIRES: out.size() == n_neurons(); scratch as in update.
  void peek(std::span<const double> u, std::span<double> out) const noexcept;
  void reset() noexcept;  // state to zero; weights unchanged

  std::span<const double> state() const noexcept { return state_; }
  std::span<double> mutable_state() noexcept { return state_; }
  std::span<const double> cycle_weights() const noexcept { return w_cyc_; }
  // Input weight of neuron i for input j.
  double input_weight(std::size_t i, std::size_t j) const noexcept { return w_in_[j * config_.n_neurons + i]; }
  std::span<const double> bias() const noexcept { return bias_; }
  const CycleReservoirConfig& config() const noexcept { return config_; }
  std::size_t n_neurons() const noexcept { return config_.n_neurons; }
  std::size_t n_inputs() const noexcept { return config_.n_inputs; }
  std::size_t memory_bytes() const noexcept;

  // Configuration and state; weights are re-drawn from the seed on decode.
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  CycleReservoirConfig config_{};
  std::vector<double> w_cyc_, w_in_, bias_, state_;
  mutable std::vector<double> scratch_;
};

}  // namespace irithyll::nn
