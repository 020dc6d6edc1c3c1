// TreeModel: what a tree learner shows of itself, beside its Learner
// interface: its trees as text or Graphviz dot, and which features its splits
// use. The CLI (`eval` importances, `inspect --tree`) and the bindings reach
// it by dynamic_cast from a Learner, so a new tree learner needs nothing
// more than these overrides to be dumpable and ranked.
//
// Trees are numbered 0..n_dump_trees()-1 in an order each learner documents
// (SGBT: class-major, then boosting step; forests: member order). Feature
// names are optional: a missing or empty name prints as x<i>. So are
// category names (per feature, its values in code order, as
// Schema::category_values holds them): a split on a category prints the
// value's name, or its code when there is none.
//
// tree_ensemble() exposes the trees as plain node arrays for explanation
// (src/explain, TreeSHAP): routing exactly as prediction, a cover per node
// (the training weight that reached it) and a constant value per leaf.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll {

enum class TreeDumpFormat : std::uint8_t { kText, kDot };

// One node of a binary tree. Routing at an internal node (feature >= 0):
//   numeric:     x > threshold goes right; otherwise, and for NaN, left;
//   categorical: left iff x is an integer code c in [0, 64) whose bit c is
//                set in category_mask; missing and other values go right.
// Children always have larger indices than their parent (node 0 is the
// root), so a node array is acyclic by construction and checkable.
struct TreeNodeView {
  double threshold = 0.0;
  std::uint64_t category_mask = 0;
  // Training weight (sample count for unit weights) that reached the node.
  // Learners keep it at leaves; an internal node's cover is the sum of its
  // children's (samples that reached it before it split are not counted).
  double cover = 0.0;
  double value = 0.0;        // leaf: the tree's output there
  std::int32_t feature = -1;  // < 0: leaf
  std::uint32_t left = 0, right = 0;
  bool categorical = false;
};

struct TreeView {
  std::vector<TreeNodeView> nodes;
  std::size_t output = 0;  // which raw output the tree adds to
  double scale = 1.0;      // its weight in that output (learning rate, vote weight)
};

// raw[k] = bias[k] + sum over trees t of output k: scale_t * tree_t(x).
struct TreeEnsembleView {
  std::size_t n_features = 0;
  std::vector<double> bias;  // one per output
  std::vector<std::string> output_names;  // e.g. "class 2" (empty names allowed)
  std::string raw_scale;  // what raw is: "margin", "value", "probability"
  // Whether a non-finite feature value is missing (NaN) before routing, as
  // the learner's predict does; otherwise +-inf compare as numbers.
  bool nonfinite_is_missing = true;
  std::vector<TreeView> trees;
};

class TreeModel {
 public:
  virtual ~TreeModel() = default;

  virtual std::size_t n_dump_trees() const = 0;
  // A short label of tree i for headings ("class 1, step 4"). REQUIRES: i < n_dump_trees().
  virtual std::string tree_label(std::size_t i) const = 0;
  // REQUIRES: i < n_dump_trees().
  virtual std::string dump_tree(std::size_t i, TreeDumpFormat format, std::span<const std::string> feature_names = {},
                                std::span<const std::vector<std::string>> category_names = {}) const = 0;

  // Per feature, the number of internal nodes of the live trees splitting on it.
  virtual std::vector<std::uint64_t> feature_split_counts() const = 0;
  // Per feature, its share of the split gain (sums to 1 once any tree has
  // split); empty when the learner does not record split gains.
  virtual std::vector<double> feature_importances() const = 0;

  // Every tree and how they add up to the raw outputs. NotSupported, naming
  // the learner and the reason, when a leaf's output depends on x (linear
  // leaves) or routing is not a hard split (soft routing). A tree model that
  // does not (yet) expose its nodes keeps this default.
  virtual Result<TreeEnsembleView> tree_ensemble() const {
    return Status::not_supported("this tree model does not expose its trees for explanation");
  }
};

}  // namespace irithyll
