// AdaptiveRandomForest's TreeModel face: the members' live trees.
#include "irithyll/ensemble/arf.hpp"

namespace irithyll {

std::size_t AdaptiveRandomForest::n_dump_trees() const { return members_.size(); }

std::string AdaptiveRandomForest::tree_label(std::size_t i) const { return "member " + std::to_string(i); }

std::string AdaptiveRandomForest::dump_tree(std::size_t i, TreeDumpFormat format,
                                            std::span<const std::string> feature_names) const {
  return members_[i].tree.dump(format, feature_names);
}

std::vector<std::uint64_t> AdaptiveRandomForest::feature_split_counts() const {
  std::vector<std::uint64_t> counts(n_features_, 0);
  for (const Member& m : members_) m.tree.add_split_counts(counts);
  return counts;
}

}  // namespace irithyll
