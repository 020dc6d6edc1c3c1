// GradientTree: an incrementally grown regression tree on (gradient, hessian)
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
// A feature listed in GradientTreeConfig::categorical instead gets one bin per code
// 0..63 and category-set splits (src/tree/category_split.hpp): x goes left
// iff its code's bit is set in the node's 64-bit mask; missing and
// out-of-range values go right. Trees without categorical features keep the
// plain paths (one flag test per route and per accumulate).
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
//
// Options of the Rust library (tree_config.hpp), each gated by a flag fixed at
// construction so a tree without them does no extra per-sample work:
// - Linear leaves (leaf_model linear/adaptive): a leaf predicts
//   v + w.(x - m), v its Newton weight -G/(H+lambda), m the running mean of
//   its samples' x (NaN entries count as x = m) and w learned by normalised
//   LMS on the second-order surrogate g p + h p^2 / 2 of each sample: with
//   u = x - m, r = g + h p and P the running mean of |u|^2,
//   w -= eta r u / ((|h| + lambda)(P + |u|^2)): p moves at most a fraction
//   eta of the way to the sample's Newton target -g/h; lambda bounds the
//   step of a saturated logistic sample (target -g/h unbounded; a floor of
//   1e-3 applies if lambda = 0), P the step in w of a sample near the mean. Centring keeps the
//   Newton weight as the intercept, so a linear leaf is never worse-started
//   than a constant one. Children copy the parent's w and m (warm start).
//   Adaptive: the leaf predicts v until the mean of (loss of v - loss of
//   the linear prediction) over its samples exceeds both 0 and the Hoeffding
//   margin sqrt(R^2 ln(1/delta) / 2n), R the largest |difference| seen, n >= 10;
//   then it is linear for good. Children start constant with w = 0.
//   Memory: 2 x n_features + 1 doubles per node (+25 bytes adaptive); cost O(features)
//   per trained sample and per prediction. MLP leaves (leaf_model mlp) put a
//   one-hidden-layer ReLU network of u (scaled to unit mean square per
//   feature by P, clipped to +-5) in place of w.u, trained by Newton-scaled SGD on the same
//   surrogate (step eta r / ((|h| + lambda)(1 + |grad|^2)) along the
//   network's gradient, normalised as the linear leaves' step is);
//   the root's weights are drawn U[-0.1, 0.1] from the tree's seed, children
//   copy their parent's. Memory hidden x (n_features + 2) more doubles per
//   node. Options: linear_decay multiplies
//   w before each update; linear_adagrad replaces the normalised step by
//   AdaGrad's per-weight one (n_features more doubles per node; children
//   copy w but restart the sums).
// - Split re-evaluation (split_reeval_interval): leaves at the depth ceiling
//   keep histograms; periodically a pair of sibling ceiling leaves re-scores
//   its parent's split on their summed histograms (the samples since that
//   split) and replaces it when the best split beats the current one by the
//   Hoeffding bound; the two children restart empty. Cost per check
//   O(features x bins); memory: histograms for every ceiling leaf.
// - CIR adaptive depth (adaptive_depth = c): ceiling 2 max_depth, and a split
//   needs gain > c / (n x n_features) before the Hoeffding test (the 1.0
//   formula). No per-sample cost.
// - Interpolated leaves (interpolate): a non-root leaf's value is
//   a v + (1 - a) p with a = H / (H + lambda) and p its parent's value at the
//   split, so the stored value (what learn_one returns, what every predictor,
//   the packed export and TreeSHAP read) is already the blend. One double per
//   node; O(1) per trained sample.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"
#include "histogram/bin_edges.hpp"
#include "histogram/feature_binner.hpp"
#include "histogram/histogram_pool.hpp"
#include "tree/split.hpp"
#include "irithyll/tree/gradient_tree_config.hpp"

namespace irithyll {

class GradientTree {
 public:
  struct RouteNode {
    double threshold = 0.0;
    std::uint32_t feature = 0;
    std::uint32_t left = 0;  // 0 = leaf; right child = left + 1
  };

  explicit GradientTree(const GradientTreeConfig& config = {});

  const GradientTreeConfig& config() const { return config_; }
  std::size_t n_features() const { return n_features_; }

  // Trains the leaf x reaches `repeats` times with (g, h) and returns that
  // leaf's value BEFORE training. REQUIRES: x.size() == n_features() once the
  // first sample fixed it; NaN entries are missing values.
  double learn_one(std::span<const double> x, double g, double h, std::uint32_t repeats = 1);

  std::uint32_t leaf_index(std::span<const double> x) const noexcept {
    if (cat_) return leaf_index_categorical(x);
    return leaf_index_numeric(x);
  }
  // For trees with neither category splits nor linear leaves (the caller
  // knows from the config, once): routing and prediction without the flags.
  double predict_plain(std::span<const double> x) const noexcept { return value_[leaf_index_numeric(x)]; }
  std::uint32_t leaf_index_numeric(std::span<const double> x) const noexcept {
    const RouteNode* nodes = route_.data();
    std::uint32_t n = 0;
    while (nodes[n].left != 0) {
      const RouteNode& r = nodes[n];
      n = r.left + static_cast<std::uint32_t>(x[r.feature] > r.threshold);
    }
    return n;
  }
  double predict(std::span<const double> x) const noexcept { return leaf_predict(leaf_index(x), x); }
  // The constant part of a leaf (its whole output unless leaves are linear).
  double leaf_value(std::uint32_t leaf) const noexcept { return value_[leaf]; }
  // What leaf `leaf` predicts for x (== leaf_value without linear leaves).
  double leaf_predict(std::uint32_t leaf, std::span<const double> x) const noexcept {
    return linear_ ? linear_value(leaf, x) : value_[leaf];
  }
  // Linear leaves: whether node n predicts linearly now, and its w (empty
  // without linear leaves).
  bool leaf_is_linear(std::uint32_t n) const noexcept {
    return linear_ && (config_.leaf_model == TreeLeafModel::kLinear ||
                       (config_.leaf_model == TreeLeafModel::kAdaptive && promoted_[n] != 0));
  }
  std::span<const double> leaf_linear_weights(std::uint32_t n) const noexcept {
    if (!linear_) return {};
    return std::span<const double>(lin_w_).subspan(static_cast<std::size_t>(n) * n_features_, n_features_);
  }
  std::uint64_t n_split_reevaluations() const { return reevals_; }
  std::uint64_t n_split_replacements() const { return resplits_; }

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
  // The leaf's summed hessian H (decayed with the leaf statistics): the
  // evidence behind its weight -G/(H+lambda).
  double node_hessian(std::uint32_t n) const { return h_sum_[n]; }
  // New lambda and max_depth while the tree learns. Leaf weights take the
  // new lambda at their next sample; a lower depth stops splits past it
  // (deeper branches already grown stay) and frees those leaves'
  // histograms; a higher one gives the leaves at the old limit empty
  // histograms, so they split again once they see enough samples.
  // REQUIRES: lambda >= 0, 1 <= max_depth <= 30.
  void set_limits(double lambda, std::uint32_t max_depth);

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
  // A category-set split (its threshold is unused, 0): x goes left iff bit
  // category_code(x[feature]) of category_mask(n) is set.
  bool is_categorical_split(std::uint32_t n) const {
    return cat_ && route_[n].left != 0 && is_cat_[route_[n].feature] != 0;
  }
  std::uint64_t category_mask(std::uint32_t n) const { return cat_mask_.empty() ? 0 : cat_mask_[n]; }
  bool has_categorical_splits() const;
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
  // The state alone; decode reads it into this tree, which must have been
  // built with the settings that wrote it (its owner derives them).
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);
  // Records from before settings were written by name: the binary config,
  // then the state.
  Status decode_with_config(ByteReader& in);

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
  // Gradient clipping: once the leaf has seen 10
  // gradients, clamps g to their mean +- k sd (Welford), then folds it in.
  double clip_gradient(std::uint32_t leaf, double g) noexcept;
  // g and h into the leaf's sums (decayed first under leaf_decay_alpha).
  double train_leaf_value_general(std::uint32_t leaf, std::span<const double> x, double g, double h);
  void add_to_leaf_sums(std::uint32_t leaf, double g, double h) noexcept;
  void init_features(std::size_t n);
  void reserve_nodes();
  void build_edges();
  void accumulate(std::uint32_t slab, std::span<const double> x, double g, double h) noexcept;
  // The categorical forms (hoeffding_tree_categorical.cpp), used iff cat_.
  std::uint32_t leaf_index_categorical(std::span<const double> x) const noexcept;
  void accumulate_categorical(std::uint32_t slab, std::span<const double> x, double g, double h) noexcept;
  bool attempt_split(std::uint32_t leaf);
  void draw_feature_mask();
  void push_leaf(std::uint16_t depth, double value, double lo = -kInf, double hi = kInf);
  // Best and second-best candidate over the feature mask on one histogram.
  // best_cats: the category mask when the best split is by category set.
  bool find_best(const GradBin* bins, const GradBin& total, SplitCandidate& best, double& second,
                 std::uint64_t& best_cats);
  // Split re-evaluation at the depth ceiling (tree_reeval.cpp).
  bool reevaluate(std::uint32_t leaf);
  std::uint32_t parent_of(std::uint32_t n) const noexcept;
  // Children of a split (re)made at `parent`: values, bounds, linear state.
  void set_children(std::uint32_t parent, const SplitCandidate& best, bool fresh);
  // Linear leaves (tree_linear.cpp).
  double linear_value(std::uint32_t leaf, std::span<const double> x) const noexcept;
  void train_linear(std::uint32_t leaf, std::span<const double> x, double g, double h) noexcept;
  void init_linear_node(std::uint32_t n, std::uint32_t from, bool warm);
  // Linear and MLP leaves: the sample joins the leaf's running mean of x and
  // of |x - mean|^2 (uu, taken against the mean before this sample).
  void fold_into_centre(std::uint32_t leaf, std::span<const double> x, double uu) noexcept;
  // MLP leaves (tree_mlp.cpp).
  std::size_t mlp_block() const noexcept { return static_cast<std::size_t>(config_.mlp_hidden) * (n_features_ + 2); }
  double mlp_value(std::uint32_t leaf, std::span<const double> x) const noexcept;
  void train_mlp(std::uint32_t leaf, std::span<const double> x, double g, double h) noexcept;
  void init_mlp_root();
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  Status validate_structure() const;

  GradientTreeConfig config_;
  // No leaf option set but max_leaf_output, fixed at construction: train_leaf
  // then takes the plain Newton step, clamped to leaf_bound_ (max_leaf_output,
  // or +infinity without one), with no per-option checks.
  bool plain_ = true;
  double leaf_bound_ = kInf;
  GainParams gain_;
  Xorshift64 rng_;
  std::size_t n_features_ = 0;
  bool edges_ready_ = false;
  std::uint64_t samples_seen_ = 0;
  std::uint64_t split_attempts_ = 0;
  std::uint64_t reevals_ = 0, resplits_ = 0;
  // Flags fixed by the config at construction.
  bool linear_ = false;        // leaf_model != constant
  bool reeval_ = false;        // split_reeval_interval > 0: ceiling leaves keep histograms
  std::uint32_t ceiling_ = 0;  // depth a leaf never splits past

  std::vector<FeatureBinner> binners_;   // root, before edges exist
  // warm_start != 0: the root's rows before the edges exist (x, then g and
  // h), replayed into its histogram once they do.
  std::vector<double> warm_rows_;
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
  std::vector<double> prior_;            // interpolate: the parent's value when the node was made (root: unused)
  std::vector<std::uint64_t> clip_n_;    // gradient clipping: Welford count, mean, M2
  std::vector<double> clip_mean_, clip_m2_;
  std::vector<std::uint64_t> out_n_;     // adaptive leaf bound: count, mean, M2 (or EW variance)
  std::vector<double> out_mean_, out_m2_;
  std::vector<double> lin_w_, lin_mean_;  // linear leaves: n_features per node each
  std::vector<double> lin_power_;         // linear leaves: per node, running mean of |x - mean|^2
  std::vector<double> lin_g2_;            // linear AdaGrad: n_features per node, summed squared gradients
  std::vector<double> mlp_;               // MLP leaves: per node W (hidden x features), b, a (hidden each)
  std::vector<std::uint8_t> promoted_;    // adaptive: per node, linear now
  std::vector<std::uint64_t> adv_n_;      // adaptive: samples, summed advantage, largest |advantage|
  std::vector<double> adv_sum_, adv_max_;
  std::vector<GradBin> merged_;           // re-evaluation scratch: the two children's bins summed

  // Categorical features (config().categorical non-empty): cat_ is fixed at
  // construction; is_cat_ per feature, cat_mask_ per node (0 on leaves and
  // numeric splits).
  bool cat_ = false;
  std::vector<std::uint8_t> is_cat_;
  std::vector<std::uint64_t> cat_mask_;
};

}  // namespace irithyll
