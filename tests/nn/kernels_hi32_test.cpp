// The hi32-weight matvec: grid rounding, the packed form and its fast
// variants against the scalar reference, and the arithmetic against the f64
// matvec on the same (grid) values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "core/aligned.hpp"
#include "irithyll/core/rng.hpp"
#include "nn/kernels.hpp"
#include "nn/kernels_hi32.hpp"

namespace irithyll::nn {
namespace {

// Reordered f64 summation of n products of O(1) values: a few ulps per term.
constexpr double kKernelTol = 1e-12;

std::uint64_t low_word(double w) { return std::bit_cast<std::uint64_t>(w) & 0xffffffffULL; }

TEST(Hi32Grid, RoundsToNearestTiesToEven) {
  // 1 + 2^-20 is the grid value above 1; halfway between rounds to even (1).
  EXPECT_EQ(to_hi32(1.0), 1.0);
  EXPECT_EQ(to_hi32(1.0 + 0x1p-20), 1.0 + 0x1p-20);
  EXPECT_EQ(to_hi32(1.0 + 0x1p-21), 1.0);
  EXPECT_EQ(to_hi32(1.0 + 0x1p-21 + 0x1p-40), 1.0 + 0x1p-20);
  EXPECT_EQ(to_hi32(1.0 + 3 * 0x1p-21), 1.0 + 0x1p-19);  // tie, odd below: up to even
  EXPECT_EQ(to_hi32(-(1.0 + 0x1p-21 + 0x1p-40)), -(1.0 + 0x1p-20));
  // A carry out of the fraction bumps the exponent; past the largest grid
  // value it is inf, as any narrowing rounds.
  EXPECT_EQ(to_hi32(2.0 - 0x1p-30), 2.0);
  EXPECT_EQ(to_hi32(std::numeric_limits<double>::max()), std::numeric_limits<double>::infinity());
  EXPECT_EQ(to_hi32(-std::numeric_limits<double>::infinity()), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(to_hi32(0.0), 0.0);
  EXPECT_TRUE(std::signbit(to_hi32(-0.0)));
  // A NaN whose payload lies only in the low word stays NaN (truncation alone
  // would make it inf).
  const double low_nan = std::bit_cast<double>(0x7ff0000000000001ULL);
  ASSERT_TRUE(std::isnan(low_nan));
  EXPECT_TRUE(std::isnan(to_hi32(low_nan)));
  EXPECT_TRUE(std::isnan(from_hi32_word(hi32_word(to_hi32(low_nan)))));
  // Random values: on the grid, within half a grid step, idempotent, and
  // the word round-trips.
  Xorshift64 rng(11);
  for (int i = 0; i < 10000; ++i) {
    const double w = rng.normal() * std::exp2(static_cast<double>(rng.below(200)) - 100.0);
    const double g = to_hi32(w);
    EXPECT_EQ(low_word(g), 0u);
    EXPECT_LE(std::fabs(g - w), std::fabs(w) * 0x1p-21);
    EXPECT_EQ(to_hi32(g), g);
    EXPECT_EQ(from_hi32_word(hi32_word(g)), g);
  }
}

// The arithmetic is f64: the same values stored as doubles give the f64
// matvec's result to summation-order rounding, not f32's ~1e-7.
TEST(KernelsHi32, ArithmeticIsDouble) {
  Xorshift64 rng(12);
  constexpr std::size_t rows = 40, cols = 64;
  std::vector<double> m(rows * cols), x(cols), y(rows), yd(rows);
  for (double& e : m) e = to_hi32(rng.normal());
  // Inputs with bits beyond f32's mantissa: an f32 product would lose them.
  for (double& e : x) e = rng.normal() * (1.0 + 1e-12);
  AlignedVector<std::uint32_t> packed(hi32_packed_words(rows, cols));
  pack_hi32(m.data(), rows, cols, packed.data());
  matvec_hi32_packed(packed.data(), x.data(), y.data(), rows, cols);
  matvec_ref(m.data(), x.data(), yd.data(), rows, cols);
  for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(y[r], yd[r], kKernelTol * cols);
  const double w[6] = {1.5, -2.0, 0.25, 4.0, 0.0, -1.0};  // 2 x 3
  const double xs[3] = {1.0 + 0x1p-40, 1.0, -1.0};
  double out[2];
  AlignedVector<std::uint32_t> wp(hi32_packed_words(2, 3));
  pack_hi32(w, 2, 3, wp.data());
  matvec_hi32_packed(wp.data(), xs, out, 2, 3);
  EXPECT_EQ(out[0], 1.5 * (1.0 + 0x1p-40) - 2.0 - 0.25);
  EXPECT_EQ(out[1], 4.0 * (1.0 + 0x1p-40) + 1.0);
}

// pack_hi32 rounds what it packs: off-grid input gives the grid value's
// product, never a truncated one.
TEST(KernelsHi32, PackRoundsOntoTheGrid) {
  const double w[1] = {1.0 + 0x1p-21 + 0x1p-40};
  const double x[1] = {1.0};
  AlignedVector<std::uint32_t> wp(hi32_packed_words(1, 1));
  pack_hi32(w, 1, 1, wp.data());
  double y = 0.0;
  matvec_hi32_packed_ref(wp.data(), x, &y, 1, 1);
  EXPECT_EQ(y, 1.0 + 0x1p-20);
}

// The packed form against its reference and the row-major reference, on
// row counts that exercise 4-block passes, shorter last passes and the
// partial last block (whose padding must never reach y), and odd column
// counts (the zero-padded last pair).
TEST(KernelsHi32, PackedMatchesReference) {
  Xorshift64 rng(13);
  for (std::size_t rows : {0u, 1u, 5u, 8u, 9u, 16u, 24u, 31u, 32u, 33u, 40u, 64u, 320u, 332u}) {
    for (std::size_t cols : {0u, 1u, 2u, 3u, 16u, 63u, 64u, 70u}) {
      std::vector<double> m(rows * cols);
      for (double& e : m) e = to_hi32(rng.normal());
      AlignedVector<std::uint32_t> packed(hi32_packed_words(rows, cols));
      pack_hi32(m.data(), rows, cols, packed.data());
      std::vector<double> x(cols), ref(rows), pref(rows), y(rows + 1);
      for (double& e : x) e = rng.normal();
      matvec_ref(m.data(), x.data(), ref.data(), rows, cols);
      matvec_hi32_packed_ref(packed.data(), x.data(), pref.data(), rows, cols);
      for (std::size_t r = 0; r < rows; ++r) EXPECT_EQ(pref[r], ref[r]);  // same order, same bits
      using Fn = void (*)(const std::uint32_t*, const double*, double*, std::size_t, std::size_t) noexcept;
      for (Fn f : {Fn{&matvec_hi32_packed}, Fn{&matvec_hi32_packed_avx2_kernel}, Fn{&matvec_hi32_packed_avx512_kernel}}) {
        std::fill(y.begin(), y.end(), -7.0);
        f(packed.data(), x.data(), y.data(), rows, cols);
        for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(y[r], ref[r], kKernelTol * cols) << rows << "x" << cols;
        EXPECT_EQ(y[rows], -7.0) << "wrote past the last row";
      }
    }
  }
}

// inf and NaN weights propagate as in the f64 product.
TEST(KernelsHi32, NonFiniteWeightsPropagate) {
  const double w[4] = {std::numeric_limits<double>::infinity(), 0.0, std::numeric_limits<double>::quiet_NaN(), 1.0};
  const double x[2] = {1.0, 2.0};
  AlignedVector<std::uint32_t> wp(hi32_packed_words(2, 2));
  pack_hi32(w, 2, 2, wp.data());
  using Fn = void (*)(const std::uint32_t*, const double*, double*, std::size_t, std::size_t) noexcept;
  for (Fn f : {Fn{&matvec_hi32_packed_ref}, Fn{&matvec_hi32_packed_avx2_kernel}, Fn{&matvec_hi32_packed_avx512_kernel}}) {
    double y[2] = {0.0, 0.0};
    f(wp.data(), x, y, 2, 2);
    EXPECT_EQ(y[0], std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(y[1]));
  }
}

TEST(KernelsHi32, BackendNamed) {
  const std::string b = hi32_backend();
  EXPECT_TRUE(b == "avx512" || b == "avx2" || b == "scalar");
}

}  // namespace
}  // namespace irithyll::nn
