// Vfdt as text or Graphviz dot, and its split counts per feature.
#include <algorithm>
#include <string>

#include "irithyll/tree/vfdt.hpp"
#include "tree/dump_format.hpp"

namespace irithyll {

namespace {

// One leaf's label: the class weights and the majority class (classification)
// or the mean target and weight (regression).
std::string leaf_label(Task task, std::span<const double> head, std::size_t n_classes, const char* sep) {
  if (task == Task::kRegression)
    return "leaf " + dump::num(head[1]) + sep + "(w=" + dump::num(head[0]) + ")";
  std::size_t best = 0;
  std::string weights;
  for (std::size_t c = 0; c < n_classes; ++c) {
    if (head[c] > head[best]) best = c;
    weights += (c > 0 ? "," : "") + dump::num(head[c]);
  }
  return "leaf class " + std::to_string(best) + sep + "(weights " + weights + ")";
}

}  // namespace

// Routing nodes read "f <= t" (yes: a, no: b), "f == v" (a, else b), or for
// a multiway split on a nominal feature one branch per value, a + c for code
// c, where b is the branch that takes missing and unseen values.
std::string Vfdt::dump(TreeDumpFormat format, std::span<const std::string> feature_names,
                       std::span<const std::vector<std::string>> category_names) const {
  if (nodes_.empty()) return format == TreeDumpFormat::kDot ? "digraph tree {\n}\n" : "";
  const auto feature = [&](const Node& n) {
    return dump::feature_name(static_cast<std::uint32_t>(n.feature), feature_names);
  };
  const auto value = [&](const Node& n, std::size_t code) {
    return dump::category_name(static_cast<std::uint32_t>(n.feature), code, category_names);
  };
  const auto label = [&](const Node& n) {
    if (n.kind == kEqual) return feature(n) + " == " + value(n, static_cast<std::size_t>(n.threshold));
    if (n.kind == kMultiway) return feature(n) + " (missing or unseen: " + value(n, n.b - n.a) + ")";
    return feature(n) + " <= " + dump::num(n.threshold);
  };
  const auto head = [&](const Node& n) { return std::span<const double>(leaves_[n.a].stats); };
  const auto branches = [](const Node& n) { return static_cast<std::uint32_t>(n.threshold); };
  std::string out;
  if (format == TreeDumpFormat::kDot) {
    out = "digraph tree {\n  node [shape=box];\n";
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const Node& n = nodes_[i];
      const std::string id = "  n" + std::to_string(i);
      if (n.feature < 0) {
        out += id + " [shape=ellipse, label=" + dump::quoted(leaf_label(task_, head(n), n_classes_, "\\n")) + "];\n";
        continue;
      }
      out += id + " [label=" + dump::quoted(n.kind == kMultiway ? feature(n) : label(n)) + "];\n";
      if (n.kind != kMultiway) {
        out += id + " -> n" + std::to_string(n.a) + " [label=\"yes\"];\n";
        out += id + " -> n" + std::to_string(n.b) + " [label=\"no\"];\n";
        continue;
      }
      for (std::uint32_t c = 0; c < branches(n); ++c)
        out += id + " -> n" + std::to_string(n.a + c) + " [label=" +
               dump::quoted(value(n, c) + (n.a + c == n.b ? " (and missing)" : "")) + "];\n";
    }
    return out + "}\n";
  }
  // Depth-first, first branch first, with an explicit stack (a grown tree
  // can be deeper than is comfortable to recurse on). An entry is a node, or
  // the "= value" heading of a multiway branch (node < 0 marks it).
  struct Item {
    std::int64_t node;
    std::size_t depth;
    std::string heading;
  };
  std::vector<Item> stack{{0, 0, {}}};
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    out.append(2 * it.depth, ' ');
    if (it.node < 0) {
      out += it.heading + "\n";
      continue;
    }
    const Node& n = nodes_[static_cast<std::size_t>(it.node)];
    if (n.feature < 0) {
      out += leaf_label(task_, head(n), n_classes_, " ") + "\n";
      continue;
    }
    out += label(n) + "\n";
    if (n.kind != kMultiway) {
      stack.push_back({n.b, it.depth + 1, {}});
      stack.push_back({n.a, it.depth + 1, {}});
      continue;
    }
    for (std::uint32_t c = branches(n); c-- > 0;) {
      stack.push_back({n.a + c, it.depth + 2, {}});
      stack.push_back({-1, it.depth + 1, "= " + value(n, c)});
    }
  }
  return out;
}

void Vfdt::add_split_counts(std::span<std::uint64_t> counts) const {
  for (const Node& n : nodes_)
    if (n.feature >= 0 && static_cast<std::size_t>(n.feature) < counts.size()) ++counts[static_cast<std::size_t>(n.feature)];
}

}  // namespace irithyll
