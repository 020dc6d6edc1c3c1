// Internal: the traversal table a PackedModel builds once at load time, and
// the batch kernels that walk it (portable and AVX2).
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
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irithyll::packed::detail {

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
};

inline std::int32_t node_threshold(std::uint64_t n) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(n)); }
inline std::uint32_t node_child(std::uint64_t n) { return static_cast<std::uint32_t>(n >> 32) & 0xFFFFu; }
inline std::uint32_t node_feature(std::uint64_t n) { return static_cast<std::uint32_t>(n >> 48) & 0x7FFFu; }

// Keys for one sample: keys[0 .. n_keys).
void make_keys(const Compiled& c, const float* x, std::int32_t* keys);

// Predicts `n` rows (row r at rows + r*stride) into out, from pre-made keys
// laid out keys[r * n_keys + f]. Portable: 8 rows interleaved per tree.
void predict_keys_portable(const Compiled& c, const std::int32_t* keys, std::size_t n, float* out);
// Same contract, 8 rows per AVX2 register; n must be a multiple of 8.
void predict_keys_avx2(const Compiled& c, const std::int32_t* keys, std::size_t n, float* out);
bool cpu_has_avx2();

}  // namespace irithyll::packed::detail
