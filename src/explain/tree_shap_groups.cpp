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

#include "core/cpu_features.hpp"
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
  group_value_.clear();
  top_begin_.assign(roots_.size(), {});
  group_begin_.assign(roots_.size(), {});
  struct Edge {
    std::uint32_t node;
    bool right;
  };
  std::vector<std::uint32_t> height(nodes_.size(), 0);
  std::vector<Edge> above;  // edges from the tree's root to the current node
  std::vector<double> leaf_table, sums;
  std::size_t entries = 0, doubles = 0;  // doubles: group_table_'s length in use
  bool ok = true;
  dense_ = n_features_ <= kDenseMaxFeatures;
  categorical_ = false;
  for (const Node& node : nodes_) categorical_ = categorical_ || (node.feature >= 0 && node.categorical);
  dense_stride_ = (n_features_ + 3) / 4 * 4;  // the features, zeros to a multiple of 4
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
    g.width = static_cast<std::uint16_t>(features.size());
    g.features = static_cast<std::uint32_t>(group_features_.size());
    // The sums are formed in `sums`, rows of the group's features then the
    // value (`stride` doubles), and then stored: sparse rows as they are,
    // dense rows without the value.
    const std::size_t rows = std::size_t{1} << bits, stride = 1 + g.width;
    const std::size_t stored = dense_ ? dense_stride_ : stride;
    entries += rows * stored;
    if (entries > kTableMaxEntries) {
      ok = false;
      return;
    }
    if (!dense_) group_features_.insert(group_features_.end(), features.begin(), features.end());
    sums.assign(rows * stride, 0.0);
    double* table = sums.data();
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
        if (reached) row[g.width] += nodes_[leaf].value;
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
    // Dense: each group's table starts on a cache line (8 doubles).
    g.table = static_cast<std::uint32_t>(dense_ ? (doubles + 7) / 8 * 8 : doubles);
    doubles = g.table + rows * stored;
    group_table_.resize((doubles + 7) / 8, TableLine{});
    double* out = reinterpret_cast<double*>(group_table_.data()) + g.table;
    if (!dense_) {
      std::copy(sums.begin(), sums.end(), out);
    } else {
      for (std::size_t key = 0; key < rows; ++key)
        std::copy_n(sums.data() + key * stride, n_features_, out + key * stored);
      // Keys from reach on: every ancestor bit set, any direction bits.
      g.reach = static_cast<std::uint32_t>(((std::size_t{1} << above.size()) - 1) << g.n_inner);
      g.value = static_cast<std::uint32_t>(group_value_.size());
      for (std::size_t key = g.reach; key < rows; ++key) group_value_.push_back(sums[key * stride + g.width]);
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
    group_value_.clear();
    group_value_.shrink_to_fit();
    return;
  }
  groups_built_ = true;
  group_rows_.assign(dense_ ? groups_.size() : 0, nullptr);
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

// Adds rows [r, end) of W doubles in order, each element from 0, and the
// first nf sums to phi.
template <std::size_t W>
void add_rows_plain(const double* const* r, const double* const* end, double* phi, std::size_t nf) noexcept {
  double acc[W] = {};
  for (; r != end; ++r)
    for (std::size_t i = 0; i < W; ++i) acc[i] += (*r)[i];
  for (std::size_t f = 0; f < nf; ++f) phi[f] += acc[f];
}

#if defined(__x86_64__) && !defined(__clang_analyzer__)
// add_rows_plain with the sums in W / 4 AVX registers (the compiler keeps
// the plain accumulator in scalars or SSE pairs): element-wise adds in the
// same order, so the same bits.
template <std::size_t W>
__attribute__((target("avx2"))) void add_rows_avx2(const double* const* r, const double* const* end, double* phi,
                                                   std::size_t nf) noexcept {
  constexpr std::size_t V = W / 4;
  __m256d acc[V];
  for (std::size_t v = 0; v < V; ++v) acc[v] = _mm256_setzero_pd();
  for (; r != end; ++r)
    for (std::size_t v = 0; v < V; ++v) acc[v] = _mm256_add_pd(acc[v], _mm256_loadu_pd(*r + 4 * v));
  alignas(32) double sum[W];
  for (std::size_t v = 0; v < V; ++v) _mm256_store_pd(sum + 4 * v, acc[v]);
  for (std::size_t f = 0; f < nf; ++f) phi[f] += sum[f];
}
#endif

template <std::size_t W>
void add_rows(bool avx2, const double* const* r, const double* const* end, double* phi, std::size_t nf) noexcept {
#if defined(__x86_64__) && !defined(__clang_analyzer__)
  if (avx2) return add_rows_avx2<W>(r, end, phi, nf);
#endif
  (void)avx2;
  add_rows_plain<W>(r, end, phi, nf);
}

}  // namespace

// Dense group tables, one row x at a time. Per tree two steps: route (keys
// of the top nodes, then each group's key and so the address of the row x
// reads there, and the leaf value x reaches) and add (the rows, in group
// order). A row's table is megabytes away from the last, so with the two
// steps back to back every add waits for a cache miss; routing kAhead
// trees before adding, with a prefetch of each row as its address is
// known, keeps that many trees' misses in flight. The adds are the same
// in the same order as in one pass, so the bits do not change.
struct TreeShapDense {
  using TopNode = TreeExplainer::TopNode;
  using Group = TreeExplainer::Group;
  static constexpr std::size_t kAhead = 2;

  // One output's trees.
  struct Trees {
    const std::uint32_t* root;
    const std::uint32_t* top_begin;   // n + 1 offsets into top
    const std::uint32_t* group_begin;  // n + 1 offsets into groups
    const TopNode* top;
    const Group* groups;
    const double* table;
    const double* values;
    std::uint32_t* key;
    std::size_t n;
  };
  static Trees trees(const TreeExplainer& e, std::size_t k) {
    return {e.roots_[k].data(), e.top_begin_[k].data(), e.group_begin_[k].data(), e.top_.data(), e.groups_.data(),
            e.group_data(), e.group_value_.data(), e.hot_.data(), e.roots_[k].size()};
  }

  // Tree t: rows[i] = the row x reads in the tree's group i, prefetched;
  // returns the leaf value x reaches (from the one group whose key is at
  // least its reach).
  template <std::size_t W, bool Numeric>
  [[gnu::always_inline]] static inline double route(const Trees& c, std::size_t t, const double* x,
                                                    const double** rows) noexcept {
    std::uint32_t* key = c.key;
    key[c.root[t]] = 0;
    top_pass<Numeric>(c.top + c.top_begin[t], c.top + c.top_begin[t + 1], key, x);
    std::size_t hit = 0;
    const Group* end = c.groups + c.group_begin[t + 1];
    for (const Group* g = c.groups + c.group_begin[t]; g != end; ++g, ++rows) {
      std::size_t index = key[g->root];
      for (std::uint32_t j = 0; j < g->n_inner; ++j) index = (index << 1) | (right_of<Numeric>(g->inner[j], x) ? 1u : 0u);
      const double* row = c.table + g->table + index * W;
      __builtin_prefetch(row);
      if constexpr (W > 8) __builtin_prefetch(row + W - 1);  // a row past one line spans two
      *rows = row;
      hit = index >= g->reach ? g->value + (index - g->reach) : hit;
    }
    return c.values[hit];
  }

  // Every tree of c: raw plus the trees' values, their contributions added
  // to phi (which holds 0 on entry), tree by tree as group_shap adds them.
  template <std::size_t W, bool Numeric>
  static double all(const Trees& c, const double* x, const double** rows, double* phi, std::size_t nf, double raw,
                    bool avx2) noexcept {
    const std::uint32_t* gb = c.group_begin;
    const std::size_t ahead = std::min(kAhead, c.n);
    for (std::size_t t = 0; t < ahead; ++t) raw += route<W, Numeric>(c, t, x, rows + (gb[t] - gb[0]));
    for (std::size_t t = 0; t < c.n; ++t) {
      if (t + ahead < c.n) raw += route<W, Numeric>(c, t + ahead, x, rows + (gb[t + ahead] - gb[0]));
      add_rows<W>(avx2, rows + (gb[t] - gb[0]), rows + (gb[t + 1] - gb[0]), phi, nf);
    }
    return raw;
  }

  // Tree t alone (explain_batch's one-row loop).
  template <std::size_t W, bool Numeric>
  static double one_tree(const Trees& c, std::size_t t, const double* x, const double** rows, double* phi,
                         std::size_t nf, bool avx2) noexcept {
    const double value = route<W, Numeric>(c, t, x, rows);
    add_rows<W>(avx2, rows, rows + (c.group_begin[t + 1] - c.group_begin[t]), phi, nf);
    return value;
  }

  // t < 0: every tree (returns raw plus their values); else tree t.
  template <bool Numeric>
  static double dispatch(const TreeExplainer& e, std::size_t k, std::ptrdiff_t t, const double* x, double* phi,
                         double raw) noexcept {
    const Trees c = trees(e, k);
    const double** rows = e.group_rows_.data();
    const std::size_t nf = e.n_features_;
    const bool avx2 = cpu_has_avx2();
    const auto tt = static_cast<std::size_t>(t);
    switch (e.dense_stride_) {
      case 4:
        return t < 0 ? all<4, Numeric>(c, x, rows, phi, nf, raw, avx2) : one_tree<4, Numeric>(c, tt, x, rows, phi, nf, avx2);
      case 8:
        return t < 0 ? all<8, Numeric>(c, x, rows, phi, nf, raw, avx2) : one_tree<8, Numeric>(c, tt, x, rows, phi, nf, avx2);
      case 12:
        return t < 0 ? all<12, Numeric>(c, x, rows, phi, nf, raw, avx2) : one_tree<12, Numeric>(c, tt, x, rows, phi, nf, avx2);
      default:
        return t < 0 ? all<16, Numeric>(c, x, rows, phi, nf, raw, avx2) : one_tree<16, Numeric>(c, tt, x, rows, phi, nf, avx2);
    }
  }
};

double TreeExplainer::explain_dense(std::size_t k, const double* x, double* phi) const {
  return categorical_ ? TreeShapDense::dispatch<false>(*this, k, -1, x, phi, bias_[k])
                      : TreeShapDense::dispatch<true>(*this, k, -1, x, phi, bias_[k]);
}

double TreeExplainer::group_shap(std::size_t k, std::size_t t, const double* x, double* phi) const {
  const auto tt = static_cast<std::ptrdiff_t>(t);
  if (dense_)
    return categorical_ ? TreeShapDense::dispatch<false>(*this, k, tt, x, phi, 0.0)
                        : TreeShapDense::dispatch<true>(*this, k, tt, x, phi, 0.0);
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
  const double* table = group_data();
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
