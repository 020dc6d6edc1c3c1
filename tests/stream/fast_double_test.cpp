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

// Cells of 8 bytes or more ending in 1-8 fraction digits take the one-word
// read: it must accept them all and give from_chars' bits.
TEST(FastDouble, ReadsTrailingFractionsAsOneWord) {
  Xorshift64 rng(9);
  for (const char* whole : {"0", "-1", "-0", "12", "1234567", "-9876"}) {  // at most 15 digits in all
    for (int digits = 1; digits <= 8; ++digits) {
      for (int t = 0; t < 200; ++t) {
        std::string s = std::string(whole) + ".";
        for (int i = 0; i < digits; ++i) s += static_cast<char>('0' + rng.next_u64() % 10);
        if (s.size() < 8) s.insert(s[0] == '-' ? 1 : 0, 8 - s.size(), '0');
        double lib = 0.0;
        std::from_chars(s.data(), s.data() + s.size(), lib);
        const double fast = read(s);
        ASSERT_EQ(std::memcmp(&fast, &lib, sizeof fast), 0) << s;
      }
    }
  }
}

// The word read itself: the value of the last n bytes when all are digits;
// false when any of them is not, whatever the bytes before them hold.
TEST(FastDouble, TrailingDigitsChecksOnlyItsBytes) {
  Xorshift64 rng(13);
  for (int t = 0; t < 20000; ++t) {
    char word[8];
    for (char& c : word) c = static_cast<char>(rng.next_u64() % 256);
    const std::size_t n = 1 + rng.next_u64() % 8;
    std::uint64_t want = 0;
    for (std::size_t i = 8 - n; i < 8; ++i) {
      word[i] = static_cast<char>('0' + rng.next_u64() % 10);
      want = want * 10 + static_cast<std::uint64_t>(word[i] - '0');
    }
    std::uint64_t got = 0;
    ASSERT_TRUE(trailing_digits(word + 8, n, got));
    ASSERT_EQ(got, want);
    const std::size_t bad = 8 - n + rng.next_u64() % n;
    const char c = static_cast<char>(rng.next_u64() % 256);
    if (c >= '0' && c <= '9') continue;
    word[bad] = c;
    ASSERT_FALSE(trailing_digits(word + 8, n, got)) << "byte " << bad << " = " << static_cast<int>(c);
  }
}

}  // namespace
}  // namespace irithyll::detail
