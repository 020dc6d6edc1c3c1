// Scalar activations and checks shared by the SSM layers (internal).
#pragma once

#include <cmath>
#include <span>

namespace irithyll::nn::detail {

// ln(1 + e^x) without overflow: x for x > 20, e^x for x < -20 (the error of
// either shortcut is below 2e-9 relative).
inline double softplus(double x) noexcept {
  if (x > 20.0) return x;
  if (x < -20.0) return std::exp(x);
  return std::log1p(std::exp(x));
}

// True when every value is finite (the layers' parameter and input checks).
inline bool all_finite(std::span<const double> v) noexcept {
  for (double e : v)
    if (!std::isfinite(e)) return false;
  return true;
}

inline double sigmoid(double x) noexcept {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

// Inverse of softplus for y > 0: ln(e^y - 1).
inline double softplus_inverse(double y) noexcept { return y > 20.0 ? y : std::log(std::expm1(y)); }

}  // namespace irithyll::nn::detail
