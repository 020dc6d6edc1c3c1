// Path-dependent TreeSHAP (Lundberg et al. 2020, Algorithm 2). The path
// holds one element per distinct feature split on above the current node:
// the fraction of the cover that flows this way when the feature is absent
// (zero_fraction), whether x flows this way (one_fraction), and the
// permutation weights of all subset sizes (EXTEND / UNWIND of the paper).
// Each recursion level copies its parent's path into the next slot of the
// scratch (levels are triangular: level d holds d + 1 elements).
#include <algorithm>

#include "irithyll/explain/tree_shap.hpp"
#include "tree/category_split.hpp"

namespace irithyll {

namespace {


template <class P>
void extend(P* path, std::size_t d, double zero_fraction, double one_fraction, std::int32_t feature) {
  path[d].feature = feature;
  path[d].zero_fraction = zero_fraction;
  path[d].one_fraction = one_fraction;
  path[d].weight = d == 0 ? 1.0 : 0.0;
  const double inv = 1.0 / static_cast<double>(d + 1);
  for (std::size_t i = d; i-- > 0;) {
    path[i + 1].weight += one_fraction * path[i].weight * static_cast<double>(i + 1) * inv;
    path[i].weight = zero_fraction * path[i].weight * static_cast<double>(d - i) * inv;
  }
}

// Removes element `at` of a path of d + 1 elements (undoing its extend).
template <class P>
void unwind(P* path, std::size_t d, std::size_t at) {
  const double one = path[at].one_fraction, zero = path[at].zero_fraction;
  double next = path[d].weight;
  for (std::size_t i = d; i-- > 0;) {
    if (one != 0.0) {
      const double tmp = path[i].weight;
      path[i].weight = next * static_cast<double>(d + 1) / (static_cast<double>(i + 1) * one);
      next = tmp - path[i].weight * zero * static_cast<double>(d - i) / static_cast<double>(d + 1);
    } else {
      path[i].weight = path[i].weight * static_cast<double>(d + 1) / (zero * static_cast<double>(d - i));
    }
  }
  for (std::size_t i = at; i < d; ++i) {
    path[i].feature = path[i + 1].feature;
    path[i].zero_fraction = path[i + 1].zero_fraction;
    path[i].one_fraction = path[i + 1].one_fraction;
  }
}

// The total permutation weight of the path with element `at` unwound,
// without modifying it.
template <class P>
double unwound_sum(const P* path, std::size_t d, std::size_t at) {
  const double one = path[at].one_fraction, zero = path[at].zero_fraction;
  double next = path[d].weight, total = 0.0;
  for (std::size_t i = d; i-- > 0;) {
    if (one != 0.0) {
      const double tmp = next * static_cast<double>(d + 1) / (static_cast<double>(i + 1) * one);
      total += tmp;
      next = path[i].weight - tmp * zero * static_cast<double>(d - i) / static_cast<double>(d + 1);
    } else {
      total += path[i].weight * static_cast<double>(d + 1) / (zero * static_cast<double>(d - i));
    }
  }
  return total;
}

}  // namespace

void TreeExplainer::tree_shap(std::uint32_t n, std::span<const double> x, std::span<double> phi, PathElement* parent,
                              std::size_t d, double zero_fraction, double one_fraction, std::int32_t feature) const {
  // This level's path: the parent's d elements, then the new one.
  PathElement* path = parent + d;
  std::copy(parent, parent + d, path);
  extend(path, d, zero_fraction, one_fraction, feature);
  const Node& node = nodes_[n];
  if (node.feature < 0) {
    for (std::size_t i = 1; i <= d; ++i) {
      const double w = unwound_sum(path, d, i);
      const PathElement& el = path[i];
      phi[static_cast<std::size_t>(el.feature)] += w * (el.one_fraction - el.zero_fraction) * node.value;
    }
    return;
  }
  const double v = x[static_cast<std::size_t>(node.feature)];
  const bool right = node.categorical ? !category_goes_left(node.mask, v) : v > node.threshold;
  const std::uint32_t hot = right ? node.right : node.left, cold = right ? node.left : node.right;
  const double hot_zero = right ? node.frac_right : node.frac_left, cold_zero = right ? node.frac_left : node.frac_right;
  // A feature already on the path: undo its element and fold its fractions
  // into this split's (the paper's "incoming" fractions).
  double in_zero = 1.0, in_one = 1.0;
  std::size_t k = 1;
  while (k <= d && path[k].feature != node.feature) ++k;
  if (k <= d) {
    in_zero = path[k].zero_fraction;
    in_one = path[k].one_fraction;
    unwind(path, d, k);
    --d;
  }
  // A branch whose fractions are both 0 carries no weight (and would
  // divide by zero in unwind): skip it.
  if (hot_zero * in_zero != 0.0 || in_one != 0.0)
    tree_shap(hot, x, phi, path, d + 1, hot_zero * in_zero, in_one, node.feature);
  if (cold_zero * in_zero != 0.0) tree_shap(cold, x, phi, path, d + 1, cold_zero * in_zero, 0.0, node.feature);
}

Result<double> TreeExplainer::explain_one(std::span<const double> x, std::size_t output, std::span<double> phi) const {
  if (!tables_ && !groups_built_) return explain_one_ref(x, output, phi);
  if (Status s = check_args(x, output, phi); !s) return s;
  const std::span<const double> xs = clean(x);
  std::fill(phi.begin(), phi.end(), 0.0);
  double raw = bias_[output];
  if (groups_built_ && dense_) return explain_dense(output, xs.data(), phi.data());
  if (groups_built_) {
    for (std::size_t t = 0; t < roots_[output].size(); ++t) raw += group_shap(output, t, xs.data(), phi.data());
    return raw;
  }
  const std::vector<std::uint32_t>& roots = roots_[output];
  for (std::size_t t = 0; t < roots.size(); ++t) {
    raw += nodes_[leaf_of(roots[t], xs)].value;
    table_shap(roots[t], ends_[output][t], xs, phi);
  }
  return raw;
}

Result<double> TreeExplainer::explain_one_ref(std::span<const double> x, std::size_t output, std::span<double> phi) const {
  if (Status s = check_args(x, output, phi); !s) return s;
  const std::span<const double> xs = clean(x);
  std::fill(phi.begin(), phi.end(), 0.0);
  double raw = bias_[output];
  for (std::uint32_t root : roots_[output]) {
    raw += nodes_[leaf_of(root, xs)].value;
    if (nodes_[root].feature < 0) continue;  // a lone leaf adds only to the base
    tree_shap(root, xs, phi, path_.data(), 0, 1.0, 1.0, -1);
  }
  return raw;
}

}  // namespace irithyll
