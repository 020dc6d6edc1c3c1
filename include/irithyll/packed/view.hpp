// Zero-copy views over packed tree ensembles (f32 "IRIT" and int16 "IR16"):
// validate a byte buffer once, then predict with no allocation.
//
// FREESTANDING (see format.hpp): no heap, no exceptions, no OS headers.
//
// Validation (parse) reports the Rust library reader's errors in its order
// (size, magic, version, table, node area, offsets,
// child indices, feature indices), then ours: every tree must be exactly one
// binary tree rooted at node 0 whose children come after their parent (the
// BFS order every exporter writes), so no node is reachable twice, none is
// orphaned, there is no cycle, and traversal ends within the tree's depth.
// The Rust library accepts cyclic files and then loops forever; we refuse them.
// The Rust library also refuses a buffer that is not 4-byte aligned because it
// casts in place; we read every field with memcpy, so any alignment works.
//
// The structure check needs one u16 per node of the largest tree as scratch
// (the caller's: a static array on a microcontroller, a vector on a host).
//
// Prediction: predict_ref follows the Rust library literally (walk while not a
// leaf). predict runs exactly max_depth() steps per tree with no
// data-dependent branch: a leaf keeps its index, so short paths idle. Cost:
// n_trees * max_depth node reads (12 B or 8 B each). Memory: the view is a
// few words; the model stays in the caller's buffer, which must outlive it.
//
// Thread safety: a parsed view is immutable; concurrent predicts are safe.
#pragma once

#include <cstddef>
#include <cstdint>

#include "irithyll/packed/format.hpp"

namespace irithyll::packed {

// Facts common to both formats, established by parse().
struct ViewInfo {
  std::uint16_t n_trees = 0;
  std::uint16_t n_features = 0;     // as written in the header (0: unchecked)
  float base_prediction = 0.0f;
  std::uint32_t total_nodes = 0;    // sum of n_nodes over the tree table
  std::uint32_t largest_tree = 0;   // nodes in the biggest tree
  std::uint32_t max_depth = 0;      // edges on the longest root-to-leaf path
  std::uint32_t required_features = 0;  // features a caller must supply
  std::uint32_t node_offset = 0;    // byte offset of the node area in the buffer
};

// The largest n_nodes in the tree table, or 0 when the table is unreadable;
// the scratch size parse() needs.
std::uint32_t largest_tree_f32(const std::uint8_t* data, std::size_t size) noexcept;
std::uint32_t largest_tree_i16(const std::uint8_t* data, std::size_t size) noexcept;

class F32View {
 public:
  FormatError parse(const std::uint8_t* data, std::size_t size, std::uint16_t* scratch,
                    std::size_t scratch_len) noexcept;
  const ViewInfo& info() const noexcept { return info_; }
  bool valid() const noexcept { return data_ != nullptr; }

  // Node accessors (tree-local index), for inspection and compilation.
  std::uint32_t tree_nodes(std::uint32_t tree) const noexcept;
  const std::uint8_t* node(std::uint32_t tree, std::uint32_t index) const noexcept;

  // kTooFewFeatures when n_x < info().required_features; otherwise writes *out.
  FormatError predict_ref(const float* x, std::size_t n_x, float* out) const noexcept;
  FormatError predict(const float* x, std::size_t n_x, float* out) const noexcept;

 private:
  const std::uint8_t* data_ = nullptr;
  ViewInfo info_{};
};

class I16View {
 public:
  FormatError parse(const std::uint8_t* data, std::size_t size, std::uint16_t* scratch,
                    std::size_t scratch_len) noexcept;
  const ViewInfo& info() const noexcept { return info_; }
  bool valid() const noexcept { return data_ != nullptr; }
  float leaf_scale() const noexcept { return load_f32(data_ + kHeaderBytes); }
  float feature_scale(std::uint32_t f) const noexcept { return load_f32(data_ + kHeaderBytes + 4 + 4 * f); }

  std::uint32_t tree_nodes(std::uint32_t tree) const noexcept;
  const std::uint8_t* node(std::uint32_t tree, std::uint32_t index) const noexcept;

  // The Rust library's literal semantics: each comparison quantises the feature
  // inline as (x * scale_f) as i16 in f32 arithmetic.
  FormatError predict_ref(const float* x, std::size_t n_x, float* out) const noexcept;
  // Branch-free bounded traversal; same result as predict_ref (quantising is a
  // pure function of x, so doing it at each comparison or once is the same).
  FormatError predict(const float* x, std::size_t n_x, float* out) const noexcept;
  // Integer-only traversal over already quantised features; returns the
  // summed leaves (i32, cannot overflow: 65535 * 32767 < 2^31).
  FormatError predict_prequantized(const std::int16_t* q, std::size_t n_q, std::int32_t* sum) const noexcept;
  // base + sum / leaf_scale, in f32 like the Rust library.
  float dequantize(std::int32_t sum) const noexcept {
    return info_.base_prediction + static_cast<float>(sum) / leaf_scale();
  }
  // q[f] = (x[f] * scale_f) as i16 for f < n (n <= info().n_features).
  void quantize(const float* x, std::size_t n, std::int16_t* q) const noexcept;

 private:
  const std::uint8_t* data_ = nullptr;
  ViewInfo info_{};
};

}  // namespace irithyll::packed
