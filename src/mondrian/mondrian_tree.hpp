// One online Mondrian tree with aggregation weights, the building block of
// the aggregated Mondrian forest (irithyll/mondrian/amf.hpp explains the
// process, the weights and the missing-value rule).
//
// Layout: nodes are indices into parallel arrays; node 0 is the root. A node
// that splits keeps its index (so its parent's links need no update) and
// gains two new nodes at the end: a copy of itself (its old box, statistics
// and subtree, born at the split time) and an empty leaf for x.
//   nodes_[v]                 links, split, times, log weights, sample mass
//   lo_[v * width + j]        box of node v on feature j (empty: lo = +inf,
//   hi_[v * width + j]          hi = -inf, until a finite value arrives)
//   stats_[v * n_stats + c]   classification: class mass c (n_stats = K);
//                             regression: the weighted mean (n_stats = 1)
// Internal to src/mondrian; tests reach it through src/.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::detail {

// Settings every tree of a forest shares.
struct MondrianParams {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;  // classification: K >= 2
  std::size_t width = 0;      // features
  double step = 1.0;
  double dirichlet = 0.5;
  bool use_aggregation = true;
  bool split_pure = false;
  std::uint32_t max_nodes = 1024;
  bool scaled_extents = true;  // box extensions in units of the tree's feature ranges
};

struct MondrianNode {
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::uint32_t parent = kNone;
  std::uint32_t left = kNone;  // kNone: a leaf (then right is kNone too)
  std::uint32_t right = kNone;
  std::uint32_t feature = 0;
  double threshold = 0.0;        // x_feature <= threshold goes left
  double time = 0.0;             // birth time tau (the parent's split time)
  double weight = 0.0;           // log weight w_v = -step * cumulative loss
  double log_weight_tree = 0.0;  // W_v
  double mass = 0.0;             // sum of sample weights seen
  bool is_leaf() const { return left == kNone; }
};

class MondrianTree {
 public:
  MondrianTree() = default;
  MondrianTree(const MondrianParams& params, std::uint64_t seed);

  // REQUIRES: x.size() == width, y a finite target (a class index for
  // classification), weight > 0 and finite. `extensions` is scratch of
  // `width` doubles.
  void learn(const MondrianParams& p, std::span<const double> x, double y, double weight,
             std::span<double> extensions);
  // Classification: the aggregated class probabilities into out (K values).
  void predict_proba(const MondrianParams& p, std::span<const double> x, std::span<double> out) const;
  // Regression: the aggregated estimate.
  double predict_value(const MondrianParams& p, std::span<const double> x) const;

  std::size_t size() const { return nodes_.size(); }
  // Back to a single empty root, keeping the storage and the random stream.
  void restart(const MondrianParams& p);
  std::size_t memory_bytes() const;
  const MondrianNode& node(std::size_t v) const { return nodes_[v]; }
  double lo(const MondrianParams& p, std::size_t v, std::size_t j) const { return lo_[v * p.width + j]; }
  double hi(const MondrianParams& p, std::size_t v, std::size_t j) const { return hi_[v * p.width + j]; }
  // Leaf x reaches (the routing of learning and prediction).
  std::uint32_t leaf_of(std::span<const double> x) const;

  void encode(ByteWriter& out) const;
  // Checks every link (one tree reachable from the root, parents matching),
  // feature index, count and value before it replaces this tree.
  Status decode(const MondrianParams& p, ByteReader& in);

 private:
  std::size_t n_stats(const MondrianParams& p) const;
  std::uint32_t child_of(std::uint32_t v, std::span<const double> x) const;
  // Sum of the range extensions of node v by x (each into ext[j]).
  double extension(const MondrianParams& p, std::uint32_t v, std::span<const double> x, std::span<double> ext) const;
  // Node v's prediction loss on (y) before it learns y.
  double loss(const MondrianParams& p, std::uint32_t v, double y) const;
  // Box, weight (if asked), mass and statistics of v take in (x, y).
  void update(const MondrianParams& p, std::uint32_t v, std::span<const double> x, double y, double weight,
              bool update_weight);
  // v splits at `time` on (feature, threshold); returns the new empty leaf.
  std::uint32_t split(const MondrianParams& p, std::uint32_t v, double time, std::uint32_t feature,
                      double threshold, bool x_goes_right);
  std::uint32_t add_node(const MondrianParams& p);

  Xorshift64 rng_;
  std::uint64_t learned_ = 0;
  std::vector<MondrianNode> nodes_;
  std::vector<double> lo_, hi_, stats_;
};

}  // namespace irithyll::detail
