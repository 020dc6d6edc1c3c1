// Internal: the traversal tables a PackedModel builds once at load time, and
// the kernels that walk them (portable, AVX2, AVX-512).
//
// Layout (one u64 per node, trees back to back, each re-laid out in BFS order
// so that a node's two children are adjacent):
//   bits  0-31  threshold key (i32): f32 format: threshold_key(thr); int16
//               format: the i16 threshold. Leaves: INT32_MAX (never right).
//   bits 32-47  tree-local index of the left child (right = left + 1);
//               a leaf points at itself, so extra steps leave it in place.
//   bits 48-62  feature index (0 for leaves).
// A sample is first turned into one i32 key per feature (feature_key(x) for
// f32, (x * scale) as i16 for int16); a step is then
//   i = child(i) + (key[feature(i)] > threshold(i))
// with no branch, run exactly depth(tree) times.
//
// A second table, `heap`, serves the AVX-512 batch kernel (traverse_avx512.cpp):
// every tree padded to one common depth D <= kHeapMaxDepth as a perfect binary
// tree in 1-based heap order (children of g are 2g and 2g+1), so a lane's position
// needs no child pointers and each level's thresholds, features and the
// leaves come out of registers by permutes instead of gathers (gathers run at
// about 0.5 ns per element on the Zen 5 machines we measured, slower than the
// scalar loop). A leaf above depth D becomes a chain of pad nodes with
// threshold INT32_MAX (no key exceeds it: every sample goes left) ending at
// its leftmost descendant on level D, which holds its value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irithyll::packed::detail {

inline constexpr std::uint32_t kHeapMaxDepth = 6;  // 63 split slots, 64 leaf slots
inline constexpr std::uint32_t kHeapMaxKeys = 16;  // keys selected by a 4-level blend tree

// One tree in 1-based heap order. Split slot g (1..63) is on level
// floor(log2 g); its threshold lives in thr_a[g] (levels 0-3), thr_b[g & 15]
// (level 4) or thr_c[g & 31] (level 5): each level's slots are 2^L
// consecutive values starting at 2^L, so the low bits of g index them with no
// offset. feature[g] is a byte (vpermb); leaf slot g (level D, 2^D <= g <
// 2^(D+1)) is at leaf[g & 63], f32 bits or i32. Slot 0 is unused.
struct alignas(64) HeapTree {
  std::int32_t thr_a[16];
  std::int32_t thr_b[16];
  std::int32_t thr_c[32];
  std::uint8_t feature[64];
  std::int32_t leaf[64];
};

struct Compiled {
  bool integer_leaves = false;          // int16 format: sum leaves in i32
  float base = 0.0f;
  float leaf_scale = 1.0f;              // int16 only
  std::uint32_t n_keys = 0;             // keys per sample (>= 1)
  std::vector<std::uint64_t> nodes;
  std::vector<std::uint32_t> tree_base; // first node of each tree in `nodes`
  std::vector<std::uint32_t> tree_depth;
  std::vector<float> leaf_f32;          // per node (leaves only meaningful)
  std::vector<std::int32_t> leaf_i32;
  std::vector<float> feature_scale;     // int16: per key; f32: empty
  // Heap table; empty when a tree is deeper than kHeapMaxDepth or the model
  // reads more than kHeapMaxKeys features (the AVX-512 kernel then declines).
  std::vector<HeapTree> heap;
  // heap[t].feature widened to i32 (64 per tree) for the single path, whose
  // vpermd then takes them with a plain load (~6% faster than vpmovzxbd).
  std::vector<std::int32_t> heap_feature32;
  std::uint32_t heap_depth = 0;
};

// Fills c.heap / c.heap_depth from the BFS table (heap_table.cpp).
void build_heap_table(Compiled& c);

inline std::int32_t node_threshold(std::uint64_t n) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(n)); }
inline std::uint32_t node_child(std::uint64_t n) { return static_cast<std::uint32_t>(n >> 32) & 0xFFFFu; }
inline std::uint32_t node_feature(std::uint64_t n) { return static_cast<std::uint32_t>(n >> 48) & 0x7FFFu; }

// One step of a walk over one tree of the table (tree = nodes + tree_base[t]):
// a split moves to a child, a leaf stays put (child == itself, and no key
// exceeds its INT32_MAX threshold).
inline std::uint32_t table_step(const std::uint64_t* tree, std::uint32_t i, const std::int32_t* keys) {
  const std::uint64_t n = tree[i];
  return node_child(n) + static_cast<std::uint32_t>(keys[node_feature(n)] > node_threshold(n));
}

// Keys for one sample: keys[0 .. n_keys).
void make_keys(const Compiled& c, const float* x, std::int32_t* keys);

// Predicts `n` rows (row r at rows + r*stride) into out, from pre-made keys
// laid out keys[r * n_keys + f]. Portable: 8 rows interleaved per tree.
void predict_keys_portable(const Compiled& c, const std::int32_t* keys, std::size_t n, float* out);
// Same contract, 8 rows per AVX2 register; n must be a multiple of 8.
void predict_keys_avx2(const Compiled& c, const std::int32_t* keys, std::size_t n, float* out);
// From the rows themselves (row r at rows + r * stride; features >= n_read
// are taken as 0, for models that read none), over the heap table, 16 rows
// per zmm with permutes instead of gathers, keys made in SIMD exactly as
// make_keys does; n must be a multiple of 16 and c.heap non-empty.
void predict_rows_avx512(const Compiled& c, const float* rows, std::size_t stride, std::size_t n_read, std::size_t n,
                         float* out);
// One sample from its keys (n_keys of them) over the heap table: every split
// slot compared in SIMD, then a short bit walk per tree; c.heap non-empty.
float predict_one_avx512(const Compiled& c, const std::int32_t* keys);
// AVX-512 F, BW and VBMI (vpermb), checked at run time.
bool cpu_has_avx512();

}  // namespace irithyll::packed::detail
