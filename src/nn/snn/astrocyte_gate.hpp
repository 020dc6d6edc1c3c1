// AstrocyteGate: integer homeostatic control of each hidden neuron's
// excitability, after the astrocyte-mediated activity regulation of
// Gordleeva et al. 2021 ("Modeling working memory in a spiking neuron network
// accompanied by astrocytes", Front. Cell. Neurosci.). Each neuron keeps an
// exponential rate estimate
//
//   rate <- rate + round((16384*spike - rate) / 2^rate_shift)
//
// and a drive current integrating the rate error,
//
//   drive <- clamp(drive + (target - rate) * gain, -threshold, threshold)   (Q14 products)
//
// added to its input current. A neuron that falls silent is pushed back toward
// threshold and a saturated one is held back, which is what keeps the hidden
// layer alive under e-prop (the Rust library's float gate scaled weights with a
// modulation that *grows* with activity, so it could not rescue a silent layer).
// Integer-only; O(n) per step. Thread safety: one owner.
#pragma once

#include <cstdint>

#include "nn/snn/q14.hpp"
#include "irithyll/nn/snn/spike_net_config.hpp"

namespace irithyll::nn {

// One neuron's update; returns nothing, edits rate and drive in place.
constexpr void astrocyte_update(std::int16_t& rate, std::int16_t& drive, bool spike, const AstrocyteGateConfig& c,
                                std::int32_t threshold) noexcept {
  const std::int32_t r = rate;
  const std::int32_t target = spike ? q14::kOne : 0;
  rate = q14::sat16(r + ((target - r + (1 << (c.rate_shift - 1))) >> c.rate_shift));
  if (c.target_rate == 0) return;
  std::int32_t d = drive + q14::mul(c.target_rate - rate, c.gain);
  d = d > threshold ? threshold : (d < -threshold ? -threshold : d);
  drive = static_cast<std::int16_t>(d);
}

}  // namespace irithyll::nn
