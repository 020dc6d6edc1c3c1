// The slicing-by-8 CRC-32 against the bit-at-a-time definition, over every
// length around the 8-byte step and over split updates.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/crc32.hpp"

namespace irithyll {
namespace {

std::uint32_t crc32_bitwise(const std::vector<std::uint8_t>& data) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::uint8_t b : data) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return ~c;
}

TEST(Crc32, MatchesTheBitwiseDefinitionAtEveryLengthAndSplit) {
  std::mt19937 rng(5);
  std::vector<std::uint8_t> data(300);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  for (std::size_t n = 0; n <= data.size(); ++n) {
    const std::vector<std::uint8_t> head(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n));
    const std::uint32_t want = crc32_bitwise(head);
    ASSERT_EQ(crc32(head), want) << "length " << n;
    const std::size_t cut = n / 3;  // chained pieces give the same checksum
    const std::uint32_t first = crc32_update(0, std::span(head).subspan(0, cut));
    ASSERT_EQ(crc32_update(first, std::span(head).subspan(cut)), want) << "length " << n << " split at " << cut;
  }
}

}  // namespace
}  // namespace irithyll
