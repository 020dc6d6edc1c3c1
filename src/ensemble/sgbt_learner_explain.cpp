// SGBTLearner's trees for explanation (TreeModel::tree_ensemble): committee c
// is raw output c, each active tree weighted by the learning rate, the
// committee's base as bias. Raw is the margin (logistic / softmax scores) or
// the regression estimate before the loss transform.
#include <string>

#include "ensemble/tree_slot.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {

namespace {

// Covers: a leaf's sample count; an internal node's the sum of its
// children's (the tree keeps an internal node's count only up to its split).
// Children sit after their parent (right = left + 1), so one backward pass
// fills every internal node from its finished children.
TreeView tree_view(const GradientTree& tree) {
  TreeView view;
  const auto n = static_cast<std::uint32_t>(tree.n_nodes());
  view.nodes.resize(n);
  for (std::uint32_t i = n; i-- > 0;) {
    TreeNodeView& v = view.nodes[i];
    if (tree.is_leaf(i)) {
      v.value = tree.leaf_value(i);
      v.cover = static_cast<double>(tree.node_count(i));
      continue;
    }
    const GradientTree::RouteNode& r = tree.node(i);
    v.feature = static_cast<std::int32_t>(r.feature);
    v.left = r.left;
    v.right = r.left + 1;
    v.threshold = r.threshold;
    if (tree.is_categorical_split(i)) {
      v.categorical = true;
      v.category_mask = tree.category_mask(i);
    }
    v.cover = view.nodes[v.left].cover + view.nodes[v.right].cover;
  }
  return view;
}

}  // namespace

Result<TreeEnsembleView> SGBTLearner::tree_ensemble() const {
  if (config_.has_routing_options())
    return Status::not_supported("sgbt: soft routing / handoff blends trees smoothly in x; TreeSHAP needs hard splits");
  if (config_.tree.leaf_model != TreeLeafModel::kConstant)
    return Status::not_supported("sgbt: linear leaves predict w.x + b; TreeSHAP needs constant leaves");
  TreeEnsembleView e;
  e.n_features = n_features_;
  e.raw_scale = task_ == Task::kClassification ? "margin" : "value";
  e.nonfinite_is_missing = true;
  for (std::size_t c = 0; c < committees_.size(); ++c) {
    const SGBT& m = committees_[c];
    m.sync();
    e.bias.push_back(m.base_prediction());
    e.output_names.push_back(committees_.size() > 1 ? "class " + std::to_string(c) : std::string());
    for (std::size_t s = 0; s < m.n_steps(); ++s) {
      TreeView t = tree_view(m.slot(s).active());
      t.output = c;
      t.scale = m.config().learning_rate;
      e.trees.push_back(std::move(t));
    }
  }
  return e;
}

}  // namespace irithyll
