// TurboQuant-style weight-vector compression: a seeded randomised Hadamard
// rotation spreads every weight's energy over all coordinates (so outliers
// stop dictating the range), then a uniform scalar quantiser with 256, 11 or
// 5 levels (8, ~3.5, ~2.5 bits per weight) packs the rotated values into
// 32-bit words. After Zandieh et al. 2025 ("TurboQuant: online vector
// quantization with near-optimal distortion rate"), restricted to a uniform
// grid. Because the rotation R = H D is orthogonal, w . x = (R w) . (R x), so
// dot products are computed straight from the codes on the rotated features,
// never dequantising the weights.
//
//   P      = next power of two >= max(n, 1); weights zero-padded to P
//   D      = diag(+-1): element i is negated when the i-th Xorshift64(seed)
//            draw is even (seed 0 uses Xorshift64's fixed replacement)
//   H      = normalised Walsh-Hadamard transform (self-inverse, scale 1/sqrt(P))
//   r      = H D w; the grid offset + scale*{0..levels-1} is either
//            kMinMax:  offset = min r, scale = (max r - min r) / (levels - 1)
//                      (the original's rule), or
//            kMseClip (default): the clipped uniform grid with the least
//                      squared error on r (a search over clips mu +- k sigma,
//                      then Lloyd iterations restricted to a uniform grid);
//            scale 0 when the range is below 1e-15: every code is (levels-1)/2
//   code_i = round((r_i - offset) / scale) clamped to [0, levels-1]
//   packing: 8-bit  4 codes per word, code i at bits 8*(i%4)
//            3.5    7 codes per word in base 11 (c0 + 11 c1 + ...)
//            2.5   13 codes per word in base 5
//
// Byte layout (little-endian), also the zero-copy view's input:
//   off 0  u32 n_weights | 4 u32 mode (0 8-bit, 1 3.5-bit, 2 2.5-bit) | 8 u64 seed
//   16 u32 padded_len P  | 20 f64 scale | 28 f64 offset | 36 u32[ceil(P/vpw)] words
// from_bytes refuses short input, unknown modes, non-finite scale/offset, and
// (unlike the original, which checked neither) a P that is not a power of two
// or is smaller than n_weights, either of which would make predict read past
// the codes or rotate with the wrong transform.
//
// Error (bench/turbo_quant_error.cpp, 200 Gaussian vectors of 1024, mean
// relative L2 error of the dequantised vector): kMinMax 0.72% / 18% / 46% at
// 8 / 3.5 / 2.5 bits; kMseClip 0.72% / 14.4% / 28.3%, at the floor of any
// uniform grid on Gaussian coordinates (about 14.8% at 11 levels and 28.6% at
// 5 for a true Gaussian). The original's "about 0.4% / 10% / 20%" cannot be a
// relative L2 error: 10% at log2(11) = 3.46 bits is the Gaussian
// rate-distortion bound itself (2^-R = 9.1%), which no 11-level scalar
// quantiser reaches. It matches the largest rounding error over the largest
// |rotated coordinate| of a min..max grid, ~1/(levels-1): measured 0.37% /
// 9.4% / 23.5%, a worst-case resolution figure rather than an error on the
// weights.
//
// Cost: quantise O(P log P) plus O(P) per candidate grid (~20 passes, once);
// dot product O(P log P) for the feature rotation plus O(P) over the codes;
// memory 36 + 4*words bytes. No allocation in
// predict with caller scratch. Thread safety: immutable after construction.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::nn {

enum class QuantMode : std::uint32_t { kBits8 = 0, kBits3_5 = 1, kBits2_5 = 2 };
// How quantize() places the uniform grid (both write the same format).
enum class TurboQuantRange { kMseClip, kMinMax };

inline constexpr std::size_t kTurboQuantHeaderBytes = 36;
inline constexpr std::uint64_t kTurboQuantDefaultSeed = 0xDEADBEEFull;

std::uint32_t quant_levels(QuantMode mode) noexcept;
std::uint32_t quant_values_per_word(QuantMode mode) noexcept;

// In-place normalised Walsh-Hadamard transform. REQUIRES: v.size() is a power of two.
void fwht_ref(std::span<double> v) noexcept;
// x <- H D x over the first P entries (x zero-padded by the caller).
void turbo_rotate(std::span<double> x, std::uint64_t seed) noexcept;
void turbo_unrotate(std::span<double> x, std::uint64_t seed) noexcept;

// Zero-copy view over serialised bytes (which must outlive it).
class TurboQuantView {
 public:
  static Result<TurboQuantView> from_bytes(std::span<const std::uint8_t> bytes);

  std::uint32_t n_weights() const noexcept { return n_; }
  std::uint32_t padded_len() const noexcept { return p_; }
  QuantMode mode() const noexcept { return mode_; }
  std::uint64_t seed() const noexcept { return seed_; }
  double scale() const noexcept { return scale_; }
  double offset() const noexcept { return offset_; }
  std::size_t n_words() const noexcept { return words_; }
  std::uint32_t code(std::size_t i) const noexcept;  // REQUIRES: i < padded_len()

  // w . x with x truncated or zero-padded to n_weights. Uses scratch (>= P
  // doubles) for the rotated features; returns NaN if scratch is too short.
  double dot(std::span<const double> x, std::span<double> scratch) const noexcept;
  // Allocating convenience.
  double dot(std::span<const double> x) const;
  std::vector<double> dequantize() const;
  // 8 n / (36 + 4 words): compression against f64 storage.
  double compression_ratio() const noexcept;

 private:
  std::uint32_t word(std::size_t w) const noexcept;
  std::span<const std::uint8_t> bytes_;
  std::uint32_t n_ = 0, p_ = 1;
  QuantMode mode_ = QuantMode::kBits8;
  std::uint64_t seed_ = 0;
  double scale_ = 0.0, offset_ = 0.0;
  std::size_t words_ = 0;
};

// Owning form: the serialised bytes plus a view over them.
class TurboQuantized {
 public:
  static TurboQuantized quantize(std::span<const double> w, QuantMode mode = QuantMode::kBits3_5,
                                 std::uint64_t seed = kTurboQuantDefaultSeed,
                                 TurboQuantRange range = TurboQuantRange::kMseClip);
  static TurboQuantized quantize_f32(std::span<const float> w, QuantMode mode);
  static Result<TurboQuantized> from_bytes(std::span<const std::uint8_t> bytes);

  TurboQuantized(const TurboQuantized& other) : bytes_(other.bytes_) { rebind(); }
  TurboQuantized& operator=(const TurboQuantized& other);
  TurboQuantized(TurboQuantized&&) noexcept = default;  // vector move keeps the buffer, so the view stays valid
  TurboQuantized& operator=(TurboQuantized&&) noexcept = default;

  const TurboQuantView& view() const noexcept { return view_; }
  std::span<const std::uint8_t> to_bytes() const noexcept { return bytes_; }
  double dot(std::span<const double> x, std::span<double> scratch) const noexcept { return view_.dot(x, scratch); }
  double dot(std::span<const double> x) const { return view_.dot(x); }
  std::vector<double> dequantize() const { return view_.dequantize(); }
  double compression_ratio() const noexcept { return view_.compression_ratio(); }

 private:
  TurboQuantized() = default;
  void rebind();
  std::vector<std::uint8_t> bytes_;
  TurboQuantView view_;
};

}  // namespace irithyll::nn
