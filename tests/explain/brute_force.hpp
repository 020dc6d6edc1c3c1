// Brute-force Shapley values of a TreeEnsembleView by enumerating every
// feature subset (M <= ~12): the references the TreeSHAP tests compare
// against. Path-dependent: v(S) = E[f | x_S] where a split on a feature
// outside S averages both children by cover; interventional: v(S) = mean
// over background rows r of f(x_S, r_rest).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "irithyll/tree_model.hpp"
#include "tree/category_split.hpp"

namespace irithyll::test {

inline std::vector<double> sanitized(const TreeEnsembleView& e, std::span<const double> x) {
  std::vector<double> v(x.begin(), x.end());
  if (e.nonfinite_is_missing)
    for (double& a : v)
      if (!std::isfinite(a)) a = std::numeric_limits<double>::quiet_NaN();
  return v;
}

inline bool goes_right(const TreeNodeView& n, double v) {
  return n.categorical ? !category_goes_left(n.category_mask, v) : v > n.threshold;
}

inline double cond_expect(const TreeView& t, std::uint32_t i, const std::vector<double>& x, std::uint64_t s) {
  const TreeNodeView& n = t.nodes[i];
  if (n.feature < 0) return n.value;
  if ((s >> n.feature) & 1u) return cond_expect(t, goes_right(n, x[static_cast<std::size_t>(n.feature)]) ? n.right : n.left, x, s);
  const double cl = t.nodes[n.left].cover, cr = t.nodes[n.right].cover;
  const double fl = cl + cr > 0.0 ? cl / (cl + cr) : 0.5;
  return fl * cond_expect(t, n.left, x, s) + (1.0 - fl) * cond_expect(t, n.right, x, s);
}

inline double eval_tree(const TreeView& t, const std::vector<double>& x) {
  std::uint32_t i = 0;
  while (t.nodes[i].feature >= 0) i = goes_right(t.nodes[i], x[static_cast<std::size_t>(t.nodes[i].feature)]) ? t.nodes[i].right : t.nodes[i].left;
  return t.nodes[i].value;
}

// phi from the values of all 2^M subsets.
inline std::vector<double> shapley(const std::vector<double>& v, std::size_t m) {
  std::vector<double> fact(m + 1, 1.0);
  for (std::size_t i = 1; i <= m; ++i) fact[i] = fact[i - 1] * static_cast<double>(i);
  std::vector<double> phi(m, 0.0);
  for (std::uint64_t s = 0; s < (std::uint64_t{1} << m); ++s) {
    const auto size = static_cast<std::size_t>(__builtin_popcountll(s));
    for (std::size_t i = 0; i < m; ++i) {
      if ((s >> i) & 1u) continue;
      const double w = fact[size] * fact[m - size - 1] / fact[m];
      phi[i] += w * (v[s | (std::uint64_t{1} << i)] - v[s]);
    }
  }
  return phi;
}

inline std::vector<double> brute_path(const TreeEnsembleView& e, std::size_t output, std::span<const double> x_in) {
  const std::vector<double> x = sanitized(e, x_in);
  const std::size_t m = e.n_features;
  std::vector<double> v(std::size_t{1} << m, e.bias[output]);
  for (std::uint64_t s = 0; s < v.size(); ++s)
    for (const TreeView& t : e.trees)
      if (t.output == output) v[s] += t.scale * cond_expect(t, 0, x, s);
  return shapley(v, m);
}

inline std::vector<double> brute_interventional(const TreeEnsembleView& e, std::size_t output, std::span<const double> x_in,
                                                const std::vector<std::vector<double>>& background) {
  const std::vector<double> x = sanitized(e, x_in);
  const std::size_t m = e.n_features;
  std::vector<double> v(std::size_t{1} << m, 0.0);
  for (std::uint64_t s = 0; s < v.size(); ++s) {
    double sum = 0.0;
    for (const auto& r_in : background) {
      std::vector<double> h = sanitized(e, r_in);
      for (std::size_t f = 0; f < m; ++f)
        if ((s >> f) & 1u) h[f] = x[f];
      for (const TreeView& t : e.trees)
        if (t.output == output) sum += t.scale * eval_tree(t, h);
    }
    v[s] = sum / static_cast<double>(background.size());
  }
  return shapley(v, m);
}

}  // namespace irithyll::test
