// RlsConfig: the settings of the recursive-least-squares readout that the
// neural learners fit on their features (readout/rls.hpp, internal, holds the
// filter itself). Public because every such learner's config carries one.
#pragma once

namespace irithyll {

// The smallest forgetting factor any RLS setting accepts: a memory of about
// two samples. Below it the covariance update divides by lambda on every step
// (P / lambda), and a tiny lambda overflows P to inf on the first sample.
inline constexpr double kMinForgettingFactor = 0.5;
// The smallest initial covariance scale (P = delta I, a ridge penalty of at
// most 1e6): a near-zero delta underflows P and the gain turns NaN.
inline constexpr double kMinRlsDelta = 1e-6;
// The largest: P beyond it overflows the gain on wide readouts.
inline constexpr double kMaxRlsDelta = 1e12;

struct RlsConfig {
  double forgetting_factor = 0.998;  // lambda in [0.5, 1]; 1 = never forget. Effective memory ~ 1/(1-lambda).
  double delta = 100.0;              // P(0) = delta * I; larger = faster initial adaptation.
};

}  // namespace irithyll
