// Human-readable views of one Hoeffding tree: an indented text outline and
// a Graphviz dot graph. Splits read "feature <= threshold" (the left branch;
// missing values go left too) or "feature in {a,b,c}" for a category-set
// split (missing values go right); leaves show their value and sample count.
// Feature names are optional: an empty list (or a short one) prints x<i>;
// category names likewise (a code without a name prints as its number).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tree/gradient_tree.hpp"

namespace irithyll {

std::string dump_tree_text(const GradientTree& tree, std::span<const std::string> feature_names = {},
                           std::span<const std::vector<std::string>> category_names = {});
std::string dump_tree_dot(const GradientTree& tree, std::span<const std::string> feature_names = {},
                          std::span<const std::vector<std::string>> category_names = {});

}  // namespace irithyll
