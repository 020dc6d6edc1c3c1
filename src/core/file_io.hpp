// Whole-file reads and crash-safe writes. A write goes to "<path>.tmp.<pid>",
// is fsync'ed, then renamed over <path>, so a reader sees the old file or the
// new one, never a torn mix; on any failure the target is left untouched.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll {

Result<std::vector<std::uint8_t>> read_file_bytes(const std::string& path);
Status write_file_atomic(const std::string& path, std::span<const std::uint8_t> bytes);

}  // namespace irithyll
