// Poisson sampler for online bagging (Oza & Russell 2001; ARF's lambda = 6):
// Knuth's multiplication method, which counts uniforms until their running
// product falls below e^-lambda. Exact, and cheap for the small lambdas that
// bagging uses (lambda + 1 uniforms on average).
//
// REQUIRES: 0 < lambda <= 30 (beyond that e^-lambda nears the uniforms'
// resolution; callers' config tables bound lambda). The result is capped at
// 1000 so a hostile state can never spin.
// Cost: O(lambda). Thread safety: uses the caller's generator.
#pragma once

#include <cmath>
#include <cstdint>

#include "irithyll/core/rng.hpp"

namespace irithyll {

// exp_neg_lambda = e^-lambda, for callers that draw many times at one rate.
inline std::uint32_t sample_poisson_limit(Xorshift64& rng, double exp_neg_lambda) noexcept {
  const double limit = exp_neg_lambda;
  std::uint32_t k = 0;
  double product = rng.uniform();
  while (product > limit && k < 1000) {
    ++k;
    product *= rng.uniform();
  }
  return k;
}

inline std::uint32_t sample_poisson(Xorshift64& rng, double lambda) noexcept {
  return sample_poisson_limit(rng, std::exp(-lambda));
}

}  // namespace irithyll
