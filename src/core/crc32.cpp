#include "core/crc32.hpp"

#include <array>

namespace irithyll {

namespace {

// Slicing-by-8 (Kounavis and Berry, "A Systematic Approach to Building High
// Performance Software-Based CRC Generators", 2005): table k maps a byte to
// its CRC contribution k positions further on, so one step folds 8 bytes with
// 8 independent lookups instead of 8 dependent ones. Why: `irithyll serve`
// seals every key's model at each checkpoint, and the byte-at-a-time loop was
// two thirds of encoding a multi-megabyte SGBT.
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
  Tables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t k = 1; k < 8; ++k)
    for (std::uint32_t i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFu];
  return t;
}
constexpr Tables kTables = make_tables();

}  // namespace

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::uint8_t> data) noexcept {
  crc = ~crc;
  const std::uint8_t* p = data.data();
  std::size_t n = data.size();
  // Bytes are combined explicitly (no word loads), so the result does not
  // depend on the host's byte order or alignment.
  while (n >= 8) {
    const std::uint32_t lo = crc ^ (std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                                    std::uint32_t{p[3]} << 24);
    crc = kTables[7][lo & 0xFFu] ^ kTables[6][(lo >> 8) & 0xFFu] ^ kTables[5][(lo >> 16) & 0xFFu] ^
          kTables[4][lo >> 24] ^ kTables[3][p[4]] ^ kTables[2][p[5]] ^ kTables[1][p[6]] ^ kTables[0][p[7]];
    p += 8;
    n -= 8;
  }
  for (; n > 0; --n, ++p) crc = kTables[0][(crc ^ *p) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}

}  // namespace irithyll
