// VfdtTreeModel: the TreeModel face of a learner made of Vfdt trees (the
// Hoeffding tree, ARF): the learner names its trees, this dumps them and
// counts their splits. Vfdt records no split gains, so importances are by
// split count only.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "irithyll/tree/vfdt.hpp"
#include "irithyll/tree_model.hpp"

namespace irithyll {

class VfdtTreeModel : public TreeModel {
 public:
  std::string dump_tree(std::size_t i, TreeDumpFormat format, std::span<const std::string> feature_names = {},
                        std::span<const std::vector<std::string>> category_names = {}) const final {
    return vfdt_tree(i).dump(format, feature_names, category_names);
  }
  std::vector<std::uint64_t> feature_split_counts() const final {
    std::vector<std::uint64_t> counts(vfdt_n_features(), 0);
    for (std::size_t i = 0; i < n_dump_trees(); ++i) vfdt_tree(i).add_split_counts(counts);
    return counts;
  }
  std::vector<double> feature_importances() const final { return {}; }

 protected:
  // REQUIRES: i < n_dump_trees().
  virtual const Vfdt& vfdt_tree(std::size_t i) const = 0;
  virtual std::size_t vfdt_n_features() const = 0;
};

}  // namespace irithyll
