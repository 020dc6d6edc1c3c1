// TreeExplainer: construction, validation, prediction and base values.
// The two Shapley recursions live in tree_shap_path.cpp and
// tree_shap_interventional.cpp.
#include "irithyll/explain/tree_shap.hpp"

#include <cmath>
#include <limits>

#include "tree/category_split.hpp"

namespace irithyll {

Result<TreeExplainer> TreeExplainer::make(const Learner& learner) {
  auto view = trees_of(learner);
  if (!view) return view.status();
  return make(*view, std::string(learner.name()));
}

Result<TreeExplainer> TreeExplainer::make(const TreeEnsembleView& view, const std::string& model_name) {
  const std::string who = "explain: model '" + model_name + "'";
  if (view.n_features == 0) return Status::invalid_argument(who + " reads no features");
  if (view.bias.empty()) return Status::invalid_argument(who + " has no outputs");
  TreeExplainer e;
  e.n_features_ = view.n_features;
  e.nonfinite_is_missing_ = view.nonfinite_is_missing;
  e.raw_scale_ = view.raw_scale;
  e.output_names_ = view.output_names;
  e.output_names_.resize(view.bias.size());
  e.bias_ = view.bias;
  e.roots_.resize(view.bias.size());
  e.ends_.resize(view.bias.size());
  e.expected_ = view.bias;
  for (double b : view.bias)
    if (!std::isfinite(b)) return Status::invalid_argument(who + ": non-finite base value");
  std::vector<std::uint32_t> depth, parents;
  std::vector<double> expect;
  for (std::size_t t = 0; t < view.trees.size(); ++t) {
    const TreeView& tree = view.trees[t];
    const std::string where = who + ", tree " + std::to_string(t);
    if (tree.output >= view.bias.size()) return Status::invalid_argument(where + ": output out of range");
    if (!std::isfinite(tree.scale)) return Status::invalid_argument(where + ": non-finite scale");
    const std::size_t n = tree.nodes.size();
    if (n == 0) return Status::invalid_argument(where + ": no nodes");
    if (e.nodes_.size() + n > std::numeric_limits<std::uint32_t>::max() / 2)
      return Status::invalid_argument(who + ": too many nodes");
    const auto base = static_cast<std::uint32_t>(e.nodes_.size());
    depth.assign(n, 0);
    parents.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const TreeNodeView& v = tree.nodes[i];
      if (i > 0 && parents[i] != 1) return Status::invalid_argument(where + ": node " + std::to_string(i) + " has " + std::to_string(parents[i]) + " parents (need 1)");
      if (!std::isfinite(v.cover) || v.cover < 0.0) return Status::invalid_argument(where + ": bad cover at node " + std::to_string(i));
      Node node{};
      node.feature = v.feature;
      if (v.feature < 0) {
        if (!std::isfinite(v.value)) return Status::invalid_argument(where + ": non-finite leaf value at node " + std::to_string(i));
        node.value = tree.scale * v.value;
      } else {
        if (static_cast<std::size_t>(v.feature) >= view.n_features)
          return Status::invalid_argument(where + ": node " + std::to_string(i) + " splits on feature " + std::to_string(v.feature) + " of " + std::to_string(view.n_features));
        if (v.left <= i || v.right <= i || v.left >= n || v.right >= n || v.left == v.right)
          return Status::invalid_argument(where + ": node " + std::to_string(i) + " has children out of order or range");
        if (depth[i] + 1 > kMaxDepth) return Status::invalid_argument(where + ": deeper than " + std::to_string(kMaxDepth));
        if (std::isnan(v.threshold)) return Status::invalid_argument(where + ": NaN threshold at node " + std::to_string(i));
        ++parents[v.left];
        ++parents[v.right];
        depth[v.left] = depth[v.right] = depth[i] + 1;
        node.threshold = v.threshold;
        node.mask = v.category_mask;
        node.categorical = v.categorical;
        node.left = base + v.left;
        node.right = base + v.right;
        const double cl = tree.nodes[v.left].cover, cr = tree.nodes[v.right].cover;
        if (!std::isfinite(cl) || !std::isfinite(cr) || cl < 0.0 || cr < 0.0)
          return Status::invalid_argument(where + ": bad cover below node " + std::to_string(i));
        const double sum = cl + cr;
        node.frac_left = sum > 0.0 ? cl / sum : 0.5;
        node.frac_right = sum > 0.0 ? cr / sum : 0.5;
      }
      e.max_depth_ = std::max<std::size_t>(e.max_depth_, depth[i]);
      e.nodes_.push_back(node);
    }
    // Expected value under the covers: children come after their parent,
    // so a backward pass finishes both children before the parent.
    expect.assign(n, 0.0);
    for (std::size_t i = n; i-- > 0;) {
      const Node& node = e.nodes_[base + i];
      expect[i] = node.feature < 0 ? node.value
                                   : node.frac_left * expect[node.left - base] + node.frac_right * expect[node.right - base];
    }
    e.expected_[tree.output] += expect[0];
    e.roots_[tree.output].push_back(base);
    e.ends_[tree.output].push_back(base + static_cast<std::uint32_t>(n));
    ++e.n_trees_;
  }
  const std::size_t d = e.max_depth_ + 2;
  e.path_.resize(d * (d + 1) / 2 + d);
  e.clean_x_.resize(e.n_features_);
  e.hot_.assign(e.nodes_.size(), 0);
  e.origin_.assign(e.n_features_, 0);
  e.on_path_.reserve(e.max_depth_ + 1);
  // p! q! / (p + q + 1)!, built from c(0, 0) = 1 by c(p, q+1) = c(p, q) (q+1) / (p+q+2)
  // and c(p+1, q) = c(p, q) (p+1) / (p+q+2), all terms <= 1.
  const std::size_t m = e.max_depth_ + 1;
  e.coef_.assign(m * m, 0.0);
  for (std::size_t p = 0; p < m; ++p)
    for (std::size_t q = 0; q < m; ++q) {
      double c = 1.0;
      if (p > 0)
        c = e.coef_[(p - 1) * m + q] * static_cast<double>(p) / static_cast<double>(p + q + 1);
      else if (q > 0)
        c = e.coef_[q - 1] * static_cast<double>(q) / static_cast<double>(q + 1);
      e.coef_[p * m + q] = c;
    }
  // Group tables when they fit, else per-leaf tables, else Algorithm 2.
  e.build_groups();
  if (!e.groups_built_) e.build_tables();
  return e;
}

Status TreeExplainer::check_args(std::span<const double> x, std::size_t output, std::span<double> phi) const {
  if (x.size() != n_features_)
    return Status::invalid_argument("explain: row has " + std::to_string(x.size()) + " values, the model reads " + std::to_string(n_features_));
  if (output >= bias_.size())
    return Status::invalid_argument("explain: output " + std::to_string(output) + " of " + std::to_string(bias_.size()));
  if (phi.size() != n_features_) return Status::invalid_argument("explain: phi must hold one value per feature");
  return Status::ok();
}

std::span<const double> TreeExplainer::clean(std::span<const double> x) const {
  if (!nonfinite_is_missing_) return x;
  for (std::size_t f = 0; f < n_features_; ++f)
    clean_x_[f] = std::isfinite(x[f]) ? x[f] : std::numeric_limits<double>::quiet_NaN();
  return clean_x_;
}

std::uint32_t TreeExplainer::leaf_of(std::uint32_t n, std::span<const double> x) const noexcept {
  while (nodes_[n].feature >= 0) {
    const Node& node = nodes_[n];
    const double v = x[static_cast<std::size_t>(node.feature)];
    const bool right = node.categorical ? !category_goes_left(node.mask, v) : v > node.threshold;
    n = right ? node.right : node.left;
  }
  return n;
}

Result<double> TreeExplainer::predict_raw(std::span<const double> x, std::size_t output) const {
  if (x.size() != n_features_ || output >= bias_.size())
    return Status::invalid_argument("explain: row width or output out of range");
  const std::span<const double> xs = clean(x);
  double raw = bias_[output];
  for (std::uint32_t root : roots_[output]) raw += nodes_[leaf_of(root, xs)].value;
  return raw;
}

Status TreeExplainer::set_background(std::span<const double> rows, std::size_t n_rows) {
  if (n_rows == 0) return Status::invalid_argument("explain: the background has no rows");
  if (rows.size() != n_rows * n_features_)
    return Status::invalid_argument("explain: background rows must have " + std::to_string(n_features_) + " values each");
  background_.assign(rows.begin(), rows.end());
  if (nonfinite_is_missing_)
    for (double& v : background_)
      if (!std::isfinite(v)) v = std::numeric_limits<double>::quiet_NaN();
  n_background_ = n_rows;
  background_base_.assign(bias_.size(), 0.0);
  for (std::size_t k = 0; k < bias_.size(); ++k) {
    double sum = 0.0;
    for (std::size_t r = 0; r < n_rows; ++r) {
      const std::span<const double> row(background_.data() + r * n_features_, n_features_);
      for (std::uint32_t root : roots_[k]) sum += nodes_[leaf_of(root, row)].value;
    }
    background_base_[k] = bias_[k] + sum / static_cast<double>(n_rows);
  }
  return Status::ok();
}

}  // namespace irithyll
