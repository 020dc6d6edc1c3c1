// HoeffdingTree: an incrementally grown regression tree on (gradient, hessian)
// pairs, the base learner of streaming gradient boosting (Domingos & Hulten
// 2000 for the Hoeffding split rule; Gunasekara et al. 2024 for its use in
// SGBT; Chen & Guestrin 2016 for the gain and leaf weight).
//
// Learning. The tree fixes its feature count at the first sample. The root
// observes raw values for grace_period samples, then every feature's bin edges
// are computed once and shared by all later leaves. A leaf accumulates its
// samples' (g, h) into per-feature histograms (HistogramPool) and attempts a
// split when its sample count is a multiple of grace_period: the best and
// second-best candidate gains (one per feature, over a seeded feature subset)
// must differ by more than eps = sqrt(R^2 ln(1/delta) / (2 n)), or eps < tau.
// Children start with fresh histograms on the same edges and their closed-form
// weights from the parent's split statistics until their first sample.
// Leaves at max_depth never split, so they keep no histograms at all.
//
// Routing. x[feature] <= threshold goes left; NaN goes left; i.e. right iff
// x > threshold, exactly as the packed formats. NaN values are skipped when
// binning; their gradient mass is credited to the left side of every split.
//
// Layout (struct of arrays, one index per node): routing nodes are 16 bytes
// {threshold, feature, left}; left == 0 marks a leaf (the root is never a
// child) and the right child is always left + 1, so a traversal step is one
// compare and one add. Per-node value, depth, count, G, H and histogram slab
// live in parallel vectors. Node storage for the full depth is reserved at the
// first sample; histogram slabs grow (by a quarter) to the number of
// splittable leaves, are recycled through a free list, and are compacted away
// as leaves reach max_depth. learn_one and predict allocate only on splits
// that need a new slab and on compactions (structural events).
//
// Cost per sample: O(depth) routing + O(features) histogram writes; a split
// attempt is O(features x bins). Memory: O(2^depth) nodes + (splittable
// leaves, +25% slack) x (total bins + 1) x 24 bytes; nothing for histograms
// once every leaf is at max_depth. Thread safety: one owner; const methods
// are safe to call concurrently.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/histogram/bin_edges.hpp"
#include "irithyll/histogram/feature_binner.hpp"
#include "irithyll/histogram/histogram_pool.hpp"
#include "irithyll/tree/split.hpp"
#include "irithyll/tree/tree_config.hpp"

namespace irithyll {

class HoeffdingTree {
 public:
  struct RouteNode {
    double threshold = 0.0;
    std::uint32_t feature = 0;
    std::uint32_t left = 0;  // 0 = leaf; right child = left + 1
  };

  explicit HoeffdingTree(const TreeConfig& config = {});

  const TreeConfig& config() const { return config_; }
  std::size_t n_features() const { return n_features_; }

  // Trains the leaf x reaches `repeats` times with (g, h) and returns that
  // leaf's value BEFORE training. REQUIRES: x.size() == n_features() once the
  // first sample fixed it; NaN entries are missing values.
  double learn_one(std::span<const double> x, double g, double h, std::uint32_t repeats = 1);

  std::uint32_t leaf_index(std::span<const double> x) const noexcept {
    const RouteNode* nodes = route_.data();
    std::uint32_t n = 0;
    while (nodes[n].left != 0) {
      const RouteNode& r = nodes[n];
      n = r.left + static_cast<std::uint32_t>(x[r.feature] > r.threshold);
    }
    return n;
  }
  double predict(std::span<const double> x) const noexcept { return value_[leaf_index(x)]; }
  double leaf_value(std::uint32_t leaf) const noexcept { return value_[leaf]; }

  // Split form of learn_one for callers that interleave many trees: route
  // (leaf_index), then prefetch the histogram bins the sample will touch,
  // do other work, and later train. train_leaf(leaf, ...) REQUIRES leaf ==
  // leaf_index(x) at call time; returns true if the leaf split.
  void prefetch(std::uint32_t leaf, std::span<const double> x) const noexcept {
    const std::uint32_t slab = slab_[leaf];
    if (slab == HistogramPool::kNone) return;
    const GradBin* bins = pool_.bins(slab);
    for (std::size_t f = 0; f < n_features_; ++f) {
      const double v = x[f];
      if (v == v) __builtin_prefetch(bins + offset_[f] + edges_[f].find_bin(v), 1, 3);
    }
  }
  bool train_leaf(std::uint32_t leaf, std::span<const double> x, double g, double h);
  // 1/(H+lambda) at the leaf x reaches: the leaf weight's variance proxy.
  double leaf_variance(std::span<const double> x) const noexcept;

  // Back to a single empty leaf with the configured seed. Node capacity is
  // kept (a replaced active tree regrows); histogram storage is released.
  void reset();
  // reset() and also give back node, binner and edge storage: for a tree
  // that may stay idle (a retired tree parked as the slot's alternate).
  void release_storage();

  // Structure, for export, tests and diagnostics.
  std::size_t n_nodes() const { return route_.size(); }
  std::size_t n_leaves() const { return (route_.size() + 1) / 2; }
  std::uint32_t depth() const;
  bool is_leaf(std::uint32_t n) const { return route_[n].left == 0; }
  const RouteNode& node(std::uint32_t n) const { return route_[n]; }
  double node_value(std::uint32_t n) const { return value_[n]; }
  std::uint16_t node_depth(std::uint32_t n) const { return depth_[n]; }
  std::uint64_t node_count(std::uint32_t n) const { return count_[n]; }
  bool edges_ready() const { return edges_ready_; }
  const BinEdges& edges(std::size_t feature) const { return edges_[feature]; }
  // Per-feature sum of the gains of the splits this tree made.
  std::span<const double> split_gains() const { return split_gains_; }
  std::uint64_t n_samples_seen() const { return samples_seen_; }
  std::uint64_t n_split_attempts() const { return split_attempts_; }
  // The leaf histograms (memory diagnostics).
  const HistogramPool& histograms() const { return pool_; }

  std::size_t memory_bytes() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  // A leaf's output from its sums, under the leaf controls: 0 while H is
  // below min_hessian_sum (too little evidence), clamped to
  // +-max_leaf_output (a leaf whose hessian sum is tiny, a saturated
  // logistic, would otherwise jump far), then into the node's monotone
  // bounds [lo, hi].
  double leaf_output(double g, double h, double lo, double hi) const noexcept;
  // leaf_output for a leaf that learns: also folds the unclamped value into
  // the leaf's output statistics and applies the adaptive bound.
  double learned_leaf_output(std::uint32_t leaf) noexcept;
  double node_lo(std::uint32_t n) const noexcept { return lo_.empty() ? -kInf : lo_[n]; }
  double node_hi(std::uint32_t n) const noexcept { return hi_.empty() ? kInf : hi_[n]; }
  // Gradient clipping (inventory 10.3 step 3): once the leaf has seen 10
  // gradients, clamps g to their mean +- k sd (Welford), then folds it in.
  double clip_gradient(std::uint32_t leaf, double g) noexcept;
  // g and h into the leaf's sums (decayed first under leaf_decay_alpha).
  void add_to_leaf_sums(std::uint32_t leaf, double g, double h) noexcept;
  void init_features(std::size_t n);
  void reserve_nodes();
  void build_edges();
  void accumulate(std::uint32_t slab, std::span<const double> x, double g, double h) noexcept;
  bool attempt_split(std::uint32_t leaf);
  void draw_feature_mask();
  void push_leaf(std::uint16_t depth, double value, double lo = -kInf, double hi = kInf);
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  Status validate_structure() const;

  TreeConfig config_;
  // No leaf option set (config_.has_options() false), fixed at construction:
  // train_leaf then takes the plain Newton step with no per-option checks.
  bool plain_ = true;
  GainParams gain_;
  Xorshift64 rng_;
  std::size_t n_features_ = 0;
  bool edges_ready_ = false;
  std::uint64_t samples_seen_ = 0;
  std::uint64_t split_attempts_ = 0;

  std::vector<FeatureBinner> binners_;   // root, before edges exist
  std::vector<BinEdges> edges_;          // per feature, fixed at the first grace period
  std::vector<std::uint32_t> offset_;    // per feature: first bin in a slab; n_features+1 entries
  HistogramPool pool_;

  std::vector<RouteNode> route_;
  std::vector<double> value_;
  std::vector<std::uint16_t> depth_;
  std::vector<std::uint64_t> count_;
  std::vector<double> g_sum_, h_sum_;
  std::vector<std::uint32_t> slab_;
  std::vector<double> split_gains_;
  std::vector<std::uint32_t> mask_;      // scratch: features scored in this attempt
  // Per node, only when the config enables them (empty otherwise):
  std::vector<double> lo_, hi_;          // monotone bounds on the node's leaf values
  std::vector<std::uint64_t> clip_n_;    // gradient clipping: Welford count, mean, M2
  std::vector<double> clip_mean_, clip_m2_;
  std::vector<std::uint64_t> out_n_;     // adaptive leaf bound: count, mean, M2 (or EW variance)
  std::vector<double> out_mean_, out_m2_;
};

}  // namespace irithyll
