// Vfdt's trees for explanation: the node array re-emitted in pre-order as
// binary TreeNodeViews (TreeModel::tree_ensemble).
#include <cmath>

#include "tree/category_split.hpp"
#include "irithyll/tree/vfdt.hpp"

namespace irithyll {

namespace {
// A one-code category mask, or 0 (nothing goes left) for a value that is no code.
std::uint64_t code_mask(double v) {
  const int c = category_code(v);
  return c < 0 ? 0 : std::uint64_t{1} << c;
}
}  // namespace

Status Vfdt::append_tree_views(std::vector<TreeView>& out, double scale, std::span<const std::uint32_t> features) const {
  if (task_ == Task::kRegression && linear_)
    return Status::not_supported("hoeffding tree: linear leaves predict w.x + b; TreeSHAP needs constant leaves (leaf-model mean)");
  if (!features.empty() && features.size() != n_features_)
    return Status::invalid_argument("hoeffding tree: the feature map has " + std::to_string(features.size()) + " entries for " + std::to_string(n_features_) + " features");
  const std::size_t n_views = task_ == Task::kClassification ? n_classes_ : 1;
  for (std::size_t cls = 0; cls < n_views; ++cls) {
    TreeView view;
    view.output = cls;
    view.scale = scale;
    std::vector<TreeNodeView>& nodes = view.nodes;
    // Emits node n (pre-order: a parent before its children) and returns its
    // index. Multiway node: chain position k tests "code == k" and sends the
    // rest on to position k + 1; past the last branch, the default child.
    // A multiway branch is a + k for code k < threshold (the branch count).
    auto emit = [&](auto& self, std::uint32_t n, std::uint32_t chain) -> std::uint32_t {
      const Node& node = nodes_[n];
      const auto at = static_cast<std::uint32_t>(nodes.size());
      nodes.emplace_back();
      if (node.feature < 0) {
        const Leaf& leaf = leaves_[node.a];
        const double w = leaf_weight(leaf);
        double value = 0.0;
        if (task_ == Task::kRegression)
          value = leaf.stats[1];
        else
          value = w > 0.0 ? leaf.stats[cls] / w : 1.0 / static_cast<double>(n_classes_);
        nodes[at].value = value;
        nodes[at].cover = w;
        return at;
      }
      TreeNodeView v;
      v.feature = features.empty() ? node.feature : static_cast<std::int32_t>(features[static_cast<std::size_t>(node.feature)]);
      std::uint32_t left = 0, right = 0;
      if (node.kind == kThreshold) {
        v.threshold = node.threshold;
        left = self(self, node.a, 0);
        right = self(self, node.b, 0);
      } else if (node.kind == kEqual) {
        v.categorical = true;
        v.category_mask = code_mask(node.threshold);
        left = self(self, node.a, 0);
        right = self(self, node.b, 0);
      } else {
        v.categorical = true;
        v.category_mask = std::uint64_t{1} << chain;
        left = self(self, node.a + chain, 0);
        const bool last = static_cast<double>(chain + 1) >= node.threshold || chain + 1 >= 64;
        right = last ? self(self, node.b, 0) : self(self, n, chain + 1);
      }
      v.left = left;
      v.right = right;
      v.cover = nodes[left].cover + nodes[right].cover;
      nodes[at] = v;
      return at;
    };
    emit(emit, 0, 0);
    out.push_back(std::move(view));
  }
  return Status::ok();
}

}  // namespace irithyll
