// BinEdges: the cut points that map a continuous feature value to a histogram
// bin, plus the binners that learn them online during a tree's grace period
// (uniform min/max range, Greenwald-Khanna quantiles, categorical values).
//
// Bin semantics (one rule for histograms AND routing): with sorted edges
// e_1 < ... < e_{n-1}, bin b holds the values in (e_b, e_{b+1}] (e_0 = -inf,
// e_n = +inf). So a value equal to an edge lands in the LOWER bin, and a split
// "left = bins 0..b" is exactly the routing rule "x <= e_{b+1} goes left" used
// by the tree and the packed formats (right iff x > threshold). The Rust library
// puts an edge value in the upper bin, so its histograms and its routing
// disagree on exact-edge values; we keep them consistent.
//
// Cost: find_bin_ref is a binary search (O(log n)); find_bin for uniform edges
// is one multiply plus a one-step correction against the stored edges, so it
// returns exactly find_bin_ref's answer (tested). Memory: n_bins+1 doubles.
// NaN: REQUIRES !isnan(v); callers skip missing values before binning.
// Thread safety: immutable after construction; share freely.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

class BinEdges {
 public:
  // One bin, no edges (a feature that never had a finite value).
  BinEdges();
  // REQUIRES: edges finite and strictly increasing.
  static BinEdges from_edges(std::span<const double> edges);
  // Edges lo + i*(hi-lo)/n_bins for i = 1..n_bins-1, with the multiply fast
  // path. A range below machine epsilon gives the single edge [lo] (2 bins).
  static BinEdges uniform(double lo, double hi, std::uint32_t n_bins);

  std::uint32_t n_bins() const { return static_cast<std::uint32_t>(padded_.size() - 1); }
  // The n_bins-1 interior edges.
  std::span<const double> edges() const { return {padded_.data() + 1, padded_.size() - 2}; }
  // Upper edge of bin b (b < n_bins-1): the split threshold "left = bins 0..b".
  double upper_edge(std::uint32_t b) const { return padded_[b + 1]; }

  std::uint32_t find_bin_ref(double v) const noexcept;
  std::uint32_t find_bin(double v) const noexcept {
    if (!uniform_) return find_bin_ref(v);
    const double t = (v - lo_) * inv_width_;
    const std::uint32_t last = n_bins() - 1;
    std::uint32_t b = t <= 0.0 ? 0u : (t >= static_cast<double>(last) ? last : static_cast<std::uint32_t>(t));
    // The multiply can land one bin off at an edge; the stored edges decide.
    b -= static_cast<std::uint32_t>(b > 0 && v <= padded_[b]);
    b += static_cast<std::uint32_t>(v > padded_[b + 1]);
    return b;
  }

  bool is_uniform() const { return uniform_; }
  std::size_t memory_bytes() const { return sizeof(*this) + padded_.capacity() * sizeof(double); }
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  std::vector<double> padded_;  // -inf, e_1..e_{n-1}, +inf
  double lo_ = 0.0;
  double inv_width_ = 0.0;
  bool uniform_ = false;
};

}  // namespace irithyll
