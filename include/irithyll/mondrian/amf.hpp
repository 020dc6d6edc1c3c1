// Aggregated Mondrian forest (`--model mondrian_forest`; Python
// irithyll.forest.AMFClassifier / AMFRegressor).
//
// Each tree is an online Mondrian tree (Lakshminarayanan, Roy & Teh 2014,
// classification; 2016, regression) whose predictions are aggregated over
// all the prunings of the tree with exponential weights (Mourtada, Gaiffas &
// Scornet 2021, "AMF: Aggregated Mondrian forests for online learning").
//
// The Mondrian process, per tree: every node keeps the bounding box of the
// samples it has seen and its birth time tau (the root's is 0). A sample x
// walks down from the root; at node v it extends the box by
//   e_j = max(lo_j - x_j, x_j - hi_j, 0),   E = sum_j e_j,
// and when E > 0 a split time tau_v + T, T ~ Exponential(rate E), is drawn.
// A leaf always splits then (infinite lifetime); a branch splits only if the
// time comes before its children's birth (Lakshminarayanan et al. 2014,
// Algorithm 3: a new node is inserted above the old subtree). The split
// feature is drawn with probability e_j / E and the threshold uniformly in
// the gap between the box and x_j, so x lands alone in a new leaf. Each e_j
// is measured in units of feature j's range over every sample the tree has
// seen (x included), as if the features were min-max scaled to [0, 1], the
// setting of Mourtada et al.: in raw units the feature with the widest range
// takes nearly every split (Agrawal's salary and loan against its age and
// education; accuracy 0.645 -> 0.793 over 3 seeds, Electricity 0.867 ->
// 0.903, SEA unchanged). Records of version 1 keep raw extents. With
// split-pure off (River's default) a classification node whose samples all
// carry x's label does not split (it only widens its box).
//
// Prediction and aggregation (Mourtada et al. 2021, Algorithm 1): node v
// predicts from its own samples (classification: counts smoothed by a
// Dirichlet(alpha) prior, (n_c + alpha) / (n + alpha K); regression: the
// mean) and carries log weight w_v = -step * (cumulative loss of its
// predictions made before each of its samples; log loss or half the squared
// error). Its subtree carries W_v = log((e^w_v + e^(W_left + W_right)) / 2)
// (a leaf: W_v = w_v). The tree's prediction for x goes up from x's leaf:
//   p <- (1/2) e^(w_v - W_v) pred_v + (1 - (1/2) e^(w_v - W_v)) p,
// which is the exact Bayesian mixture over all prunings under the branching
// prior. use-aggregation off: the leaf's own prediction. The forest averages
// its trees; every tree sees every sample (no bagging), trees differ by seed.
//
// Sample weights: a weight w counts as w in n and n_c and scales that
// sample's loss (w * loss), so weight 2 is close to, but (the random
// structure aside) not exactly, two presentations.
//
// Missing values: a NaN/inf feature neither widens a box nor can be chosen
// to split on; at a branch that tests it, the sample goes to the child that
// has seen more samples (ties to the left), in learning and in prediction.
//
// Memory: a Mondrian tree with infinite lifetime keeps splitting as long as
// samples fall outside their leaf's box (in regression, nearly every sample
// adds two nodes), so it grows linearly in the stream; River's AMF has no
// bound. `max-nodes` caps each tree, and `when-full` says what a full tree
// does:
//   restart  it starts again from a single root (keeping its storage and
//            random stream). Tree t of n is full at max-nodes - t *
//            max-nodes / (2 n) nodes, so the trees restart at different
//            times and the forest always holds older and younger trees. On
//            a drifting stream this is also how the forest forgets.
//   freeze   it stops splitting; its nodes go on updating boxes, counts,
//            means and weights.
//   auto     restart for classification, freeze for regression (a
//            regression tree fills after about max-nodes / 2 samples, too
//            short a memory to restart from).
// max-nodes 0 (the default) takes 1024 for classification and 4096 for
// regression: a regression tree then grows for about 2,000 samples before
// it freezes, so a small data set (a few thousand rows) is learned whole,
// while the forest stays within 10 * 4096 nodes (about 9 MB at 10 features).
// Measured (irithyll eval, 10 trees, 1024 nodes): SEA accuracy 0.864
// restart / 0.839 freeze; Electricity 0.869 / 0.761 (no cap: 0.846 at
// 65 MB); Friedman #1 R^2 0.44 restart / 0.58 freeze, and 0.64 freeze at
// 4096 nodes (20,000 samples; 9 MB against 2.3 MB). Node storage
// grows by doubling up to the cap, so a tree never holds more than
// max-nodes nodes and a small stream holds only what it needs.
//
// Split-pure off (the default, as River's) has a known weakness: a pure
// node widens its box over every same-label sample, and a later sample of
// another label inside that box can never split it again (the paused
// Mondrian of Lakshminarayanan et al. 2014 re-splits from stored points;
// AMF stores none). A stream that opens with a long run of one class can so
// leave a large region to one leaf: see tests/mondrian/amf_test.cpp, where
// split-pure on repairs it.
//
// Cost per sample: O(depth * (features + classes)) per tree for learning,
// O(depth * classes) per tree for prediction; memory per node
// 56 + 16 * features + 8 * classes bytes (regression: 8 for the mean).
// Thread safety: as every Learner (learner.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

namespace detail {
class MondrianTree;
struct MondrianParams;
}

// What a tree does once it holds max-nodes nodes (see "Memory" above).
enum class AmfWhenFull : std::uint8_t { kAuto = 0, kRestart = 1, kFreeze = 2 };
Result<AmfWhenFull> parse_amf_when_full(std::string_view text);
std::string_view amf_when_full_name(AmfWhenFull w);

struct AmfConfig {
  std::uint32_t n_estimators = 10;  // trees; [1, 1000]
  double step = 1.0;                // eta of the exponential weights; > 0
  bool use_aggregation = true;      // off: each tree predicts from x's leaf alone
  double dirichlet = 0.5;           // classification: Dirichlet prior on each node's class counts; > 0
  bool split_pure = false;          // classification: split a node even when all its labels equal x's
  std::uint32_t max_nodes = 0;      // per tree; 0 (auto) or [3, 2^24]; see "Memory" above
  AmfWhenFull when_full = AmfWhenFull::kAuto;  // auto: restart (classification), freeze (regression)
};

// max-nodes as a tree applies it: the setting, or for 0 the task's default
// (1024 for classification, 4096 for regression).
std::uint32_t amf_max_nodes(const AmfConfig& config, Task task);

class MondrianForestLearner final : public Learner {
 public:
  using Config = AmfConfig;
  static constexpr std::string_view kName = "mondrian_forest";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<MondrianForestLearner>> make(const Config& config, const LearnerContext& context);

  MondrianForestLearner();
  ~MondrianForestLearner() override;
  MondrianForestLearner(MondrianForestLearner&&) noexcept;
  MondrianForestLearner& operator=(MondrianForestLearner&&) noexcept;
  const Config& config() const { return config_; }

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.n_classes; }
  std::size_t n_features() const override { return width_; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // Nodes of tree t (t < n_estimators; 0 before the width is known).
  std::size_t tree_size(std::size_t t) const;

 private:
  void build_trees(std::size_t width);
  // The settings every tree shares, at the current width.
  detail::MondrianParams params() const;

  Config config_;
  LearnerContext context_;
  std::size_t width_ = 0;
  bool scaled_extents_ = true;  // false: decoded from a version-1 record
  std::vector<detail::MondrianTree> trees_;  // empty until the width is known
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;
  mutable std::vector<double> scratch_;  // per-tree class probabilities; range extensions
};

}  // namespace irithyll
