// Scalar activations shared by the recurrent cells (internal).
#pragma once

#include <cmath>

namespace irithyll::nn::detail {

inline double rnn_sigmoid(double x) noexcept {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

}  // namespace irithyll::nn::detail
