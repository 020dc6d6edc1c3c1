// HoeffdingTreeLearner's TreeModel face: its one tree.
#include "irithyll/tree/hoeffding_tree_learner.hpp"

namespace irithyll {

std::size_t HoeffdingTreeLearner::n_dump_trees() const { return tree_.has_value() ? 1 : 0; }

std::string HoeffdingTreeLearner::tree_label(std::size_t) const { return "tree"; }

std::string HoeffdingTreeLearner::dump_tree(std::size_t, TreeDumpFormat format,
                                            std::span<const std::string> feature_names) const {
  return tree_->dump(format, feature_names);
}

std::vector<std::uint64_t> HoeffdingTreeLearner::feature_split_counts() const {
  std::vector<std::uint64_t> counts(n_features_, 0);
  if (tree_.has_value()) tree_->add_split_counts(counts);
  return counts;
}

}  // namespace irithyll
