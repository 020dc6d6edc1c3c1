// Vfdt: the incremental Hoeffding tree engine behind `hoeffding_tree` and the
// members of `arf`.
//
// Classification (VFDT, Domingos & Hulten 2000): each leaf keeps class
// weights and, per observed attribute, a numeric estimator; every
// grace_period of leaf weight it scores binary splits "x_f <= t" by
// information gain (or Gini) and splits when the best attribute beats the
// second best (under Gini also the "no split" option, merit 0) by more than
// the Hoeffding bound
//     eps = sqrt(R^2 ln(1/delta) / (2 n)),  R = log2(K) (gain) or 1 (Gini),
// or when eps < tie_threshold. Gaussian estimators (MOA's default) give a
// branch's class weights as w_c * Phi((t - mu_c) / sigma_c) at 10 candidate
// thresholds evenly spaced inside the observed range.
//
// Regression (FIMT-DD, Ikonomovska et al. 2011): the merit is variance
// reduction, and a split is made when the ratio second/best < 1 - eps
// (R = 1) or eps < tie_threshold; leaves predict their mean, or mean plus a
// linear model on features standardised by the tree's running moments.
//
// Histograms: `bins` equal-width bins per attribute whose range doubles (bins
// merging in pairs) whenever a value falls outside it, so they need no
// warm-up and cost nothing per sample to re-grid.
//
// Nominal attributes (config.categorical; MOA's NominalAttributeClassObserver):
// values are codes 0..63 (others are missing), the leaf keeps one row of
// class weights (or [w, mean, M2]) per value, naive Bayes uses the
// smoothed per-value frequency (config.nominal_nb_prior), and the split search scores both a
// multiway split (one branch per value seen at the leaf; merit over all
// branches, at least two holding min_branch_fraction) and every
// one-value-vs-rest binary split, as MOA's HoeffdingTree does by default
// (config.binary_nominal, which ARF's members use: one-vs-rest only). For
// classification each nominal merit is lowered by config.nominal_penalty
// times its expected gain on noise, which grows with the branch count.
// At a multiway node, a missing value or one not seen when it split goes to
// the branch that held the most weight then; at "x == v", anything else goes
// right.
//
// Subspaces (ARF, Gomes et al. 2017): with subspace m < d every new leaf
// observes its own m attributes drawn without replacement from the tree's RNG.
// The subspace draws split candidates only: a linear leaf's model reads all
// d features. A model on the leaf's m random features misses most of the
// signal (ARF regression on friedman, R2 0.72 against 0.75 for mean leaves;
// over all d, 0.83).
//
// Layout: nodes_ is a flat array; a node with feature < 0 is a leaf whose
// statistics live in leaves_[slot]. Children are always appended after their
// parent, so indices only grow along a path (decode() checks it: no cycles).
// Leaf stats, one block of doubles:
//   head      classification: K class weights | regression: [w, mean, M2]
//   linear    regression with linear leaves: d + 1 weights, by feature (bias last)
//   observer  per observed attribute, obs_size_ doubles:
//     Gaussian  K x [w, mean, M2, min, max]
//     histogram [lo, width, initialised] then bins x S (S = K, or 3 for [w, mean, M2])
//     nominal   64 value rows x S (obs_size_ is the larger of this and the
//               numeric size when any attribute is nominal)
//   Under config.binary_nominal (a record format that came with it) each
//   observer has its own attribute's size instead, so a leaf's numeric
//   attributes do not carry 64 value rows each.
// A split turns the leaf into a routing node; its slot is reused by the left
// child and the right child takes a free slot, so the tree allocates only
// when it grows past its largest size.
//
// Cost per sample: depth routing + O(m K) estimator updates (NB leaves: the
// same again for the log-likelihoods). Split attempt: O(m K P) for Gaussian,
// O(m K B) for histograms. Thread safety: one thread at a time (const methods
// use mutable scratch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/tree_model.hpp"
#include "irithyll/tree/vfdt_config.hpp"

namespace irithyll {

class Vfdt {
 public:
  Vfdt() = default;
  // REQUIRES: config.validate() ok; classification n_classes >= 2; n_features
  // >= 1; subspace in [1, n_features] (0 = all features).
  Vfdt(const HoeffdingTreeConfig& config, Task task, std::size_t n_classes, std::size_t n_features,
       std::size_t subspace, std::uint64_t seed);

  // Learns x (length n_features) with weight w > 0 and returns what the tree
  // predicted for x just before (class index or value): ARF's detectors and
  // the adaptive leaves both need it, so it is computed once.
  double learn_one(std::span<const double> x, double y, double w);
  // Class index or value.
  double predict_one(std::span<const double> x) const;
  // Classification: proba.size() == n_classes, sums to 1.
  void predict_proba(std::span<const double> x, std::span<double> proba) const;
  // Back to a single empty leaf, RNG re-seeded.
  void reset();
  // Routes xs[i] down trees[i] for every i, one level of every tree per
  // round, and has each tree remember the leaf it reached: the next
  // predict_one / predict_proba / learn_one of the same x starts there. An
  // ensemble calls it before asking its members: the walks of different
  // trees are independent, so their cache misses overlap instead of queueing
  // one behind the other. Changes no prediction. REQUIRES: xs.size() ==
  // trees.size(), each x of its tree's n_features().
  static void route_together(std::span<const Vfdt* const> trees, std::span<const std::span<const double>> xs);

  Task task() const { return task_; }
  std::size_t n_classes() const { return n_classes_; }
  std::size_t n_features() const { return n_features_; }
  std::size_t subspace() const { return subspace_; }
  std::size_t n_nodes() const { return nodes_.size(); }
  std::size_t n_leaves() const { return leaves_.size() - free_.size(); }
  std::size_t depth() const;
  std::size_t memory_bytes() const;
  const HoeffdingTreeConfig& config() const { return config_; }

  // The state alone; decode reads it into a tree with `config`, the settings
  // it was built with (its owner derives them from its own named settings).
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in, const HoeffdingTreeConfig& config);
  // Records from before the settings were derived: the binary config, then
  // the state.
  Status decode_with_config(ByteReader& in);

  // An indented outline (kText) or a Graphviz graph (kDot) of the tree:
  // splits read "feature <= threshold" (the left branch; missing values go
  // left), "feature == value" (one-vs-rest), or list a nominal multiway
  // split's branches by value; leaves show their prediction and weight
  // (vfdt_dump.cpp). Category names as in TreeModel::dump_tree.
  std::string dump(TreeDumpFormat format, std::span<const std::string> feature_names = {},
                   std::span<const std::vector<std::string>> category_names = {}) const;
  // Adds, per feature, the number of internal nodes splitting on it.
  // REQUIRES: counts.size() >= n_features().
  void add_split_counts(std::span<std::uint64_t> counts) const;
  // Appends the tree for explanation (vfdt_explain.cpp): classification one
  // view per class c (output c, leaf value = the leaf's class-c weight
  // share, the majority-class probability), regression one view of the leaf
  // means (output 0); each with `scale`. Multiway nodes become chains of
  // one-code category splits. NotSupported for linear leaves. `features`,
  // when given, maps the tree's feature j to the caller's feature
  // features[j] (a tree over a feature subspace; SRP). REQUIRES: features
  // empty or of size n_features().
  Status append_tree_views(std::vector<TreeView>& out, double scale, std::span<const std::uint32_t> features = {}) const;

 protected:
  // The adaptive trees built on this engine (irithyll/tree/adaptive_vfdt.hpp)
  // reuse the leaf statistics, the split search and the node layout below.
  // Routing kinds: x <= threshold (or NaN) goes to a, else b; multiway:
  // code c < threshold (the branch count) goes to a + c, else b (the
  // default branch); equal: code == threshold goes to a, else b.
  enum : std::uint8_t { kThreshold = 0, kMultiway = 1, kEqual = 2 };
  struct Node {
    double threshold = 0.0;
    std::int32_t feature = -1;  // < 0: leaf
    std::uint32_t a = 0;        // leaf: slot in leaves_; routing: left child (x <= threshold or NaN)
    std::uint32_t b = 0;        // routing: right child
    std::uint8_t kind = kThreshold;
  };
  struct Leaf {
    std::vector<std::uint32_t> features;  // observed attributes (subspace)
    std::vector<double> stats;            // head | linear | observers (see layout)
    double weight_at_attempt = 0.0;       // leaf_n() at the last split attempt
    double n_obs = 0.0;                   // count_observations: observations, inherited share included
    // Classification (adaptive NB): weight the majority class got right, and
    // naive Bayes. Regression (adaptive leaves): faded squared error of the
    // mean, and of the linear model.
    double mc_correct = 0.0;
    double nb_correct = 0.0;    std::uint32_t depth = 0;
  };
  struct Candidate {
    double merit = 0.0;
    double threshold = 0.0;  // kEqual: the value; kMultiway: the branch count
    std::int32_t feature = -1;
    std::uint8_t kind = kThreshold;
  };

  // Sizes and offsets of the stats block (fixed at construction).
  void compute_layout();
  // Doubles in the observer of feature f, and where a leaf's j-th observer
  // starts in its stats block; the block's size.
  std::size_t obs_width(std::size_t f) const {
    if (!config_.binary_nominal) return obs_size_;
    if (any_nominal_ && nominal_[f]) return kNominalRows * bin_stride_;
    return gaussian_ ? 5 * n_classes_ : 3 + config_.n_bins * bin_stride_;
  }
  std::size_t obs_offset(const Leaf& leaf, std::size_t j) const {
    std::size_t o = head_size_ + linear_size_;
    for (std::size_t i = 0; i < j; ++i) o += obs_width(leaf.features[i]);
    return o;
  }
  std::size_t stats_size(const Leaf& leaf) const { return obs_offset(leaf, leaf.features.size()); }
  static constexpr std::size_t kNominalRows = 64;  // category codes 0..63
  // The leaf node x reaches from node `start` (the root by default).
  std::size_t find_leaf_node(std::span<const double> x, std::size_t start = 0) const;
  // The child of routing node `node` that x goes to.
  std::size_t child_of(const Node& node, std::span<const double> x) const {
    const double v = x[static_cast<std::size_t>(node.feature)];
    if (node.kind != kThreshold) return route(node, v);
    // Branch-free select (NaN goes left): the comparison is the data's coin
    // flip, which a predicted branch gets wrong about half the time.
    const std::uint32_t right = -static_cast<std::uint32_t>(v > node.threshold);
    return node.a ^ ((node.a ^ node.b) & right);
  }
  // find_leaf_node from the root, answered from the route cache when x is
  // the sample the last prediction routed (the prequential loop predicts x,
  // then learns it: the second walk is skipped).
  std::size_t leaf_node_of(std::span<const double> x) const;
  std::uint32_t new_leaf_slot();
  // parent_linear: the split leaf's linear model, as inherit_linear_from
  // gives it, for a child to start from (null: zero weights).
  void init_leaf(Leaf& leaf, std::uint32_t depth, std::span<const double> head,
                 const double* parent_linear = nullptr);
  // Linear leaves: the linear model of the leaf at `node`, kept in inherit_
  // (weights by feature, then the bias, then the leaf's mean); null when the
  // leaves are not linear or the node is not a leaf.
  const double* inherit_linear_from(std::size_t node);
  double leaf_weight(const Leaf& leaf) const;
  // The n of the Hoeffding bound and the grace period: the leaf weight, or
  // its observation count under config.count_observations.
  double leaf_n(const Leaf& leaf) const { return config_.count_observations ? leaf.n_obs : leaf_weight(leaf); }

  // Classification leaf predictions (vfdt_predict.cpp).
  std::size_t majority_class(const Leaf& leaf) const;
  // Fills log_scores_ with log P(c) + sum_f log p(x_f | c); returns arg-max.
  std::size_t naive_bayes_class(const Leaf& leaf, std::span<const double> x) const;
  // The same, reusing the last answer when the tree has not learned since
  // and x and the leaf are the same (bitwise equal inputs, same result).
  std::size_t naive_bayes_class_cached(const Leaf& leaf, std::span<const double> x) const;
  bool use_naive_bayes(const Leaf& leaf) const;
  // Arg-max of leaf_proba without the probabilities.
  std::size_t leaf_class(const Leaf& leaf, std::span<const double> x) const;
  void leaf_proba(const Leaf& leaf, std::span<const double> x, std::span<double> proba) const;
  double leaf_value(const Leaf& leaf, std::span<const double> x) const;
  // Mean plus the linear model (linear and adaptive leaves); x's
  // standardised inputs are left in lin_z_.
  double linear_value(const Leaf& leaf, std::span<const double> x) const;
  // Adaptive regression leaves: the mean predicts while its error is lower.
  bool use_mean(const Leaf& leaf) const { return adaptive_ && leaf.mc_correct < leaf.nb_correct; }
  double standardised(std::size_t f, double v) const;

  // Estimators (vfdt_observer.cpp).
  void observe(Leaf& leaf, std::span<const double> x, double y, double w);
  // Grows the histogram block of attribute f until it covers v; returns v's bin row.
  double* histogram_row(double* block, std::size_t f, double v);
  // One step of the leaf's linear model on error y - output, weight w, on
  // the inputs the last linear_value call left in lin_z_.
  void update_linear(Leaf& leaf, double err, double w);
  // A leaf decoded from a record whose linear block held the leaf's m
  // subspace weights and the bias: rewritten to the d + 1 layout, each
  // weight at its feature and zero elsewhere, so it predicts the same.
  void widen_linear_block(Leaf& leaf) const;

  // The learn step, in the pieces the adaptive trees reuse (vfdt.cpp):
  // per-feature ranges and moments over every sample; a leaf's prediction
  // bookkeeping and statistics update (returns what the leaf predicted
  // before learning); and whether the leaf is due a split attempt (grace
  // period and depth limit; records the attempt when it is).
  void track_features(std::span<const double> x, double w);
  double learn_leaf(Leaf& leaf, std::span<const double> x, double y, double w);
  bool split_due(Leaf& leaf);

  // Split search (vfdt_split.cpp).
  // What a split attempt found: the best candidate (its branch statistics
  // in best_left_/best_right_/best_branches_), the runner-up's merit, the
  // Hoeffding bound at the leaf's weight, and, when `tracked` names a
  // feature, that feature's best merit (EFDT compares it with the best).
  struct SplitScore {
    Candidate best;
    double second = 0.0;
    double eps = 0.0;
    std::int32_t tracked = -1;
    double tracked_merit = 0.0;
  };
  // False when the leaf is pure (nothing to gain) or has no spread.
  bool score_split(const Leaf& leaf, SplitScore& score);
  // VFDT's rule: best beats the runner-up by the bound (FIMT-DD's ratio for
  // regression), or the bound is below the tie threshold.
  void attempt_split(std::size_t node);
  // Turns `node` into a routing node for `best` (scored just before), its
  // first child in leaf slot `first_slot` (the others take free slots) at
  // depth `depth`; children start from the branch statistics.
  void apply_split(std::size_t node, const Candidate& best, std::uint32_t first_slot, std::uint32_t depth);
  Candidate best_gaussian(const Leaf& leaf, std::size_t j, std::span<double> left, std::span<double> right);
  Candidate best_histogram(const Leaf& leaf, std::size_t j, std::span<double> left, std::span<double> right);
  double merit(std::span<const double> pre, std::span<const double> left, std::span<const double> right) const;
  // Nominal attributes (vfdt_nominal.cpp): the best multiway or
  // one-vs-rest split of observed attribute j (branch rows of a multiway one
  // into `branches`), the multiway merit, and the naive Bayes term.
  Candidate best_nominal(const Leaf& leaf, std::size_t j, std::span<double> left, std::span<double> right,
                         std::vector<double>& branches);
  double multiway_merit(const double* rows, std::size_t n_branches) const;
  double noise_gain(const double* rows, std::size_t n_values, double total) const;
  void add_nominal_log_likelihood(const double* rows, double v) const;
  void split_multiway(std::size_t node, const Candidate& best, std::uint32_t first_slot, std::uint32_t depth);
  std::size_t route(const Node& node, double v) const;

  HoeffdingTreeConfig config_{};
  Task task_ = Task::kClassification;
  std::size_t n_classes_ = 2;
  std::size_t n_features_ = 1;
  std::size_t subspace_ = 1;
  std::uint64_t seed_ = 0;
  Xorshift64 rng_{};

  // Layout, derived from the above.
  std::size_t head_size_ = 0, linear_size_ = 0, obs_size_ = 0, bin_stride_ = 0;
  bool gaussian_ = true, linear_ = false, adaptive_ = false;  // adaptive_: regression only
  bool any_nominal_ = false;
  std::vector<std::uint8_t> nominal_;  // per feature: 1 = nominal (config.categorical)

  std::vector<Node> nodes_;
  std::vector<Leaf> leaves_;
  std::vector<std::uint32_t> free_;  // slots of leaves_ not in the tree
  // Per feature, over every sample: range (histogram initial width) and
  // weighted moments [w, mean, M2] (linear leaves' standardisation).
  std::vector<double> feat_min_, feat_max_, feat_moments_;

  // Scratch (never persisted).
  mutable std::vector<double> log_scores_, proba_, var_product_;
  struct NbCache {
    bool valid = false;
    std::size_t slot = 0;  // leaves_ index (an index, so copies of the tree stay consistent)
    std::size_t cls = 0;
    std::vector<double> x;
  };
  mutable NbCache nb_cache_;  // invalidated by every learn_one
  struct RouteCache {
    bool valid = false;
    std::size_t node = 0;
    std::vector<double> x;
  };
  mutable RouteCache route_cache_;  // set by predictions, invalidated by every learn
  static constexpr std::uint32_t kNoRoute = 0xFFFFFFFFu;  // route_together: walk finished or not started
  // Linear leaves: the bound on a standardised input, on one SGD step, and
  // on a decoded weight (their products stay far inside the doubles).
  static constexpr double kMaxStandardised = 1e6;
  static constexpr double kMaxLinearStep = 1e94;
  static constexpr double kMaxLinearWeight = 1e200;
  std::vector<double> cand_left_, cand_right_, best_left_, best_right_, tmp_left_, tmp_right_, tmp_total_;
  std::vector<double> gauss_;  // best_gaussian: per class weight, then sqrt(2 var)
  std::vector<double> cand_branches_, best_branches_;  // multiway candidates: 64 rows each
  std::vector<std::uint32_t> perm_;
  std::vector<double> inherit_;  // split: the parent's linear weights by feature, its bias, its mean
  mutable std::vector<double> lin_z_;  // linear_value's standardised inputs (update_linear steps on them)
  double pre_impurity_ = 0.0;  // split search: impurity of the leaf being split
  double obs_per_weight_ = 0.0;  // split: the parent's observations per unit weight (children's n_obs)
};

}  // namespace irithyll
