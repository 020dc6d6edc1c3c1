// Internal: what the Hoeffding tree's binary (vfdt_split.cpp) and multiway
// (vfdt_nominal.cpp) split scoring share.
#pragma once

#include <algorithm>
#include <limits>

namespace irithyll::vfdt_detail {

// The merit of a split that may not be made (too little weight in a branch).
inline constexpr double kNoSplit = -std::numeric_limits<double>::infinity();

// Variance of a target from its moments row {weight, mean, M2}; 0 while the
// row is empty (M2 may round below 0, which is no spread).
inline double variance(const double* m) { return m[0] > 0.0 ? std::max(m[2], 0.0) / m[0] : 0.0; }

}  // namespace irithyll::vfdt_detail
