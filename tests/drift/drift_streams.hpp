// Seeded synthetic streams with a known change point, and the helpers that
// run a detector over many of them. The caller owns the generator.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "irithyll/core/rng.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace irithyll::testing {

// Draws the value at time t; `after` is true from the change point on.
using StreamDraw = std::function<double(Xorshift64& rng, bool after)>;

inline StreamDraw gaussian_shift(double mean_before, double mean_after, double sd) {
  return [=](Xorshift64& rng, bool after) { return rng.normal(after ? mean_after : mean_before, sd); };
}
inline StreamDraw bernoulli_shift(double p_before, double p_after) {
  return [=](Xorshift64& rng, bool after) { return rng.uniform() < (after ? p_after : p_before) ? 1.0 : 0.0; };
}
// Continuous errors: |N(0, sd)|, with the scale changing at the change point.
inline StreamDraw abs_gaussian_scale(double sd_before, double sd_after) {
  return [=](Xorshift64& rng, bool after) { return std::fabs(rng.normal(0.0, after ? sd_after : sd_before)); };
}

struct StreamOutcome {
  std::uint64_t false_alarms = 0;  // drifts before the change point
  std::int64_t delay = -1;         // first drift at or after the change point, minus the change point; -1 if none
};

inline StreamOutcome run_stream(DriftDetector& detector, Xorshift64& rng, const StreamDraw& draw,
                                std::uint64_t change_at, std::uint64_t length) {
  StreamOutcome out;
  for (std::uint64_t t = 0; t < length; ++t) {
    const bool after = t >= change_at;
    if (detector.update(draw(rng, after)) != DriftSignal::kDrift) continue;
    if (!after) {
      ++out.false_alarms;
    } else if (out.delay < 0) {
      out.delay = static_cast<std::int64_t>(t - change_at);
      return out;
    }
  }
  return out;
}

}  // namespace irithyll::testing
