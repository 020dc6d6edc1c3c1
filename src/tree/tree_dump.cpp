#include "tree/tree_dump.hpp"

#include "tree/dump_format.hpp"

namespace irithyll {
namespace {

using dump::category_name;
using dump::feature_name;
using Categories = std::span<const std::vector<std::string>>;
using dump::num;
using dump::quoted;

// The left branch's condition: "x <= t", or "x in {a,b,c}" for a
// category-set split (the codes whose mask bit is set; the rest and missing
// values go right).
std::string condition(const GradientTree& t, std::uint32_t n, std::span<const std::string> names, Categories cats) {
  const auto& r = t.node(n);
  if (!t.is_categorical_split(n)) return feature_name(r.feature, names) + " <= " + num(r.threshold);
  std::string set;
  const std::uint64_t m = t.category_mask(n);
  for (std::size_t c = 0; c < 64; ++c)
    if ((m >> c) & 1u) set += (set.empty() ? "" : ",") + category_name(r.feature, c, cats);
  return feature_name(r.feature, names) + " in {" + set + "}";
}

void text_node(const GradientTree& t, std::uint32_t n, std::span<const std::string> names, Categories cats,
               std::string& out) {
  out.append(2 * static_cast<std::size_t>(t.node_depth(n)), ' ');
  if (t.is_leaf(n)) {
    out += "leaf " + num(t.node_value(n)) + " (n=" + std::to_string(t.node_count(n)) + ")\n";
    return;
  }
  const auto& r = t.node(n);
  out += condition(t, n, names, cats) + "\n";
  text_node(t, r.left, names, cats, out);
  text_node(t, r.left + 1, names, cats, out);
}

}  // namespace

std::string dump_tree_text(const GradientTree& tree, std::span<const std::string> feature_names,
                           Categories category_names) {
  std::string out;
  if (tree.n_nodes() > 0) text_node(tree, 0, feature_names, category_names, out);
  return out;
}

std::string dump_tree_dot(const GradientTree& tree, std::span<const std::string> feature_names,
                          Categories category_names) {
  std::string out = "digraph tree {\n  node [shape=box];\n";
  for (std::uint32_t n = 0; n < tree.n_nodes(); ++n) {
    const std::string id = "  n" + std::to_string(n);
    if (tree.is_leaf(n)) {
      out += id + " [shape=ellipse, label=" +
             quoted(num(tree.node_value(n)) + "\\nn=" + std::to_string(tree.node_count(n))) + "];\n";
      continue;
    }
    const auto& r = tree.node(n);
    out += id + " [label=" + quoted(condition(tree, n, feature_names, category_names)) + "];\n";
    out += id + " -> n" + std::to_string(r.left) + " [label=\"yes\"];\n";
    out += id + " -> n" + std::to_string(r.left + 1) + " [label=\"no\"];\n";
  }
  return out + "}\n";
}

}  // namespace irithyll
