// SpikeNetConfig: the settings of the integer spiking network inside
// SpikeNetLearner (Q14 fixed point; the network and its gate are internal,
// nn/snn/spike_net.hpp and astrocyte_gate.hpp). Public because the learner's
// config carries one.
#pragma once

#include <cstdint>

#include "irithyll/core/status.hpp"

namespace irithyll::nn {

struct AstrocyteGateConfig {
  std::int32_t target_rate = 1638;  // Q14 spikes per step (0.1); 0 disables the gate
  std::int32_t rate_shift = 6;      // rate time constant 2^rate_shift steps, in [1, 14]
  std::int32_t gain = 819;          // Q14 drive change per unit rate error (0.05)
};

struct SpikeNetConfig {
  std::uint32_t n_input = 1;           // features, [1, 256]
  std::uint32_t n_hidden = 64;         // [1, 1024]
  std::uint32_t n_output = 1;          // [1, 64]
  std::int32_t alpha = 15565;          // membrane and trace decay, Q14 (0.95)
  std::int32_t kappa = 16220;          // eligibility decay, Q14 (0.99)
  std::int32_t kappa_out = 14746;      // readout decay, Q14 (0.90)
  std::int32_t eta = 16;               // hidden (e-prop) learning rate, Q14 (0.001)
  std::int32_t eta_out = 16384;        // readout learning rate, Q14 (1.0; the readout sees normalised traces)
  std::int32_t eta_bias = 164;         // readout bias learning rate, Q14 (0.01); 0 = no bias learning
  std::int32_t threshold = 8192;       // firing threshold, Q14 (0.5), in [1, 32767]
  std::int32_t gamma = 4915;           // surrogate height, Q14 (0.3)
  std::int32_t encoder_threshold = 819;  // delta encoder threshold, Q14 (0.05)
  std::int32_t init_range = 1638;      // weights U{-r..r}, Q14 (0.1)
  AstrocyteGateConfig gate{1638, 8, 819};  // target rate 0.1, tau 256 steps, gain 0.05
  std::uint64_t seed = 42;

  Status validate() const;
};

}  // namespace irithyll::nn
