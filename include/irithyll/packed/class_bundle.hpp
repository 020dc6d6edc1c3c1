// Multiclass bundle ("IRMC", version 1): a K-class SGBT model (one softmax
// committee per class) as ONE packed file. The single-ensemble formats
// (docs/format-f32.md, docs/format-i16.md) stay exactly as they were, so
// every version-1 file still loads; the bundle adds the class count and
// holds one complete version-1 file per class:
//
//   offset  size  field
//   0       4     magic, bytes "IRMC" (u32 0x434D5249)
//   4       2     u16 version = 1
//   6       2     u16 n_classes K (2..4096)
//   8       4*K   u32 byte length of each member
//   8+4K    ...   the K members back to back, each a whole IRIT or IR16 file;
//                 all of the same format
//
// Class k's score is member k's raw output; probabilities are the
// max-shifted softmax of the K scores (what SGBTLearner::predict_proba_one
// computes). Little-endian; trailing bytes after the last member are an
// error. Hosted only (the embedded views read the single formats).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll::packed {

inline constexpr std::uint32_t kMagicBundle = 0x434D5249u;  // bytes "IRMC"
inline constexpr std::uint16_t kBundleVersion = 1;

// True when the bytes start with the bundle magic.
bool is_class_bundle(std::span<const std::uint8_t> bytes);

// Packs K >= 2 member files (each already a valid IRIT or IR16 file).
Result<std::vector<std::uint8_t>> pack_class_bundle(std::span<const std::vector<std::uint8_t>> members);

class PackedClassBundle {
 public:
  static Result<PackedClassBundle> from_bytes(std::span<const std::uint8_t> bytes);
  static Result<PackedClassBundle> load(const std::string& path);

  std::size_t n_classes() const { return members_.size(); }
  const PackedModel& member(std::size_t k) const { return members_[k]; }
  PackedFormat format() const { return members_.front().format(); }
  // Features a row must have: the largest any member reads.
  std::size_t required_features() const;
  // REQUIRES: scores.size() == n_classes(); x has required_features() values.
  void predict_scores(std::span<const float> x, std::span<float> scores) const;
  // Softmax of the scores. REQUIRES: proba.size() == n_classes().
  void predict_proba(std::span<const float> x, std::span<float> proba) const;

 private:
  std::vector<PackedModel> members_;
};

}  // namespace irithyll::packed
