// SpikeNet: a recurrent spiking network in Q1.14 integers, small enough for a
// 32 KB microcontroller (64 hidden neurons, 10 inputs, 1 output: ~22 KB of
// state). Pipeline per step, all integer arithmetic:
//
//   x (int16 per feature) -> delta encoder (2 channels per feature)
//     -> LIF hidden layer with recurrent weights, subtract reset, and an
//        astrocyte drive current (homeostasis, astrocyte_gate.hpp)
//     -> leaky readout  m_k <- m_k*kappa_out + (1-kappa_out) sum_j spike_j W_out[k][j]  (int32)
//
// train_step adds e-prop (Bellec et al. 2020) with fixed random feedback B:
// presynaptic traces tr <- tr*alpha + 1.0*spike, eligibilities and hidden
// weights via eprop_kernels.hpp with learning signal L_j = sum_k B[j][k]
// err_k, and the readout delta rule W_out[k][j] += eta_out * err_k * z_j with
// z_j <- z_j*kappa_out + (1-kappa_out)*spike_j, the exact gradient of the leaky readout
// (the Rust library updates only on the current spike, ignoring that m_k also
// holds every earlier spike, which learns far more slowly). The readout is
// normalised by (1-kappa_out) so m_k and z_j stay in int16 range at any rate.
// Each output also has a learned bias, y_k = sat16(m_k + b_k) with
// b_k += eta_bias * err_k: a delta encoder only reports changes, so without
// it the network cannot represent a target's mean level. Layouts: W_in and E_in are [channel][hidden], W_rec and E_rec are
// [pre][post] so every presynaptic source owns one contiguous row; W_out is
// [output][hidden], B is [hidden][output].
//
// Weights are uniform integers in [-r, r] (r % (2r+1) - r on Xorshift64
// draws) in the order W_in, W_rec, W_out, B. Cost per step O(active*h) for
// the forward pass and O((2d + h) * h) for training; no allocation after
// construction. Thread safety: one owner. tests/reference/snn_reference.py
// re-implements the step in Python integers and must match bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "nn/snn/astrocyte_gate.hpp"
#include "irithyll/nn/snn/spike_net_config.hpp"

namespace irithyll::nn {

class SpikeNet {
 public:
  // What the forward pass changes (everything but weights, eligibilities and
  // traces): membranes, gate rate and drive, encoder reference (int16), spike
  // bitmasks, readout accumulators.
  struct State {
    std::vector<std::int16_t> v, rate, drive, enc_ref, z;  // z: readout-filtered spike traces
    std::vector<std::uint64_t> spikes, prev_spikes, enc_spikes;
    std::vector<std::int32_t> m;
    bool primed = false;
  };

  SpikeNet() = default;
  explicit SpikeNet(const SpikeNetConfig& config);  // REQUIRES: config.validate() ok

  // One inference step. REQUIRES: x.size() == n_input. Integer-only.
  void forward(std::span<const std::int16_t> x) noexcept;
  // Forward, then one e-prop update toward target. REQUIRES: target.size() == n_output.
  void train_step(std::span<const std::int16_t> x, std::span<const std::int16_t> target) noexcept;
  // Forward pass from a copy of this network's state into `scratch`, leaving
  // the network untouched (test-then-train prediction). No allocation once
  // scratch has been used with a network of the same shape.
  void forward_into(State& scratch, std::span<const std::int16_t> x) const noexcept;
  std::int16_t output_of(const State& s, std::size_t k) const noexcept;
  // Readout k saturated to int16 (Q14).
  std::int16_t output(std::size_t k) const noexcept;
  // Membranes, spikes, traces, eligibilities and readouts to zero; weights kept.
  void reset_state() noexcept;
  // Weights re-drawn from the seed and all state cleared.
  void reset() noexcept { *this = SpikeNet(config_); }

  const SpikeNetConfig& config() const noexcept { return config_; }
  std::size_t n_channels() const noexcept { return 2u * config_.n_input; }
  bool hidden_spiked(std::size_t j) const noexcept { return (s_.spikes[j >> 6] >> (j & 63)) & 1u; }
  std::size_t hidden_spike_count() const noexcept;
  std::span<const std::int16_t> membranes() const noexcept { return {s_.v.data(), config_.n_hidden}; }
  std::span<const std::int16_t> drives() const noexcept { return {s_.drive.data(), config_.n_hidden}; }
  std::span<const std::int16_t> w_in() const noexcept { return view(off_w_in_, n_channels() * config_.n_hidden); }
  std::span<const std::int16_t> w_rec() const noexcept { return view(off_w_rec_, std::size_t{config_.n_hidden} * config_.n_hidden); }
  std::span<const std::int16_t> w_out() const noexcept { return view(off_w_out_, std::size_t{config_.n_output} * config_.n_hidden); }
  std::span<const std::int16_t> e_in() const noexcept { return view(off_e_in_, n_channels() * config_.n_hidden); }
  std::span<const std::int16_t> e_rec() const noexcept { return view(off_e_rec_, std::size_t{config_.n_hidden} * config_.n_hidden); }
  std::span<const std::int32_t> readouts() const noexcept { return s_.m; }
  // The dynamic state after the last forward or train step (what forward_into fills for a peek).
  const State& state() const noexcept { return s_; }

  // Bytes of learnable and dynamic state (weights, eligibilities, feedback,
  // traces, membranes, gate, encoder, readouts): what a microcontroller keeps.
  std::size_t state_bytes() const noexcept;
  std::size_t memory_bytes() const noexcept;
  void encode(ByteWriter& out) const;
  // decode reads the state into this network, built with the settings that
  // wrote it (its owner derives them from its named settings);
  // decode_with_config adopts the settings the record carries (records from
  // before the settings were saved by name).
  Status decode(ByteReader& in);
  Status decode_with_config(ByteReader& in);

 private:
  Status decode_record(ByteReader& in, bool adopt_settings);
  std::span<const std::int16_t> view(std::size_t off, std::size_t n) const noexcept { return {arena_.data() + off, n}; }
  // Forward pass on state s; fills psi (surrogate derivatives) when non-null.
  void step(State& s, std::span<const std::int16_t> x, std::int16_t* psi) const noexcept;

  SpikeNetConfig config_{};
  // One int16 arena: W_in, E_in, W_rec, E_rec, W_out, B, input traces, hidden traces, output biases.
  std::vector<std::int16_t> arena_;
  std::size_t off_w_in_ = 0, off_e_in_ = 0, off_w_rec_ = 0, off_e_rec_ = 0, off_w_out_ = 0, off_b_ = 0,
              off_tr_in_ = 0, off_tr_hid_ = 0, off_bias_ = 0;
  State s_;
};

}  // namespace irithyll::nn
