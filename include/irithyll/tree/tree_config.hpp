// TreeConfig: the knobs of one Hoeffding tree on gradient statistics. Each
// field carries its default, range and trade-off; validate() enforces ranges.
// The SGBT configuration maps onto it (tree seed = sgbt seed ^ step index).
#pragma once

#include <cstdint>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/histogram/feature_binner.hpp"

namespace irithyll {

struct TreeConfig {
  std::uint32_t max_depth = 6;        // >= 1; leaves at this depth never split (and keep no histograms)
  std::uint32_t n_bins = 64;          // >= 2; more bins = finer thresholds, more memory per leaf
  double lambda = 1.0;                // >= 0; L2 shrinkage of leaf weights -G/(H+lambda)
  double gamma = 0.0;                 // >= 0; minimum gain a split must pay
  std::uint32_t grace_period = 200;   // >= 1; samples before binning, and between split attempts
  double delta = 1e-7;                // (0,1); Hoeffding confidence: smaller = more evidence per split
  double feature_subsample = 1.0;     // (0,1]; fraction of features scored per split attempt
  std::uint64_t seed = 42;            // feature-subsample stream
  double leaf_decay_alpha = 0.0;      // 0 = off, else (0,1): EWMA factor on leaf sums and histograms
  double hoeffding_r = 1.0;           // > 0; range R in the Hoeffding bound
  double tie_threshold = 0.05;        // > 0; split anyway once epsilon < tau (tie break)
  double min_child_hessian = 1.0;     // >= 0; each child's hessian sum must reach this
  std::uint32_t min_samples_leaf = 0; // 0 = off; each child must hold at least this many of the leaf's binned samples
  BinStrategy bin_strategy = BinStrategy::kUniform;
  double max_leaf_output = 0.0;       // 0 = off, else > 0: every leaf value is clamped to [-m, m]

  Status validate() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);
};

}  // namespace irithyll
