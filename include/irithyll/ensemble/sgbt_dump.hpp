// Human-readable views of one boosting step of an SGBT committee: its active
// tree as an indented text outline or a Graphviz dot graph (the tree types
// themselves are internal). Splits read "feature <= threshold" (the left
// branch; missing values go left too) or "feature in {a,b}" for a category
// set; leaves show value and sample count. Feature and category names are
// optional: an empty or short list prints x<i>, a code its number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "irithyll/ensemble/sgbt.hpp"
#include "irithyll/tree_model.hpp"  // TreeDumpFormat

namespace irithyll {

// The active tree of step `step`; an empty string when step >= model.n_steps().
std::string dump_sgbt_tree(const SGBT& model, std::size_t step, TreeDumpFormat format,
                           std::span<const std::string> feature_names = {},
                           std::span<const std::vector<std::string>> category_names = {});

}  // namespace irithyll
