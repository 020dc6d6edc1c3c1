// Builds the heap-ordered, depth-padded table of compiled.hpp from the BFS
// traversal table. Cost: O(n_trees * 2^D) once at load time.
#include <algorithm>
#include <cstring>
#include <limits>

#include "packed/compiled.hpp"

namespace irithyll::packed::detail {

namespace {

void set_threshold(HeapTree& t, std::uint32_t g, std::uint32_t level, std::int32_t thr) {
  if (level <= 3)
    t.thr_a[g] = thr;
  else if (level == 4)
    t.thr_b[g & 15u] = thr;
  else
    t.thr_c[g & 31u] = thr;
}

// Places BFS node i of the tree at heap slot g on `level`; a leaf above the
// bottom level pads down its left spine.
void place(const Compiled& c, std::uint32_t base, std::uint32_t i, std::uint32_t g, std::uint32_t level,
           std::uint32_t depth, HeapTree& out) {
  const std::uint64_t nd = c.nodes[base + i];
  const bool leaf = node_child(nd) == i;
  if (level == depth) {
    // Depth is the maximum over trees, so only leaves reach the bottom.
    if (c.integer_leaves)
      out.leaf[g & 63u] = c.leaf_i32[base + i];
    else
      std::memcpy(&out.leaf[g & 63u], &c.leaf_f32[base + i], sizeof(float));
    return;
  }
  if (leaf) {
    set_threshold(out, g, level, std::numeric_limits<std::int32_t>::max());
    out.feature[g] = 0;
    place(c, base, i, 2 * g, level + 1, depth, out);
    return;
  }
  set_threshold(out, g, level, node_threshold(nd));
  out.feature[g] = static_cast<std::uint8_t>(node_feature(nd));
  place(c, base, node_child(nd), 2 * g, level + 1, depth, out);
  place(c, base, node_child(nd) + 1, 2 * g + 1, level + 1, depth, out);
}

}  // namespace

void build_heap_table(Compiled& c) {
  c.heap.clear();
  c.heap_feature32.clear();
  c.heap_depth = 0;
  if (c.n_keys > kHeapMaxKeys) return;
  std::uint32_t depth = 0;
  for (std::uint32_t d : c.tree_depth) depth = std::max(depth, d);
  if (depth > kHeapMaxDepth) return;
  c.heap.assign(c.tree_base.size(), HeapTree{});
  for (std::size_t t = 0; t < c.tree_base.size(); ++t) place(c, c.tree_base[t], 0, 1, 0, depth, c.heap[t]);
  c.heap_depth = depth;
  c.heap_feature32.resize(c.heap.size() * 64);
  for (std::size_t t = 0; t < c.heap.size(); ++t)
    for (std::size_t g = 0; g < 64; ++g) c.heap_feature32[t * 64 + g] = c.heap[t].feature[g];
}

}  // namespace irithyll::packed::detail
