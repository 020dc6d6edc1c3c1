// Category-set splits for a feature read as category codes (GradientTreeConfig::
// categorical): one histogram bin per code 0..63, and a split sends a SET of
// categories left, stored as a 64-bit mask (bit c set = code c goes left).
//
// Search (Fisher 1958, "On grouping for maximum homogeneity"; the ordering
// LightGBM uses for gradient statistics): sort the categories seen at the
// leaf by G_c / (H_c + lambda) and scan the prefixes of that order exactly as
// numeric bins are scanned (best_split). For a squared-error-like score the
// best binary partition is such a prefix, so K categories cost O(K log K)
// instead of 2^(K-1) subsets. Ties in the ratio keep the lower code first, so
// the result is deterministic.
//
// Missing values: a value that is not an integer code in [0, 64) (NaN,
// negative, fractional, >= 64) has no bin; its gradient mass is the leaf
// total minus the bins and always joins the RIGHT side, matching routing
// (its bit is never set). Cost O(64 log 64) per scored feature, no allocation.
#pragma once

#include <cstdint>

#include "tree/split.hpp"

namespace irithyll {

inline constexpr std::uint32_t kCategoryBins = 64;

// The code of v, or -1 when v is not an integer in [0, 64) (missing).
inline int category_code(double v) noexcept {
  if (!(v >= 0.0 && v < static_cast<double>(kCategoryBins))) return -1;
  const auto c = static_cast<int>(v);
  return static_cast<double>(c) == v ? c : -1;
}

// True when x goes left at a split with this category mask.
inline bool category_goes_left(std::uint64_t mask, double v) noexcept {
  const int c = category_code(v);
  return c >= 0 && ((mask >> c) & 1u) != 0;
}

// Best category-set split of one feature's kCategoryBins bins (`bins`: true
// sums). On success sets `out` (gain and child sums; out.bin is the prefix
// length - 1 in the sorted order) and `mask`. Monotone constraints do not
// apply (categories have no order). With K categories seen, the gain loses
// penalty x (K - 2) / 2 (GradientTreeConfig::categorical_penalty: the
// noise a sorted prefix gains beyond a threshold's); a split left with no
// positive gain is not offered.
bool best_category_split(const GradBin* bins, double g_total, double h_total, const GainParams& p,
                         SplitCandidate& out, std::uint64_t& mask, std::uint64_t n_total,
                         double penalty = 0.0) noexcept;

}  // namespace irithyll
