// Portable batch kernel over the traversal table (compiled.hpp): eight rows
// walk each tree together (lockstep.hpp), so eight independent load-compare
// chains overlap.
// Per row the leaves are added in tree order, exactly as the single path does.
#include <algorithm>

#include "packed/compiled.hpp"
#include "packed/lockstep.hpp"

namespace irithyll::packed::detail {

void predict_keys_portable(const Compiled& c, const std::int32_t* keys, std::size_t n, float* out) {
  const std::uint64_t* nodes = c.nodes.data();
  const std::size_t nt = c.tree_base.size();
  const std::size_t nk = c.n_keys;
  for (std::size_t r0 = 0; r0 < n; r0 += 8) {
    const std::size_t m = std::min<std::size_t>(8, n - r0);
    float sum[8];
    std::int32_t isum[8];
    const std::int32_t* k[8];
    for (std::size_t j = 0; j < 8; ++j) {
      sum[j] = c.base;
      isum[j] = 0;
      k[j] = keys + (r0 + (j < m ? j : 0)) * nk;  // idle lanes repeat row r0
    }
    for (std::size_t t = 0; t < nt; ++t) {
      const std::uint64_t* tree = nodes + c.tree_base[t];
      std::uint32_t idx[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      walk_lockstep(c.tree_depth[t], idx, [&](std::size_t j, std::uint32_t i) { return table_step(tree, i, k[j]); });
      const float* lf = c.leaf_f32.data() + c.tree_base[t];
      const std::int32_t* li = c.leaf_i32.data() + c.tree_base[t];
      for (std::size_t j = 0; j < 8; ++j) {
        sum[j] += lf[idx[j]];
        isum[j] += li[idx[j]];
      }
    }
    for (std::size_t j = 0; j < m; ++j)
      out[r0 + j] = c.integer_leaves ? c.base + static_cast<float>(isum[j]) / c.leaf_scale : sum[j];
  }
}

}  // namespace irithyll::packed::detail
