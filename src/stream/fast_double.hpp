// Internal: the common shape of a numeric CSV cell ("-12.345", "0.5e-3")
// read without a library call, exactly as std::from_chars reads it.
//
// A decimal with at most 19 digits whose integer value m fits in 53 bits,
// scaled by 10^e with |e| <= 22, is m * 10^e or m / 10^-e: both operands are
// exact doubles and IEEE arithmetic rounds the one operation correctly, so
// the result is the correctly rounded value of the text, the same double
// std::from_chars gives (Clinger 1990, "How to read floating point numbers
// accurately", the fast path). Anything else (more digits, a far exponent,
// "inf", "nan", "1e", trailing bytes) answers false and the caller asks
// std::from_chars, so the two accept and produce the same. This needs
// double arithmetic without extended precision (FLT_EVAL_METHOD == 0, as on
// x86-64 and AArch64); elsewhere every cell takes the library call.
#pragma once

#include <bit>
#include <cfloat>
#include <cstdint>
#include <cstring>

namespace irithyll::detail {

inline constexpr std::uint64_t kPow10Int[] = {1,         10,         100,         1000,       10000,
                                              100000,    1000000,    10000000,    100000000};

// When the n (1..8) bytes before end are all ASCII digits: their value in
// `value`, true. Reads the 8 bytes before end (the caller's cell has that
// many). The bytes are one little-endian word, the first in the lowest
// byte; the 8 - n bytes before the digits are replaced by '0' (leading
// zeros), and three multiply-shift steps sum pairs, quads, then the eight
// (10 a + b per byte pair, 100 a + b per pair of pairs, 10^4 a + b).
inline bool trailing_digits(const char* end, std::size_t n, std::uint64_t& value) {
  std::uint64_t w;
  std::memcpy(&w, end - 8, 8);
  if constexpr (std::endian::native != std::endian::little) return false;
  const std::uint64_t keep = n == 8 ? ~std::uint64_t{0} : ~((std::uint64_t{1} << (8 * (8 - n))) - 1);
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kZeros = 0x30 * kOnes;  // eight '0'
  w = (w & keep) | (kZeros & ~keep);  // the bytes before the digits read as '0'
  // A digit byte is 0x30-0x39: high nibble 3, and adding 6 leaves it 3 (a
  // byte whose sum carries out is not a digit, and fails here itself).
  if (((w & (0xF0 * kOnes)) ^ kZeros) | (((w + 6 * kOnes) & (0xF0 * kOnes)) ^ kZeros)) return false;
  std::uint64_t d = w & (0x0F * kOnes);
  d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FFull;
  d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFFull;
  d = d * 10000 + (d >> 32);
  value = d & 0xFFFFFFFFull;
  return true;
}

// The value of [begin, end) when it is a short plain decimal; false (value
// untouched) otherwise, including when the text is not a number at all.
inline bool parse_short_decimal(const char* begin, const char* end, double& value) {
#if FLT_EVAL_METHOD == 0
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr std::uint64_t kMaxExact = std::uint64_t{1} << 53;
  const char* p = begin;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  std::uint64_t m = 0;
  int digits = 0, fraction = 0;
  const char* const first = p;
  while (p < end && static_cast<unsigned>(*p - '0') < 10u) {
    m = m * 10 + static_cast<unsigned>(*p - '0');
    ++p;
  }
  digits = static_cast<int>(p - first);
  if (p < end && *p == '.') {
    ++p;
    const char* const f = p;
    // The usual cell ends in its fraction ("0.345584", "-12.5034"): when the
    // cell is 8 bytes or longer and its last 1-8 bytes are all digits, they
    // are read as one word.
    std::uint64_t tail = 0;
    const std::size_t n = static_cast<std::size_t>(end - f);
    if (end - begin >= 8 && n >= 1 && n <= 8 && trailing_digits(end, n, tail)) {
      m = m * kPow10Int[n] + tail;
      p = end;
    } else {
      while (p < end && static_cast<unsigned>(*p - '0') < 10u) {
        m = m * 10 + static_cast<unsigned>(*p - '0');
        ++p;
      }
    }
    fraction = static_cast<int>(p - f);
    digits += fraction;
  }
  if (digits == 0 || digits > 19) return false;  // 19 digits cannot overflow 64 bits
  int exponent = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool minus = p < end && *p == '-';
    if (p < end && (*p == '-' || *p == '+')) ++p;
    const char* const e = p;
    while (p < end && static_cast<unsigned>(*p - '0') < 10u && p - e < 4) {
      exponent = exponent * 10 + (*p - '0');
      ++p;
    }
    if (p == e) return false;  // "1e": from_chars stops before the 'e'
    if (minus) exponent = -exponent;
  }
  if (p != end) return false;
  exponent -= fraction;
  if (m > kMaxExact || exponent < -22 || exponent > 22) return false;
  double v = static_cast<double>(m);
  v = exponent < 0 ? v / kPow10[-exponent] : v * kPow10[exponent];
  value = negative ? -v : v;
  return true;
#else
  (void)begin;
  (void)end;
  (void)value;
  return false;
#endif
}

}  // namespace irithyll::detail
