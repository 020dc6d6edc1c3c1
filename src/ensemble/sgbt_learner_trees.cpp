// SGBTLearner's TreeModel face: its active trees by number, as text or dot.
#include <string>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/ensemble/sgbt_dump.hpp"

namespace irithyll {

std::size_t SGBTLearner::n_dump_trees() const {
  std::size_t n = 0;
  for (const SGBT& c : committees_) n += c.n_steps();
  return n;
}

std::string SGBTLearner::tree_label(std::size_t i) const {
  const std::size_t steps = committees_.empty() ? 1 : committees_[0].n_steps();
  const std::string step = "step " + std::to_string(i % steps);
  if (committees_.size() <= 1) return step;
  return "class " + std::to_string(i / steps) + ", " + step;
}

std::string SGBTLearner::dump_tree(std::size_t i, TreeDumpFormat format, std::span<const std::string> feature_names,
                                   std::span<const std::vector<std::string>> category_names) const {
  const std::size_t steps = committees_[0].n_steps();
  return dump_sgbt_tree(committees_[i / steps], i % steps, format, feature_names, category_names);
}

}  // namespace irithyll
