// FeatureBinner: learns one feature's bin edges online from the values seen
// during a tree's grace period, with one of the bin strategies below.
//
//   uniform   min/max range, n equal-width bins (multiply lookup). O(1)/value.
//   quantile  Greenwald-Khanna sketch (eps = 1 / (4 n_bins)); edges at the
//             i/n_bins quantiles, duplicates merged. O(sketch) per value.
//   categorical  one bin per distinct value (x truncated to an integer, at most
//             64 kept); edges at midpoints, so routing by threshold still
//             separates categories.
//   kmeans    one-dimensional k-means (Lloyd 1982) with k = n_bins over the
//             values seen (the first kMaxKMeansValues kept), started at the
//             quantiles; edges at the midpoints between neighbouring centres,
//             so bins are narrow where values crowd and wide across gaps,
//             and a cluster of equal values is never cut. O(1) per value;
//             O(iterations x k log n) once, when the edges are computed.
//
// Strategies are rows of one table (tree/bin_strategy.hpp), parsed by name.
// NaN and +-inf values are not observed. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "histogram/bin_edges.hpp"
#include "histogram/quantile_sketch.hpp"
#include "irithyll/tree/bin_strategy.hpp"

namespace irithyll {

inline constexpr std::size_t kMaxCategories = 64;
// Values a k-means binner keeps (a grace period is far shorter; the cap
// bounds memory when a caller observes longer).
inline constexpr std::size_t kMaxKMeansValues = 4096;

// The k-means edges of `values` (sorted in place) for at most k bins: the
// midpoints between neighbouring distinct centres after Lloyd's iterations
// from the quantile start (at most 100, or until no centre moves). Empty
// when the values hold fewer than two distinct numbers.
std::vector<double> kmeans_edges(std::vector<double>& values, std::uint32_t k);

class FeatureBinner {
 public:
  explicit FeatureBinner(BinStrategy strategy = BinStrategy::kUniform, std::uint32_t n_bins = 64);

  void observe(double v);
  // Edges from what was observed: one bin when nothing finite was seen.
  BinEdges compute_edges() const;
  void reset();
  std::uint64_t count() const { return count_; }
  BinStrategy strategy() const { return strategy_; }
  std::size_t memory_bytes() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  BinStrategy strategy_;
  std::uint32_t n_bins_;
  std::uint64_t count_ = 0;
  double min_ = 0.0, max_ = 0.0;
  QuantileSketch sketch_;
  std::vector<double> categories_;  // sorted distinct values, at most kMaxCategories
  std::vector<double> values_;      // kmeans: the values seen, at most kMaxKMeansValues
};

}  // namespace irithyll
