// Model files (checkpoints): the complete training state of any learner in one
// versioned, checksummed container.
//
//   offset  size  field
//   0       4     magic "IRCK"
//   4       4     u32 container version (kCheckpointVersion)
//   8       8     u64 payload length in bytes
//   16      4     u32 CRC-32 of the payload
//   20      4     u32 reserved, 0
//   24      n     payload: str(learner name), then the learner's encode(),
//                 then optionally the data schema (tag "SCHM", see below)
//
// All integers little-endian. Prose: docs/format-checkpoint.md. A file that
// is truncated, corrupted, of another version or for an unknown learner is
// refused with a message that says which; nothing is modified on refusal.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll {

inline constexpr std::uint32_t kCheckpointMagic = 0x4B435249u;  // bytes "IRCK"
inline constexpr std::uint32_t kCheckpointVersion = 1;
inline constexpr std::size_t kCheckpointHeaderBytes = 24;

std::vector<std::uint8_t> seal_checkpoint(std::span<const std::uint8_t> payload);
// Validates the container and returns a view of the payload inside `bytes`.
Result<std::span<const std::uint8_t>> open_checkpoint(std::span<const std::uint8_t> bytes);

// The schema of the data a model was trained on (feature and class names),
// so that predict maps columns by name and speaks class names. Optional: a
// file without it (older files, in-memory training) decodes as before.
inline constexpr std::uint32_t kSchemaTag = 0x4D484353u;  // bytes "SCHM"

std::vector<std::uint8_t> encode_learner(const Learner& learner, const Schema* schema = nullptr);
// `schema`, when given, receives the stored schema (left empty if none).
Result<std::unique_ptr<Learner>> decode_learner(std::span<const std::uint8_t> bytes, Schema* schema = nullptr);

Status save_learner(const std::string& path, const Learner& learner, const Schema* schema = nullptr);
Result<std::unique_ptr<Learner>> load_learner(const std::string& path, Schema* schema = nullptr);

}  // namespace irithyll
