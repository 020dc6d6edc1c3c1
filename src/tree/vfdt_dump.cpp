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

std::string Vfdt::dump(TreeDumpFormat format, std::span<const std::string> feature_names) const {
  if (nodes_.empty()) return format == TreeDumpFormat::kDot ? "digraph tree {\n}\n" : "";
  const auto label = [&](const Node& n) {
    return dump::feature_name(static_cast<std::uint32_t>(n.feature), feature_names) + " <= " +
           dump::num(n.threshold);
  };
  const auto head = [&](const Node& n) { return std::span<const double>(leaves_[n.a].stats); };
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
      out += id + " [label=" + dump::quoted(label(n)) + "];\n";
      out += id + " -> n" + std::to_string(n.a) + " [label=\"yes\"];\n";
      out += id + " -> n" + std::to_string(n.b) + " [label=\"no\"];\n";
    }
    return out + "}\n";
  }
  // Depth-first, left branch first, with an explicit stack (a grown tree
  // can be deeper than is comfortable to recurse on).
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0u, 0u}};
  while (!stack.empty()) {
    const auto [i, depth] = stack.back();
    stack.pop_back();
    const Node& n = nodes_[i];
    out.append(2 * depth, ' ');
    if (n.feature < 0) {
      out += leaf_label(task_, head(n), n_classes_, " ") + "\n";
      continue;
    }
    out += label(n) + "\n";
    stack.emplace_back(n.b, depth + 1);
    stack.emplace_back(n.a, depth + 1);
  }
  return out;
}

void Vfdt::add_split_counts(std::span<std::uint64_t> counts) const {
  for (const Node& n : nodes_)
    if (n.feature >= 0 && static_cast<std::size_t>(n.feature) < counts.size()) ++counts[static_cast<std::size_t>(n.feature)];
}

}  // namespace irithyll
