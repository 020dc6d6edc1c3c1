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
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace irithyll {

enum class TreeDumpFormat : std::uint8_t { kText, kDot };

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
};

}  // namespace irithyll
