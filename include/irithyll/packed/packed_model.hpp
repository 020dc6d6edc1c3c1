// PackedModel: the hosted convenience layer over the freestanding views. It
// owns the file bytes, validates them once (view.hpp), and builds a traversal
// table (src/packed/compiled.hpp) so that prediction is branch-free, bounded
// by each tree's depth and allocation-free.
//
// Paths, all giving identical results (f32: bit-identical, same summation
// order as the original; int16: same integer sums):
//   predict_ref        the freestanding view's literal walk (the semantics)
//   predict            one sample over the traversal table, 8 trees in lockstep
//   predict_batch      many samples: AVX2 gathers over 8 samples at a time
//                      when the CPU has AVX2 (runtime dispatch), else the
//                      portable 8-way interleaved loop (predict_batch_portable)
// Cost per prediction: sum over trees of depth(tree) steps (one 8-byte node
// load, one key load, a compare) plus one key per feature. Memory: 8 bytes
// per node + 4 per leaf value + the original bytes.
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

  // rows: n rows of `stride` floats (stride >= required_features()); out: n.
  Status predict_batch(std::span<const float> rows, std::size_t stride, std::span<float> out) const;
  Status predict_batch_portable(std::span<const float> rows, std::size_t stride, std::span<float> out) const;
  Status predict_batch_ref(std::span<const float> rows, std::size_t stride, std::span<float> out) const;
  // Which kernel predict_batch uses on this CPU: "avx2" or "portable".
  const char* batch_kernel() const;

  // Nodes a prediction of x reads on the literal walk (root to leaf, summed
  // over trees); for reports.
  std::uint32_t nodes_visited(std::span<const float> x) const;
  // Longest root-to-leaf path of each tree, in edges.
  std::vector<std::uint32_t> tree_depths() const;
  // Number of splits on each feature (size: required_features()).
  std::vector<std::uint32_t> split_counts() const;

 private:
  PackedModel();
  enum class Kernel : std::uint8_t { kPortable, kAvx2, kRef };
  Status batch(std::span<const float> rows, std::size_t stride, std::span<float> out, Kernel k) const;

  std::vector<std::uint8_t> bytes_;
  PackedFormat format_ = PackedFormat::kF32;
  F32View f32_;
  I16View i16_;
  std::unique_ptr<detail::Compiled> compiled_;
};

}  // namespace irithyll::packed
