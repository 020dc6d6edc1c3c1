// The optional metadata trailer of a packed model: the feature names, the
// target name, the task and the class names, so that a packed file read
// without its checkpoint still maps table columns by name and prints class
// names (docs/format-f32.md, "Metadata trailer").
//
// The trailer sits right after the last node of a version-1 file. The
// version-1 readers (view.cpp, and so the Cortex-M reader) check only that
// the nodes fit in the buffer, so they load a file with a trailer unchanged.
// In a multiclass bundle ("IRMC") the trailer is appended to member 0, inside
// that member's length, because the bundle reader refuses bytes after the
// last member; member 0's own reader again ignores it.
//
// Layout (little-endian): u32 magic "IRMD", u16 version 1, u16 task (0
// regression, 1 classification), u32 body_bytes (the bytes that follow, to
// the end of the file), then u32 n_features, n_features strings, the target
// string, u32 n_classes, n_classes strings; a string is u16 length + UTF-8.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll::packed {

inline constexpr std::uint32_t kMagicMetadata = 0x444D5249u;  // bytes "IRMD"
inline constexpr std::uint16_t kMetadataVersion = 1;

struct PackedMetadata {
  bool classification = false;
  std::vector<std::string> feature_names;
  std::string target_name;
  std::vector<std::string> class_names;  // classification only
};

// Appends the trailer to a version-1 file that has none. Names longer than
// 65535 bytes or more than 2^32 - 1 of them are refused.
Status append_metadata(std::vector<std::uint8_t>& file, const PackedMetadata& meta);

// The trailer of a validated model (bytes after its last node), nullopt when
// the file ends at its last node; a damaged trailer is an error.
Result<std::optional<PackedMetadata>> read_metadata(const PackedModel& model);

}  // namespace irithyll::packed
