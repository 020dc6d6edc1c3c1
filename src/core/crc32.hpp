// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum that seals
// checkpoint files. Slicing-by-8 tables (crc32.cpp), several bytes per cycle.
#pragma once

#include <cstdint>
#include <span>

namespace irithyll {

// crc32(data) for a whole buffer; chain pieces with crc32_update(crc, piece)
// starting from crc = 0.
std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::uint8_t> data) noexcept;
inline std::uint32_t crc32(std::span<const std::uint8_t> data) noexcept { return crc32_update(0, data); }

}  // namespace irithyll
