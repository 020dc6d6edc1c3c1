// Packed tree-ensemble formats: byte layouts, constants, error codes and the
// little-endian load helpers shared by the f32 ("IRIT") and int16 ("IR16")
// readers. Prose description: docs/format-f32.md and docs/format-i16.md.
//
// FREESTANDING: this header (and view.hpp / src/packed/view.cpp) includes
// nothing beyond <cstdint>/<cstddef>, uses no heap, no exceptions and no RTTI,
// so the reader and traversal build for bare-metal targets (embedded/).
//
// f32 format, version 1 (all little-endian):
//   0            header (16 B): u32 magic 0x54495249 ("IRIT"), u16 version,
//                u16 n_trees, u16 n_features, u16 reserved, f32 base_prediction
//   16           tree table: n_trees x { u32 n_nodes, u32 byte offset of the
//                tree's node 0 from the start of the node area (multiple of 12) }
//   16+8*nt      nodes, 12 B each: f32 value (threshold, or leaf value with the
//                learning rate baked in), u32 children (left | right << 16,
//                tree-local), u16 feature_flags (bit 15 leaf, bits 0-14
//                feature), u16 reserved
// int16 format, version 1:
//   0            the same 16-byte header with magic 0x36315249 ("IR16")
//   16           f32 leaf_scale
//   20           f32 feature_scales[n_features]
//   20+4*nf      tree table (offsets are multiples of 8)
//   20+4*nf+8*nt nodes, 8 B each: i16 value, u16 feature_flags, u32 children
// Routing in both: right when feature > threshold, else left (NaN goes left).
//
// Thread safety: everything here is pure.
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::packed {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the packed readers load fields with memcpy and assume a little-endian host"
#endif

inline constexpr std::uint32_t kMagicF32 = 0x54495249u;  // bytes "IRIT"
inline constexpr std::uint32_t kMagicI16 = 0x36315249u;  // bytes "IR16" (not 0x49523136)
inline constexpr std::uint16_t kFormatVersion = 1;
inline constexpr std::size_t kHeaderBytes = 16;
inline constexpr std::size_t kTreeEntryBytes = 8;
inline constexpr std::size_t kNodeBytesF32 = 12;
inline constexpr std::size_t kNodeBytesI16 = 8;
inline constexpr std::uint16_t kLeafFlag = 0x8000u;
inline constexpr std::uint16_t kFeatureMask = 0x7FFFu;
inline constexpr std::uint32_t kMaxNodesPerTree = 65535;  // child indices are u16
inline constexpr std::uint32_t kMaxFeatures = 32768;      // feature index has 15 bits

// Why a buffer was refused. The first seven mirror the Rust library reader and are
// reported in its order; the rest are checks it lacks.
enum class FormatError : std::uint8_t {
  kOk = 0,
  kTruncated,
  kUnaligned,  // never returned by our readers (we read with memcpy); kept for code parity
  kBadMagic,
  kUnsupportedVersion,
  kMisalignedTreeOffset,
  kInvalidNodeIndex,
  kInvalidFeatureIndex,
  // Ours, checked after all of the above:
  kNotATree,           // a child at or before its parent, or a node with two parents / none
  kScratchTooSmall,    // the caller's validation scratch is smaller than the largest tree
  kTooFewFeatures,     // predict called with fewer features than the model reads
  kBadScale,           // int16: a scale that is zero, negative, NaN or infinite
};

// A short, stable, human-readable reason ("buffer truncated", ...).
const char* format_error_message(FormatError e) noexcept;

// ---- little-endian loads (memcpy, so any alignment is fine) -------------------
inline std::uint16_t load_u16(const std::uint8_t* p) noexcept {
  std::uint16_t v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline std::uint32_t load_u32(const std::uint8_t* p) noexcept {
  std::uint32_t v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline std::int16_t load_i16(const std::uint8_t* p) noexcept {
  std::int16_t v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline float load_f32(const std::uint8_t* p) noexcept {
  float v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

// Rust's `f32 as i16`: truncate toward zero, saturate to [-32768, 32767], NaN
// to 0. A plain C++ cast is undefined outside the range; this never is.
inline std::int16_t saturating_trunc_i16(float v) noexcept {
  if (!(v == v)) return 0;
  if (v >= 32767.0f) return 32767;
  if (v <= -32768.0f) return -32768;
  return static_cast<std::int16_t>(v);  // in range: truncates toward zero
}

// Order-preserving map from f32 to i32 with the packed routing rule built in:
// for every float a and every non-NaN-threshold t, (a > t) == (key(a) > key(t)),
// -0 and +0 compare equal (both map to 0), a NaN feature maps below every
// threshold (it goes left) and a NaN threshold maps above every feature.
inline std::int32_t feature_key(float v) noexcept {
  if (!(v == v)) return INT32_MIN;
  std::uint32_t b;
  const float canon = v + 0.0f;  // -0 -> +0
  __builtin_memcpy(&b, &canon, sizeof b);
  const std::int32_t s = static_cast<std::int32_t>(b);
  return s < 0 ? static_cast<std::int32_t>(b ^ 0x7FFFFFFFu) : s;
}
inline std::int32_t threshold_key(float t) noexcept {
  if (!(t == t)) return INT32_MAX;
  return feature_key(t);
}

}  // namespace irithyll::packed
