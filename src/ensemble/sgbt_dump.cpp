#include "irithyll/ensemble/sgbt_dump.hpp"

#include "ensemble/tree_slot.hpp"
#include "tree/tree_dump.hpp"

namespace irithyll {

std::string dump_sgbt_tree(const SGBT& model, std::size_t step, TreeDumpFormat format,
                           std::span<const std::string> feature_names, std::span<const std::vector<std::string>> category_names) {
  if (step >= model.n_steps()) return {};
  const GradientTree& tree = model.slot(step).active();
  return format == TreeDumpFormat::kDot ? dump_tree_dot(tree, feature_names, category_names)
                                        : dump_tree_text(tree, feature_names, category_names);
}

}  // namespace irithyll
