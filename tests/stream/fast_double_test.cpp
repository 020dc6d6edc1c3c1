// The inline decimal reader gives exactly what std::from_chars gives, on
// the cells it accepts, and declines everything else.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "irithyll/core/rng.hpp"
#include "stream/fast_double.hpp"

namespace irithyll::detail {
namespace {

// True when the fast path declines s, or reads it bit for bit as std::from_chars does, consuming it whole.
bool agrees(const std::string& s) {
  double fast = 0.0;
  if (!parse_short_decimal(s.data(), s.data() + s.size(), fast)) return true;
  double lib = 0.0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), lib);
  return ptr == s.data() + s.size() && ec == std::errc() && std::memcmp(&fast, &lib, sizeof fast) == 0;
}

double read(const std::string& s) {
  double v = std::nan("");
  EXPECT_TRUE(parse_short_decimal(s.data(), s.data() + s.size(), v)) << s;
  return v;
}

TEST(FastDouble, CommonCells) {
  EXPECT_EQ(read("0.345584"), 0.345584);
  EXPECT_EQ(read("-12.5"), -12.5);
  EXPECT_EQ(read("5."), 5.0);
  EXPECT_EQ(read(".5"), 0.5);
  EXPECT_EQ(read("1e5"), 1e5);
  EXPECT_EQ(read("1.5E-3"), 1.5e-3);
  EXPECT_EQ(read("0.05644299999999999"), 0.05644299999999999);
  EXPECT_TRUE(std::signbit(read("-0.0")));
}

TEST(FastDouble, DeclinesWhatItCannotReadExactly) {
  for (const char* s : {"", "-", ".", "1e", "1e+", ".e5", "+1", "1x", "inf", "nan", "1,5", "9007199254740993",
                        "12345678901234567890", "1e23", "1e-23", "1e00005", "--1", " 1"}) {
    double v = 7.0;
    EXPECT_FALSE(parse_short_decimal(s, s + std::strlen(s), v)) << s;
    EXPECT_EQ(v, 7.0);
  }
}

TEST(FastDouble, MatchesFromCharsOnRandomText) {
  Xorshift64 rng(5);
  const char alphabet[] = "0123456789.-eE+";
  char buf[64];
  for (int t = 0; t < 200000; ++t) {
    std::string s;
    const std::size_t n = 1 + rng.next_u64() % 22;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t c = rng.next_u64() % 30;
      s += c < 15 ? alphabet[c % 10] : alphabet[c - 15];
    }
    ASSERT_TRUE(agrees(s)) << s;
    const double v = std::ldexp(static_cast<double>(rng.next_u64() >> 11), -static_cast<int>(rng.next_u64() % 60));
    const int precision = 1 + static_cast<int>(rng.next_u64() % 18);
    std::snprintf(buf, sizeof buf, "%.*f", precision % 12, v);
    ASSERT_TRUE(agrees(buf)) << buf;
    std::snprintf(buf, sizeof buf, "%.*g", precision, -v);
    ASSERT_TRUE(agrees(buf)) << buf;
  }
}

}  // namespace
}  // namespace irithyll::detail
