// Delta (send-on-delta) spike encoding of Q1.14 features: feature f drives two
// channels, 2f (UP) and 2f+1 (DOWN). The first sample only stores the
// reference. Afterwards UP fires when x - ref > threshold and DOWN when
// x - ref < -threshold, and a firing channel moves the reference to x.
//
// The Rust library stores every input as the new reference, so a slow signal whose
// per-step change stays under the threshold never spikes at all; moving the
// reference only on a spike (a level-crossing encoder) lets slow drifts
// accumulate until they are reported. Integer-only; O(n) per step, no
// allocation. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>

namespace irithyll::nn {

// Encodes x into the bitmask `spikes` (bit c of word c/64 for channel c).
// REQUIRES: ref.size() == x.size(), spikes has ceil(2n/64) words.
inline void delta_encode(std::span<const std::int16_t> x, std::span<std::int16_t> ref, bool& primed,
                         std::int32_t threshold, std::span<std::uint64_t> spikes) noexcept {
  for (auto& w : spikes) w = 0;
  if (!primed) {
    for (std::size_t f = 0; f < x.size(); ++f) ref[f] = x[f];
    primed = true;
    return;
  }
  for (std::size_t f = 0; f < x.size(); ++f) {
    const std::int32_t d = static_cast<std::int32_t>(x[f]) - ref[f];
    if (d > threshold || d < -threshold) {
      const std::size_t c = 2 * f + (d < 0 ? 1 : 0);
      spikes[c >> 6] |= std::uint64_t{1} << (c & 63);
      ref[f] = x[f];
    }
  }
}

}  // namespace irithyll::nn
