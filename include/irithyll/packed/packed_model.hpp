// PackedModel: the hosted convenience layer over the freestanding views. It
// owns the file bytes, validates them once (view.hpp), and builds a traversal
// table (src/packed/compiled.hpp) so that prediction is branch-free, bounded
// by each tree's depth and allocation-free.
//
// Paths, all giving identical results (f32: bit-identical, same summation
// order as the Rust library; int16: same integer sums):
//   predict_ref        the freestanding view's literal walk (the semantics)
//   predict            one sample: with AVX-512 (and a model the heap table
//                      takes) every split of a tree compared at once, then
//                      a short bit walk; else predict_portable, the traversal
//                      table with 8 trees in lockstep
//   predict_batch      many samples with the fastest kernel the CPU and model
//                      allow (runtime dispatch): AVX-512 (16 rows per zmm,
//                      heap-ordered trees, permutes instead of gathers; needs
//                      AVX-512 F/BW/VBMI, depth <= 6, <= 16 features), else
//                      the portable 8-row interleaved loop. The AVX2 gather
//                      kernel stays callable (predict_batch_with) but is not
//                      dispatched: on Zen 5 its gathers make it slower than
//                      the portable loop (BENCHMARKS.md).
// Cost per prediction: sum over trees of depth(tree) steps (one 8-byte node
// load, one key load, a compare) plus one key per feature; the AVX-512 paths
// do the same work for 16 rows (batch) or 16 split slots (single) per
// instruction. Memory: 16 bytes per node (table + f32 and i32 leaf values),
// 832 bytes per tree for the heap tables when depth <= 6 and features <= 16,
// and the Rust library bytes.
//
// Features are f32; a call with fewer than required_features() values is
// refused (single paths return NaN, batch paths a Status) and reads nothing.
//
// Thread safety: immutable after load; concurrent predicts are safe.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/packed/view.hpp"

namespace irithyll::packed {

namespace detail {
struct Compiled;
}

enum class PackedFormat : std::uint8_t { kF32, kI16 };

// Batch kernels, for tests and benchmarks that must run each one directly.
enum class BatchKernel : std::uint8_t { kRef, kPortable, kAvx2, kAvx512 };
const char* batch_kernel_name(BatchKernel k);

class PackedModel {
 public:
  // Validates (both formats, chosen by magic) and compiles. Errors name the
  // reason ("packed model: buffer truncated").
  static Result<PackedModel> from_bytes(std::vector<std::uint8_t> bytes);
  static Result<PackedModel> load(const std::string& path);

  PackedModel(PackedModel&&) noexcept;
  PackedModel& operator=(PackedModel&&) noexcept;
  ~PackedModel();

  PackedFormat format() const { return format_; }
  const ViewInfo& info() const;
  std::uint32_t required_features() const { return info().required_features; }
  Status check_features(std::size_t n) const;
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  const F32View& f32_view() const { return f32_; }
  const I16View& i16_view() const { return i16_; }

  float predict_ref(std::span<const float> x) const;
  float predict(std::span<const float> x) const;
  // The single path without SIMD (what predict runs where AVX-512 is absent).
  float predict_portable(std::span<const float> x) const;
  // Which single path predict uses on this CPU for this model.
  const char* single_kernel() const { return use_avx512_single_ ? "avx512" : "portable"; }

  // rows: n rows of `stride` floats (stride >= required_features()); out: n.
  Status predict_batch(std::span<const float> rows, std::size_t stride, std::span<float> out) const;
  Status predict_batch_portable(std::span<const float> rows, std::size_t stride, std::span<float> out) const;
  Status predict_batch_ref(std::span<const float> rows, std::size_t stride, std::span<float> out) const;
  // One named kernel; not_supported when this CPU or model cannot run it.
  Status predict_batch_with(BatchKernel k, std::span<const float> rows, std::size_t stride,
                            std::span<float> out) const;
  bool batch_kernel_available(BatchKernel k) const;
  // Which kernel predict_batch uses on this CPU for this model.
  BatchKernel dispatched_kernel() const;
  const char* batch_kernel() const { return batch_kernel_name(dispatched_kernel()); }

  // Nodes a prediction of x reads on the literal walk (root to leaf, summed
  // over trees); for reports.
  std::uint32_t nodes_visited(std::span<const float> x) const;
  // Longest root-to-leaf path of each tree, in edges.
  std::vector<std::uint32_t> tree_depths() const;
  // Number of splits on each feature (size: required_features()).
  std::vector<std::uint32_t> split_counts() const;

 private:
  PackedModel();
  Status batch(std::span<const float> rows, std::size_t stride, std::span<float> out, BatchKernel k) const;
  float predict_table(const std::int32_t* keys) const;

  std::vector<std::uint8_t> bytes_;
  PackedFormat format_ = PackedFormat::kF32;
  F32View f32_;
  I16View i16_;
  std::unique_ptr<detail::Compiled> compiled_;
  bool use_avx512_single_ = false;
};

}  // namespace irithyll::packed
