// HoeffdingTreeLearner's TreeModel face: its one tree.
#include "irithyll/tree/hoeffding_tree_learner.hpp"

namespace irithyll {

std::size_t HoeffdingTreeLearner::n_dump_trees() const { return tree_.has_value() ? 1 : 0; }

std::string HoeffdingTreeLearner::tree_label(std::size_t) const { return "tree"; }

const Vfdt& HoeffdingTreeLearner::vfdt_tree(std::size_t) const { return *tree_; }

}  // namespace irithyll
