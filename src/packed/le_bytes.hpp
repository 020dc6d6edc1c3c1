// Internal: little-endian integer writers for the packed side files (the
// class bundle and the metadata block), whatever the host's byte order.
#pragma once

#include <cstdint>
#include <vector>

namespace irithyll::packed_detail {

inline void put_u16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}

inline void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace irithyll::packed_detail
