// Pool-adjacent-violators (Barlow et al. 1972): the non-decreasing sequence
// closest to the input in weighted least squares. quantile_sgbt uses it to
// make its quantile estimates non-crossing (q_0.1 <= q_0.5 <= q_0.9): where a
// higher tau's estimate falls below a lower one's, the pair is replaced by
// their weighted mean, and pooling repeats until the order holds.
//
// Cost: O(n) amortised, in place; allocation-free when `scratch` has room for
// n blocks. Thread safety: pure function.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace irithyll {

// values[i] <- isotonic (non-decreasing) fit; weights empty = all 1.
// REQUIRES: weights empty or weights.size() == values.size(), weights > 0.
void pava_non_decreasing(std::span<double> values, std::span<const double> weights = {});

}  // namespace irithyll
