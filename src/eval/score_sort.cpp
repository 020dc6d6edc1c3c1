#include "eval/score_sort.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace irithyll::eval_detail {
namespace {

constexpr int kDigitBits = 11;
constexpr int kPasses = 6;  // 66 bits cover the 64
constexpr std::size_t kBins = std::size_t{1} << kDigitBits;
constexpr std::uint64_t kDigitMask = kBins - 1;
// Below this a comparison sort wins over six histograms of 2048 bins.
constexpr std::size_t kMinRadix = 1024;

// Unsigned keys in the values' order: a positive value's sign bit is set,
// a negative value's bits are all flipped (larger magnitude, smaller key).
std::uint64_t score_key(double v) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
  return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
}

double score_value(std::uint64_t key) noexcept {
  return std::bit_cast<double>((key >> 63) != 0 ? key & ~(std::uint64_t{1} << 63) : ~key);
}

}  // namespace

void sort_scores_ref(std::span<double> values) { std::sort(values.begin(), values.end()); }

void sort_scores(std::span<double> values, std::vector<std::uint64_t>& scratch) {
  const std::size_t n = values.size();
  // (Counts are 32-bit: 4 billion buffered scores go the plain way.)
  if (n < kMinRadix || n > UINT32_MAX) return sort_scores_ref(values);
  scratch.resize(2 * n);
  std::uint64_t* a = scratch.data();
  std::uint64_t* b = scratch.data() + n;
  std::array<std::array<std::uint32_t, kBins>, kPasses> counts{};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t k = score_key(values[i]);
    a[i] = k;
    for (int p = 0; p < kPasses; ++p) ++counts[p][(k >> (p * kDigitBits)) & kDigitMask];
  }
  for (int p = 0; p < kPasses; ++p) {
    auto& c = counts[p];
    const int shift = p * kDigitBits;
    if (c[(a[0] >> shift) & kDigitMask] == n) continue;  // one digit everywhere: order unchanged
    std::uint32_t sum = 0;
    for (std::uint32_t& x : c) {
      const std::uint32_t here = x;
      x = sum;
      sum += here;
    }
    // Stable scatter: keys equal in this digit keep the order the lower
    // digits gave them.
    for (std::size_t i = 0; i < n; ++i) b[c[(a[i] >> shift) & kDigitMask]++] = a[i];
    std::swap(a, b);
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = score_value(a[i]);
}

}  // namespace irithyll::eval_detail
