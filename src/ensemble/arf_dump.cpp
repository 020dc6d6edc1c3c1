// AdaptiveRandomForest's TreeModel face: the members' live trees.
#include "irithyll/ensemble/arf.hpp"

namespace irithyll {

std::size_t AdaptiveRandomForest::n_dump_trees() const { return members_.size(); }

std::string AdaptiveRandomForest::tree_label(std::size_t i) const { return "member " + std::to_string(i); }

const Vfdt& AdaptiveRandomForest::vfdt_tree(std::size_t i) const { return members_[i].tree; }

}  // namespace irithyll
