// The table form of path-dependent TreeSHAP (Yang 2021, "Fast TreeSHAP",
// algorithm v2), exact like Algorithm 2 and tested against it.
//
// For one leaf with value v, let U be the distinct features split on along
// its path (u of them), z_j the product of the cover fractions of the
// branches the path takes at splits on j, and H the features whose every
// split on the path x follows. The leaf's share of the value of a subset S
// is v * prod_{j in S} [j in H] * prod_{j in U \ S} z_j, so its Shapley value
// for feature i in U depends on x only through H:
//   phi_i = v (o_i - z_i) prod_{j in U\H\i} z_j sum_{k} w(k) e_{|A|-k}(z_A),
// with o_i = [i in H], A = H \ {i}, w(k) = k! (u-1-k)! / u! and e_m the
// elementary symmetric polynomial of degree m. make() tabulates phi for all
// 2^u subsets H of every leaf; explaining a row is then one pass over each
// tree carrying H as a bit mask (positions = order of first appearance on
// the path, the same for every leaf below a node) and one table row per leaf.
#include <algorithm>

#include "irithyll/explain/tree_shap.hpp"
#include "tree/category_split.hpp"

namespace irithyll {

void TreeExplainer::build_tables() {
  tables_ = false;
  std::size_t entries = 0;
  leaf_row_.assign(nodes_.size(), 0);
  leaf_table_.assign(nodes_.size(), 0);
  leaf_u_.assign(nodes_.size(), 0);
  position_.assign(nodes_.size(), 0);
  leaf_features_.clear();
  table_.clear();
  // Pass 1: positions and table sizes, walking every tree from its root.
  std::vector<std::int32_t> path_features;  // by position, along the current path
  std::vector<double> path_zero;
  bool ok = true;
  auto walk = [&](auto& self, std::uint32_t n) -> void {
    if (!ok) return;
    const Node& node = nodes_[n];
    if (node.feature < 0) {
      const std::size_t u = path_features.size();
      if (u > kTableMaxUnique || entries + (std::size_t{1} << u) * u > kTableMaxEntries) {
        ok = false;
        return;
      }
      leaf_u_[n] = static_cast<std::uint8_t>(u);
      leaf_row_[n] = static_cast<std::uint32_t>(leaf_features_.size());
      leaf_features_.insert(leaf_features_.end(), path_features.begin(), path_features.end());
      const std::size_t offset = table_.size();
      table_.resize(offset + (std::size_t{1} << u) * u, 0.0);
      entries += (std::size_t{1} << u) * u;
      leaf_table_[n] = offset;
      fill_leaf_table(node.value, path_zero, table_.data() + offset);
      return;
    }
    std::size_t p = 0;
    while (p < path_features.size() && path_features[p] != node.feature) ++p;
    const bool fresh = p == path_features.size();
    if (fresh) {
      path_features.push_back(node.feature);
      path_zero.push_back(1.0);
    }
    position_[n] = static_cast<std::uint8_t>(p);
    const double before = path_zero[p];
    path_zero[p] = before * node.frac_left;
    self(self, node.left);
    path_zero[p] = before * node.frac_right;
    self(self, node.right);
    path_zero[p] = before;
    if (fresh) {
      path_features.pop_back();
      path_zero.pop_back();
    }
  };
  for (const auto& roots : roots_)
    for (std::uint32_t root : roots) walk(walk, root);
  if (!ok) {
    table_.clear();
    table_.shrink_to_fit();
    leaf_features_.clear();
    return;
  }
  tables_ = true;
}

void TreeExplainer::fill_leaf_table(double value, const std::vector<double>& z, double* out) const {
  const std::size_t u = z.size();
  // w(k) = k! (u-1-k)! / u!
  double w[kTableMaxUnique] = {};
  for (std::size_t k = 0; k < u; ++k) {
    double c = 1.0 / static_cast<double>(u);  // 0! (u-1)! / u!
    for (std::size_t j = 1; j <= k; ++j) c *= static_cast<double>(j) / static_cast<double>(u - j);
    w[k] = c;
  }
  double e[kTableMaxUnique + 1];
  for (std::size_t h = 0; h < (std::size_t{1} << u); ++h) {
    for (std::size_t i = 0; i < u; ++i) {
      const double o = static_cast<double>((h >> i) & 1u);
      if (o - z[i] == 0.0) {
        out[h * u + i] = 0.0;
        continue;
      }
      // e over A = H \ {i}; the product of z over the cold rest.
      std::size_t m = 0;
      e[0] = 1.0;
      double cold = 1.0;
      for (std::size_t j = 0; j < u; ++j) {
        if (j == i) continue;
        if ((h >> j) & 1u) {
          e[m + 1] = 0.0;
          for (std::size_t q = m + 1; q > 0; --q) e[q] += e[q - 1] * z[j];
          ++m;
        } else {
          cold *= z[j];
        }
      }
      double sum = 0.0;
      for (std::size_t k = 0; k <= m; ++k) sum += w[k] * e[m - k];
      out[h * u + i] = value * (o - z[i]) * cold * sum;
    }
  }
}

// One pass over the tree's nodes in array order (children after their
// parent): each child inherits its parent's hot mask, with the split's
// position cleared on the side x does not take; a leaf adds its table row.
void TreeExplainer::table_shap(std::uint32_t begin, std::uint32_t end, std::span<const double> x,
                               std::span<double> phi) const {
  std::uint32_t* hot = hot_.data();
  hot[begin] = ~0u;
  for (std::uint32_t n = begin; n < end; ++n) {
    const Node& node = nodes_[n];
    const std::uint32_t h = hot[n];
    if (node.feature < 0) {
      const std::size_t u = leaf_u_[n];
      const double* row = table_.data() + leaf_table_[n] + (h & ((1u << u) - 1u)) * u;
      const std::int32_t* features = leaf_features_.data() + leaf_row_[n];
      for (std::size_t i = 0; i < u; ++i) phi[static_cast<std::size_t>(features[i])] += row[i];
      continue;
    }
    const double v = x[static_cast<std::size_t>(node.feature)];
    const bool right = node.categorical ? !category_goes_left(node.mask, v) : v > node.threshold;
    const std::uint32_t cold = h & ~(1u << position_[n]);
    hot[node.left] = right ? cold : h;
    hot[node.right] = right ? h : cold;
  }
}

}  // namespace irithyll
