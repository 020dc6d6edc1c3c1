// TreeExplainer: exact Shapley values of a tree model's raw output, per
// feature (SHAP; Lundberg et al., "From local explanations to global
// understanding with explainable AI for trees", Nature Machine Intelligence
// 2020).
//
// Path-dependent (explain_one): Algorithm 2 of the paper (TreeSHAP). The
// value of a feature subset S is E[f(x) | x_S] computed the way the tree
// splits its training data: at a split on a feature in S, x's branch; on any
// other, both branches weighted by their cover (the training weight that
// reached them, TreeNodeView::cover). Cost O(T L D^2) per row for T trees
// of L leaves and depth D; contributions sum to raw - base_value.
//
// Interventional (explain_one_interventional, after set_background): the
// value of S is the mean over background rows r of f(x_S, r_rest), S taking
// x's values and the rest r's (the paper's Interventional Tree SHAP). Per
// background row and tree, only the features on which x and r route
// differently branch; a leaf reached with a features taken from x and b from
// r adds (a-1)! b! / (a+b)! of its value to each of the first and subtracts
// a! (b-1)! / (a+b)! from each of the second. Cost O(T R L D) per row for R
// background rows; contributions sum to raw - the background's mean raw.
//
// Any learner that is a TreeModel (SGBT, the Hoeffding tree, ARF) or whose
// raw output is otherwise a sum of trees (trees_of: the SGBT wrappers,
// distributional_sgbt's location, quantile_sgbt's quantiles before
// rearrangement, srp, leveraging_bagging) can be
// explained; routing (missing values, category sets) is exactly the
// learner's. Trees deeper than kMaxDepth are refused.
//
// Memory: the flattened nodes (56 bytes each), O(D^2) path scratch, and
// the tables: per group of leaves 2^(its depth + up to 3) rows of up to
// depth + 4 doubles (or, up to 16 features, of the features rounded up to
// 4) plus up to 8 leaf values, or per leaf 2^u u doubles (u <= depth
// distinct features); one row pointer per group; explain_batch's scratch:
// a block of rows (256 x features doubles) and four keys per node.
// Thread safety: one thread at a time (explain_* use mutable scratch);
// copies are independent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/tree_model.hpp"

namespace irithyll {

class TreeExplainer {
 public:
  static constexpr std::size_t kMaxDepth = 256;
  // The table form (see below) is used while every leaf's path has at most
  // kTableMaxUnique distinct features and all tables together hold at most
  // kTableMaxEntries doubles (64 MB); otherwise Algorithm 2 runs.
  static constexpr std::size_t kTableMaxUnique = 10;
  static constexpr std::size_t kTableMaxEntries = std::size_t{1} << 23;
  // Group tables (tree_shap_groups.cpp) sum the leaf tables of each subtree
  // of height <= 2; used while every group's key has at most kGroupMaxBits
  // bits (its depth plus its internal nodes) and within kTableMaxEntries.
  static constexpr std::size_t kGroupMaxBits = 10;

  // Validates the view (child indices after their parent and in range, each
  // node one parent, features < n_features, finite values and covers,
  // depth <= kMaxDepth); errors name `model_name` and the tree.
  static Result<TreeExplainer> make(const TreeEnsembleView& view, const std::string& model_name);
  // The learner's trees (trees_of). An error naming the learner when its
  // output is not a sum of constant-leaf trees.
  static Result<TreeExplainer> make(const Learner& learner);
  // A TreeModel's own trees, or those of a wrapper whose raw output is a sum
  // of its members' trees (adaptive_sgbt, multi_target_sgbt, bagged_sgbt
  // regression; tree_sources.cpp); NotSupported naming the learner and the
  // reason otherwise.
  static Result<TreeEnsembleView> trees_of(const Learner& learner);

  std::size_t n_features() const { return n_features_; }
  std::size_t n_outputs() const { return bias_.size(); }
  const std::vector<std::string>& output_names() const { return output_names_; }
  const std::string& raw_scale() const { return raw_scale_; }
  std::size_t n_trees() const { return n_trees_; }

  // Raw output `output` for x (what the contributions sum to).
  // REQUIRES (checked, InvalidArgument): x.size() == n_features(),
  // output < n_outputs(), phi.size() == n_features().
  Result<double> predict_raw(std::span<const double> x, std::size_t output) const;
  // E[f] under the covers: the path-dependent base value.
  double base_value(std::size_t output) const { return expected_[output]; }
  // Writes phi (path-dependent) and returns raw = base_value + sum(phi).
  // Uses the group tables when built (tree_shap_groups.cpp: the leaf
  // tables of each subtree of height <= 2 summed per key; O(T N) per row),
  // else the leaf tables (tree_shap_table.cpp: Fast TreeSHAP v2, Yang 2021;
  // O(T (N + L D)) per row, N nodes), else Algorithm 2.
  Result<double> explain_one(std::span<const double> x, std::size_t output, std::span<double> phi) const;
  // Algorithm 2 always: the reference the tables are tested against.
  Result<double> explain_one_ref(std::span<const double> x, std::size_t output, std::span<double> phi) const;
  bool has_tables() const { return tables_; }
  bool has_groups() const { return groups_built_; }
  // Bytes held by the tables (group or leaf form).
  std::size_t table_bytes() const {
    return group_table_.size() * sizeof(TableLine) + (group_value_.size() + table_.size()) * sizeof(double);
  }
  std::size_t n_groups() const { return groups_.size(); }
  // explain_one for n_rows rows (row-major, n_rows x n_features): phi is
  // n_rows x n_features, raw one per row. Tree-major over blocks of
  // kBatchBlock rows, so one tree's tables stay in cache while every row of
  // the block reads them (tree_shap_batch.cpp); with dense group tables,
  // numeric splits and AVX2, four rows at a time, one per vector lane
  // (tree_shap_batch_avx2.cpp). The same bits as explain_one.
  // REQUIRES (checked): the sizes above, output < n_outputs().
  static constexpr std::size_t kBatchBlock = 256;
  Status explain_batch(std::span<const double> rows, std::size_t n_rows, std::size_t output, std::span<double> phi,
                       std::span<double> raw) const;

  // Background rows, row-major (n_rows x n_features), for the
  // interventional form; values are copied. InvalidArgument when empty or
  // of the wrong width.
  Status set_background(std::span<const double> rows, std::size_t n_rows);
  bool has_background() const { return n_background_ > 0; }
  // Mean raw output over the background rows. REQUIRES: has_background().
  double background_base_value(std::size_t output) const { return background_base_[output]; }
  // Writes phi (interventional) and returns raw. FailedPrecondition-like
  // InvalidArgument without a background.
  Result<double> explain_one_interventional(std::span<const double> x, std::size_t output,
                                            std::span<double> phi) const;

 private:
  // Layout: every tree's nodes in one array; an internal node's children
  // are absolute indices; a leaf's value is pre-multiplied by its tree's
  // scale; frac_left/right = child cover / (sum of both), 1/2 each when
  // both covers are 0.
  struct Node {
    double threshold;
    std::uint64_t mask;
    double value;
    double frac_left, frac_right;
    std::int32_t feature;  // < 0: leaf
    std::uint32_t left, right;
    bool categorical;
  };
  struct PathElement {
    std::int32_t feature;
    double zero_fraction, one_fraction, weight;
  };

  TreeExplainer() = default;
  Status check_args(std::span<const double> x, std::size_t output, std::span<double> phi) const;
  std::span<const double> clean(std::span<const double> x) const;
  std::uint32_t leaf_of(std::uint32_t root, std::span<const double> x) const noexcept;
  void tree_shap(std::uint32_t n, std::span<const double> x, std::span<double> phi, PathElement* parent,
                 std::size_t unique_depth, double zero_fraction, double one_fraction, std::int32_t feature) const;
  void interventional(std::uint32_t n, std::span<const double> x, std::span<const double> r, std::span<double> phi,
                      std::size_t nx, std::size_t nr) const;
  void build_tables();
  void fill_leaf_table(double value, const std::vector<double>& z, double* out) const;
  void table_shap(std::uint32_t begin, std::uint32_t end, std::span<const double> x, std::span<double> phi) const;
  void build_groups();
  // One tree (index t of output k) by its group tables: returns the leaf
  // value x reaches and adds the contributions to phi.
  double group_shap(std::size_t k, std::size_t t, const double* x, double* phi) const;
  double weight(std::size_t p, std::size_t q) const { return coef_[p * (max_depth_ + 1) + q]; }

  std::size_t n_features_ = 0, n_trees_ = 0, max_depth_ = 0;
  bool nonfinite_is_missing_ = true;
  std::string raw_scale_;
  std::vector<std::string> output_names_;
  std::vector<Node> nodes_;
  std::vector<std::vector<std::uint32_t>> roots_, ends_;  // per output: each tree's [root, end) in nodes_
  std::vector<double> bias_, expected_;
  // Interventional: p! q! / (p + q + 1)! for p, q <= max_depth_.
  std::vector<double> coef_;
  std::vector<double> background_;
  std::size_t n_background_ = 0;
  std::vector<double> background_base_;
  // Tables (tree_shap_table.cpp). Per node: its split feature's position on
  // its path (internal), or its table's offset, first feature and u (leaf).
  // A leaf's table is 2^u rows (H) of u contributions (already times the
  // leaf value), its features in leaf_features_.
  bool tables_ = false;
  std::vector<std::uint8_t> position_, leaf_u_;
  std::vector<std::uint32_t> leaf_row_;
  std::vector<std::size_t> leaf_table_;
  std::vector<std::int32_t> leaf_features_;
  std::vector<double> table_;
  // Group tables (tree_shap_groups.cpp). A group is a subtree of height
  // <= 2 whose parent's subtree is higher (or the whole tree). Its key:
  // one bit per ancestor edge (x takes it), root first, then one bit per
  // internal node of the group (x goes right), in pre-order. Its table: per
  // key one row, one contribution per feature of the group's list (features
  // split above or in it), then the leaf value x reaches in the group (0
  // when x does not reach the group). Dense rows leave the value out (see
  // dense_stride_): x reaches the group iff its key is >= reach (every
  // ancestor bit set), and then the value is group_value_[value + key -
  // reach], one per setting of the group's direction bits.
  // A split copied out of nodes_, so one group's or top node's routing
  // reads one contiguous record.
  struct Split {
    double threshold;
    std::uint64_t mask;
    std::int32_t feature;
    bool categorical;
    bool right(const double* x) const noexcept;
  };
  struct TopNode {
    Split split;
    std::uint32_t self, left, right;
  };
  struct Group {
    Split inner[3];           // internal nodes, pre-order
    std::uint32_t root;
    std::uint16_t n_inner;
    std::uint16_t width;      // features in the row (sparse rows; dense rows hold all)
    std::uint32_t features;   // offset in group_features_
    std::uint32_t table;      // offset in doubles into group_table_
    std::uint32_t reach;      // dense: the first key at which x reaches the group
    std::uint32_t value;      // dense: offset in group_value_
  };
  static_assert(sizeof(Group) == 96, "one group's routing record: one and a half cache lines");
  // Dense rows (n_features_ <= kDenseMaxFeatures): a row holds every
  // feature in order, padded with zeros to dense_stride_ (a multiple of 4),
  // so adding it is a fixed-length vector add; each group's table starts
  // on a cache line, so with 5 to 8 features a row is one line. The leaf
  // value lives apart (group_value_): in the row it would make a 9-double
  // row span two lines, and it is read once per tree, not once per group.
  static constexpr std::size_t kDenseMaxFeatures = 16;
  bool groups_built_ = false, dense_ = false;
  bool categorical_ = false;  // any category split (else routing is x > threshold)
  std::size_t dense_stride_ = 0;  // dense: doubles per row (features, zeros to a multiple of 4)
  std::vector<std::vector<std::uint32_t>> top_begin_, group_begin_;  // per output: per tree, offsets (+1 sentinel)
  std::vector<TopNode> top_;  // per tree, the internal nodes above its groups, parents first
  std::vector<Group> groups_;
  std::vector<std::int32_t> group_features_;
  // The group tables, read as doubles; allocated in whole cache lines so
  // that they start on one (std::allocator honours the over-alignment).
  struct alignas(64) TableLine {
    double v[8];
  };
  std::vector<TableLine> group_table_;
  std::vector<double> group_value_;
  const double* group_data() const { return reinterpret_cast<const double*>(group_table_.data()); }
  // explain_one's sum over the trees with dense group tables: raw, phi
  // (zeroed by the caller) added to. Routes a few trees ahead of the adds,
  // prefetching the rows it will add (TreeShapDense, tree_shap_groups.cpp).
  friend struct TreeShapDense;
  double explain_dense(std::size_t k, const double* x, double* phi) const;
  // explain_batch over four rows at a time in AVX2 lanes
  // (tree_shap_batch_avx2.cpp): used for dense group tables without
  // category splits on a CPU with AVX2; false when it does not apply.
  friend struct TreeShapLanes;
  bool batch_lanes(const double* rows, std::size_t n_rows, std::size_t output, double* phi, double* raw) const;
  // Scratch.
  mutable std::vector<double> block_xt_;  // batch_lanes: one block of cleaned rows, feature-major
  mutable std::vector<std::uint64_t> lane_key_;  // batch_lanes: per node, four rows' keys
  mutable std::vector<PathElement> path_;
  mutable std::vector<double> clean_x_;
  mutable std::vector<double> block_x_;  // explain_batch: one block of cleaned rows
  mutable std::vector<std::uint32_t> hot_;  // table form: per node, the positions x follows; group form: keys
  mutable std::vector<const double*> group_rows_;  // explain_dense: per group, the row x reads
  mutable std::vector<std::uint8_t> origin_;   // interventional: per feature 0 / 1 = from x / 2 = from r
  mutable std::vector<std::int32_t> on_path_;  // interventional: features in the sets
};

}  // namespace irithyll
