// sanitize_input: the streaming neural learners' rule for bad feature values.
// A non-finite feature is read as 0 rather than skipping the sample, so that
// the extractor's state (reservoir, recurrent cell, SSM, delay buffer) keeps
// stepping with the stream and its time axis stays aligned with it.
//
// Cost O(d), no allocation. Thread safety: pure function.
#pragma once

#include <cmath>
#include <span>

namespace irithyll::nn {

// u[i] = x[i] when finite, else 0; entries of u past the end of x are 0.
inline void sanitize_input(std::span<const double> x, std::span<double> u) noexcept {
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = i < x.size() && std::isfinite(x[i]) ? x[i] : 0.0;
}

}  // namespace irithyll::nn
