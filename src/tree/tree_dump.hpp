// Human-readable views of one Hoeffding tree: an indented text outline and
// a Graphviz dot graph. Splits read "feature <= threshold" (the left branch;
// missing values go left too) or "feature in {a,b,c}" for a category-set
// split (missing values go right); leaves show their value and sample count.
// Feature names are optional: an empty list (or a short one) prints x<i>.
#pragma once

#include <span>
#include <string>

#include "tree/hoeffding_tree.hpp"

namespace irithyll {

std::string dump_tree_text(const HoeffdingTree& tree, std::span<const std::string> feature_names = {});
std::string dump_tree_dot(const HoeffdingTree& tree, std::span<const std::string> feature_names = {});

}  // namespace irithyll
