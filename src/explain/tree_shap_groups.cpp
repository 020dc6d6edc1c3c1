// Group tables: the table form of path-dependent TreeSHAP (tree_shap_table.cpp)
// with the leaves of each subtree of height <= 2 summed into one table.
//
// A leaf's contributions depend on x only through which edges of its path
// x takes. For the leaves below a node r of height <= 2 these are the edges
// from the root to r (one bit each) and the directions x takes at r's (at
// most 3) internal nodes: key = (ancestor bits, direction bits). Tabulating
// the sum of r's leaf table rows (and the value x reaches there) for every
// key replaces up to 4 leaf look-ups of up to D scattered adds each by one
// row of the group's distinct features, and the walk below r by at most 3
// comparisons. Exact: the same sums, formed once in make().
#include <algorithm>

#include "irithyll/explain/tree_shap.hpp"
#include "tree/category_split.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace irithyll {

bool TreeExplainer::Split::right(const double* x) const noexcept {
  const double v = x[static_cast<std::size_t>(feature)];
  return categorical ? !category_goes_left(mask, v) : v > threshold;
}

void TreeExplainer::build_groups() {
  groups_built_ = false;
  top_.clear();
  groups_.clear();
  group_features_.clear();
  group_table_.clear();
  top_begin_.assign(roots_.size(), {});
  group_begin_.assign(roots_.size(), {});
  struct Edge {
    std::uint32_t node;
    bool right;
  };
  std::vector<std::uint32_t> height(nodes_.size(), 0);
  std::vector<Edge> above;  // edges from the tree's root to the current node
  std::vector<double> leaf_table;
  std::size_t entries = 0;
  bool ok = true;
  dense_ = n_features_ <= kDenseMaxFeatures;
  categorical_ = false;
  for (const Node& node : nodes_) categorical_ = categorical_ || (node.feature >= 0 && node.categorical);
  dense_stride_ = (n_features_ + 1 + 3) / 4 * 4;  // the features, the value, zeros to a multiple of 4
  auto split_of = [this](std::uint32_t n) {
    const Node& node = nodes_[n];
    return Split{node.threshold, node.mask, node.feature, node.categorical};
  };

  // One group rooted at r, `above` holding the edges that lead to r.
  auto add_group = [&](std::uint32_t r) {
    Group g{};
    g.root = r;
    auto internal = [this](std::uint32_t n) { return nodes_[n].feature >= 0; };
    std::uint32_t inner_node[3] = {};
    std::int32_t inner[3] = {};
    if (internal(r)) {
      inner_node[g.n_inner++] = r;
      if (internal(nodes_[r].left)) inner_node[g.n_inner++] = nodes_[r].left;
      if (internal(nodes_[r].right)) inner_node[g.n_inner++] = nodes_[r].right;
    }
    for (std::uint32_t j = 0; j < g.n_inner; ++j) {
      g.inner[j] = split_of(inner_node[j]);
      inner[j] = g.inner[j].feature;
    }
    const std::size_t bits = above.size() + g.n_inner;
    if (bits > kGroupMaxBits) {
      ok = false;
      return;
    }
    // The group's features: those split above r, then those split in it.
    std::vector<std::int32_t> features;
    auto add_feature = [&features](std::int32_t f) {
      if (std::find(features.begin(), features.end(), f) == features.end()) features.push_back(f);
    };
    for (const Edge& e : above) add_feature(nodes_[e.node].feature);
    for (std::uint32_t j = 0; j < g.n_inner; ++j) add_feature(inner[j]);
    if (dense_) {
      features.clear();
      for (std::size_t f = 0; f < n_features_; ++f) features.push_back(static_cast<std::int32_t>(f));
    }
    g.width = static_cast<std::uint32_t>(features.size());
    g.features = static_cast<std::uint32_t>(group_features_.size());
    const std::size_t rows = std::size_t{1} << bits, stride = dense_ ? dense_stride_ : 1 + g.width;
    entries += rows * stride;
    if (entries > kTableMaxEntries) {
      ok = false;
      return;
    }
    if (!dense_) group_features_.insert(group_features_.end(), features.begin(), features.end());
    g.table = group_table_.size();
    group_table_.resize(g.table + rows * stride, 0.0);
    double* table = group_table_.data() + g.table;
    // Each leaf of the group: its path (edges above r, then edges in the
    // group as (inner index, side)), its distinct features and their cover
    // products z, its leaf table.
    struct GroupEdge {
      std::uint32_t inner;
      bool right;
    };
    auto add_leaf = [&](std::uint32_t leaf, std::span<const GroupEdge> inside) {
      std::vector<std::int32_t> leaf_features;
      std::vector<double> z;
      std::vector<std::size_t> edge_position;  // per edge (above, then inside): its feature's position
      auto take = [&](std::int32_t f, double frac) {
        std::size_t p = 0;
        while (p < leaf_features.size() && leaf_features[p] != f) ++p;
        if (p == leaf_features.size()) {
          leaf_features.push_back(f);
          z.push_back(1.0);
        }
        z[p] *= frac;
        edge_position.push_back(p);
      };
      for (const Edge& e : above) take(nodes_[e.node].feature, e.right ? nodes_[e.node].frac_right : nodes_[e.node].frac_left);
      for (const GroupEdge& e : inside) {
        const Node& n = nodes_[inner_node[e.inner]];
        take(n.feature, e.right ? n.frac_right : n.frac_left);
      }
      const std::size_t u = leaf_features.size();
      leaf_table.assign((std::size_t{1} << u) * u, 0.0);
      fill_leaf_table(nodes_[leaf].value, z, leaf_table.data());
      std::vector<std::size_t> column(u);
      for (std::size_t i = 0; i < u; ++i)
        column[i] = static_cast<std::size_t>(std::find(features.begin(), features.end(), leaf_features[i]) - features.begin());
      for (std::size_t key = 0; key < rows; ++key) {
        std::size_t h = (std::size_t{1} << u) - 1;
        bool reached = true;
        for (std::size_t i = 0; i < above.size(); ++i) {
          if ((key >> (bits - 1 - i)) & 1u) continue;
          h &= ~(std::size_t{1} << edge_position[i]);
          reached = false;
        }
        for (std::size_t i = 0; i < inside.size(); ++i) {
          const bool dir = (key >> (g.n_inner - 1 - inside[i].inner)) & 1u;
          if (dir == inside[i].right) continue;
          h &= ~(std::size_t{1} << edge_position[above.size() + i]);
          reached = false;
        }
        double* row = table + key * stride;
        if (reached) row[dense_ ? n_features_ : g.width] += nodes_[leaf].value;
        for (std::size_t i = 0; i < u; ++i) row[column[i]] += leaf_table[h * u + i];
      }
    };
    if (g.n_inner == 0) {
      add_leaf(r, {});
    } else {
      for (const bool side : {false, true}) {
        const std::uint32_t child = side ? nodes_[r].right : nodes_[r].left;
        if (!internal(child)) {
          const GroupEdge path[1] = {{0, side}};
          add_leaf(child, path);
          continue;
        }
        std::uint32_t j = 1;
        while (inner_node[j] != child) ++j;
        for (const bool leaf_side : {false, true}) {
          const GroupEdge path[2] = {{0, side}, {j, leaf_side}};
          add_leaf(leaf_side ? nodes_[child].right : nodes_[child].left, path);
        }
      }
    }
    groups_.push_back(g);
  };

  auto walk = [&](auto& self, std::uint32_t n) -> void {
    if (!ok) return;
    if (height[n] <= 2) {
      add_group(n);
      return;
    }
    top_.push_back({split_of(n), n, nodes_[n].left, nodes_[n].right});
    above.push_back({n, false});
    self(self, nodes_[n].left);
    above.back().right = true;
    self(self, nodes_[n].right);
    above.pop_back();
  };
  for (std::size_t k = 0; k < roots_.size() && ok; ++k) {
    for (std::size_t t = 0; t < roots_[k].size() && ok; ++t) {
      const std::uint32_t root = roots_[k][t], end = ends_[k][t];
      for (std::uint32_t n = end; n-- > root;) {
        const Node& node = nodes_[n];
        height[n] = node.feature < 0 ? 0 : 1 + std::max(height[node.left], height[node.right]);
      }
      top_begin_[k].push_back(static_cast<std::uint32_t>(top_.size()));
      group_begin_[k].push_back(static_cast<std::uint32_t>(groups_.size()));
      walk(walk, root);
    }
    top_begin_[k].push_back(static_cast<std::uint32_t>(top_.size()));
    group_begin_[k].push_back(static_cast<std::uint32_t>(groups_.size()));
  }
  if (!ok) {
    top_.clear();
    groups_.clear();
    group_features_.clear();
    group_table_.clear();
    group_table_.shrink_to_fit();
    return;
  }
  groups_built_ = true;
}

namespace {

// Numeric: the model has no category splits, so routing is one compare.
template <bool Numeric, class S>
inline bool right_of(const S& split, const double* x) noexcept {
  if constexpr (Numeric) return x[static_cast<std::size_t>(split.feature)] > split.threshold;
  return split.right(x);
}

// The top nodes of one tree: each child's key is its parent's, shifted,
// plus whether x takes it.
template <bool Numeric, class T>
void top_pass(const T* t, const T* end, std::uint32_t* key, const double* x) noexcept {
  for (; t != end; ++t) {
    const std::uint32_t right = right_of<Numeric>(t->split, x) ? 1u : 0u;
    const std::uint32_t up = key[t->self] << 1;
    key[t->left] = up | (right ^ 1u);
    key[t->right] = up | right;
  }
}

// The groups of one tree with dense rows of W doubles (W a compile-time
// constant, so the row adds unroll into vector adds), summed in a local
// accumulator: features 0..nf-1, then the value x reaches.
template <std::size_t W, bool Numeric, class G>
[[gnu::always_inline]] inline double dense_pass(const G* g, const G* end, const std::uint32_t* key, const double* x,
                                                const double* table, double* phi, std::size_t nf) noexcept {
  double acc[W] = {};
  for (; g != end; ++g) {
    std::size_t index = key[g->root];
    for (std::uint32_t j = 0; j < g->n_inner; ++j) index = (index << 1) | (right_of<Numeric>(g->inner[j], x) ? 1u : 0u);
    const double* row = table + g->table + index * W;
    for (std::size_t i = 0; i < W; ++i) acc[i] += row[i];
  }
  for (std::size_t f = 0; f < nf; ++f) phi[f] += acc[f];
  return acc[nf];
}

template <std::size_t W, bool Numeric, class G>
double dense_pass_plain(const G* g, const G* end, const std::uint32_t* key, const double* x, const double* table,
                        double* phi, std::size_t nf) noexcept {
  return dense_pass<W, Numeric>(g, end, key, x, table, phi, nf);
}

#if defined(__x86_64__) && !defined(__clang_analyzer__)
// dense_pass with the row held in W / 4 AVX registers (a 12-double row is
// three adds; the compiler keeps dense_pass's accumulator in scalars):
// element-wise adds in the same order, so the same bits.
template <std::size_t W, bool Numeric, class G>
__attribute__((target("avx2"))) double dense_pass_avx2(const G* g, const G* end, const std::uint32_t* key,
                                                       const double* x, const double* table, double* phi,
                                                       std::size_t nf) noexcept {
  constexpr std::size_t V = W / 4;
  __m256d acc[V];
  for (std::size_t v = 0; v < V; ++v) acc[v] = _mm256_setzero_pd();
  for (; g != end; ++g) {
    std::size_t index = key[g->root];
    for (std::uint32_t j = 0; j < g->n_inner; ++j) index = (index << 1) | (right_of<Numeric>(g->inner[j], x) ? 1u : 0u);
    const double* row = table + g->table + index * W;
    for (std::size_t v = 0; v < V; ++v) acc[v] = _mm256_add_pd(acc[v], _mm256_loadu_pd(row + 4 * v));
  }
  alignas(32) double sum[W];
  for (std::size_t v = 0; v < V; ++v) _mm256_store_pd(sum + 4 * v, acc[v]);
  for (std::size_t f = 0; f < nf; ++f) phi[f] += sum[f];
  return sum[nf];
}

bool cpu_has_avx2() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
}
#endif

template <std::size_t W, bool Numeric, class G>
double dense_best(const G* g, const G* end, const std::uint32_t* key, const double* x, const double* table,
                  double* phi, std::size_t nf) noexcept {
#if defined(__x86_64__) && !defined(__clang_analyzer__)
  if (cpu_has_avx2()) return dense_pass_avx2<W, Numeric>(g, end, key, x, table, phi, nf);
#endif
  return dense_pass_plain<W, Numeric>(g, end, key, x, table, phi, nf);
}

template <bool Numeric, class G>
double dense_dispatch(std::size_t stride, const G* g, const G* end, const std::uint32_t* key, const double* x,
                      const double* table, double* phi, std::size_t nf) noexcept {
  switch (stride) {
    case 4: return dense_best<4, Numeric>(g, end, key, x, table, phi, nf);
    case 8: return dense_best<8, Numeric>(g, end, key, x, table, phi, nf);
    case 12: return dense_best<12, Numeric>(g, end, key, x, table, phi, nf);
    case 16: return dense_best<16, Numeric>(g, end, key, x, table, phi, nf);
    default: return dense_best<20, Numeric>(g, end, key, x, table, phi, nf);
  }
}

}  // namespace

double TreeExplainer::group_shap(std::size_t k, std::size_t t, const double* x, double* phi) const {
  std::uint32_t* key = hot_.data();
  key[roots_[k][t]] = 0;
  const TopNode* top = top_.data();
  const TopNode* top_first = top + top_begin_[k][t];
  const TopNode* top_last = top + top_begin_[k][t + 1];
  if (categorical_)
    top_pass<false>(top_first, top_last, key, x);
  else
    top_pass<true>(top_first, top_last, key, x);
  const Group* first = groups_.data() + group_begin_[k][t];
  const Group* last = groups_.data() + group_begin_[k][t + 1];
  const double* table = group_table_.data();
  const std::size_t nf = n_features_;
  if (dense_)
    return categorical_ ? dense_dispatch<false>(dense_stride_, first, last, key, x, table, phi, nf)
                        : dense_dispatch<true>(dense_stride_, first, last, key, x, table, phi, nf);
  double value = 0.0;
  for (const Group* g = first; g != last; ++g) {
    std::size_t index = key[g->root];
    for (std::uint32_t j = 0; j < g->n_inner; ++j) index = (index << 1) | (g->inner[j].right(x) ? 1u : 0u);
    const double* row = table + g->table + index * (1 + g->width);
    const std::int32_t* features = group_features_.data() + g->features;
    for (std::uint32_t f = 0; f < g->width; ++f) phi[static_cast<std::size_t>(features[f])] += row[f];
    value += row[g->width];
  }
  return value;
}

}  // namespace irithyll
