#include "nn/quant/turbo_quant.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::nn {
namespace {

std::vector<double> random_weights(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<double> w(n);
  for (double& v : w) v = rng.normal();
  return w;
}

TEST(TurboQuant, HadamardIsSelfInverseAndRotationPreservesDots) {
  Xorshift64 rng(1);
  std::vector<double> a(64), b(64);
  for (std::size_t i = 0; i < 64; ++i) a[i] = rng.normal(), b[i] = rng.normal();
  auto a2 = a;
  fwht_ref(a2);
  fwht_ref(a2);
  for (std::size_t i = 0; i < 64; ++i) EXPECT_NEAR(a2[i], a[i], 1e-12);
  double dot = 0.0, dot_rot = 0.0;
  for (std::size_t i = 0; i < 64; ++i) dot += a[i] * b[i];
  auto ra = a, rb = b;
  turbo_rotate(ra, 9);
  turbo_rotate(rb, 9);
  for (std::size_t i = 0; i < 64; ++i) dot_rot += ra[i] * rb[i];
  EXPECT_NEAR(dot, dot_rot, 1e-10);
  turbo_unrotate(ra, 9);
  for (std::size_t i = 0; i < 64; ++i) EXPECT_NEAR(ra[i], a[i], 1e-12);
}

TEST(TurboQuant, PackingRoundTripsEveryLevelIncludingPartialWords) {
  for (QuantMode mode : {QuantMode::kBits8, QuantMode::kBits3_5, QuantMode::kBits2_5}) {
    for (std::size_t n : {1u, 5u, 9u, 100u, 1000u}) {
      const auto w = random_weights(n, n);
      const auto q = TurboQuantized::quantize(w, mode, 3);
      const auto& v = q.view();
      EXPECT_EQ(v.padded_len(), std::bit_ceil(std::max<std::size_t>(n, 1)));
      std::uint32_t max_code = 0;
      for (std::size_t i = 0; i < v.padded_len(); ++i) max_code = std::max(max_code, v.code(i));
      if (n > 1) {  // the maximum maps to the top level (n = 1 is constant: mid code)
        EXPECT_EQ(max_code, quant_levels(mode) - 1);
      }
      // Dequantised values sit on the grid: offset + scale * code, within half a step after rotation back.
      const auto d = q.dequantize();
      ASSERT_EQ(d.size(), n);
    }
  }
}

// Error budgets (relative L2 error of the dequantised vector) per mode for
// the default MSE-clipped grid, over 20 random Gaussian vectors of 1024. The
// min..max grid would need about 0.01 / 0.25 / 0.60 here; the inventory's
// "10% / 20%" at 3.5 / 2.5 bits are not relative L2 errors (see the header
// and turbo_quant_error_test.cpp).
TEST(TurboQuant, ErrorBudgetsPerModeOverSeeds) {
  struct Budget {
    QuantMode mode;
    double rel_l2;
    double min_ratio;
  };
  for (const Budget b : {Budget{QuantMode::kBits8, 0.01, 7.5}, Budget{QuantMode::kBits3_5, 0.18, 13.0},
                         Budget{QuantMode::kBits2_5, 0.33, 19.0}}) {
    double worst = 0.0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const auto w = random_weights(1024, seed);
      const auto q = TurboQuantized::quantize(w, b.mode, seed);
      const auto d = q.dequantize();
      double num = 0.0, den = 0.0;
      for (std::size_t i = 0; i < w.size(); ++i) num += (d[i] - w[i]) * (d[i] - w[i]), den += w[i] * w[i];
      worst = std::max(worst, std::sqrt(num / den));
      EXPECT_GT(q.compression_ratio(), b.min_ratio);
      // Dot product from codes equals the dot with the dequantised weights.
      const auto x = random_weights(1024, seed + 100);
      double ref = 0.0;
      for (std::size_t i = 0; i < w.size(); ++i) ref += d[i] * x[i];
      EXPECT_NEAR(q.dot(x), ref, 1e-9 * (1.0 + std::fabs(ref)));
    }
    EXPECT_LT(worst, b.rel_l2) << "mode " << static_cast<int>(b.mode);
  }
}

TEST(TurboQuant, ConstantEmptyAndSmallVectors) {
  const std::vector<double> c(10, 0.7);
  const auto q = TurboQuantized::quantize(c, QuantMode::kBits8);
  for (double v : q.dequantize()) EXPECT_NEAR(v, 0.7, 0.05);
  const auto e = TurboQuantized::quantize(std::span<const double>(), QuantMode::kBits8);
  EXPECT_EQ(e.view().n_weights(), 0u);
  EXPECT_EQ(e.view().padded_len(), 1u);
  EXPECT_EQ(e.dot(std::span<const double>()), 0.0);
  // The inventory's case: 9 weights with features 1..9 within 25% at 3.5 bits.
  const std::vector<double> w = {0.5, -1.2, 0.3, 2.0, -0.7, 0.9, -0.1, 1.4, -1.8};
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  double exact = 0.0;
  for (std::size_t i = 0; i < 9; ++i) exact += w[i] * x[i];
  EXPECT_NEAR(TurboQuantized::quantize(w).dot(x), exact, 0.25 * std::fabs(exact));
  std::vector<double> short_scratch(8);  // P = 16
  EXPECT_TRUE(std::isnan(TurboQuantized::quantize(w).dot(x, short_scratch)));
}

TEST(TurboQuant, ViewIsZeroCopyAndRejectsMalformedHeaders) {
  const auto w = random_weights(100, 4);
  const auto q = TurboQuantized::quantize(w, QuantMode::kBits2_5, 77);
  const auto bytes = std::vector<std::uint8_t>(q.to_bytes().begin(), q.to_bytes().end());
  auto v = TurboQuantView::from_bytes(bytes);
  ASSERT_TRUE(v.is_ok());
  const auto x = random_weights(100, 5);
  EXPECT_EQ(v->dot(x), q.dot(x));
  EXPECT_EQ(v->seed(), 77u);
  EXPECT_EQ(bytes.size(), 36u + 4u * ((128 + 12) / 13));
  // Truncation at every length is refused.
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_FALSE(TurboQuantView::from_bytes(std::span<const std::uint8_t>(bytes.data(), cut)).is_ok()) << cut;
  auto patch_u32 = [&](std::size_t off, std::uint32_t val) {
    auto b = bytes;
    std::memcpy(&b[off], &val, 4);
    return b;
  };
  EXPECT_FALSE(TurboQuantView::from_bytes(patch_u32(4, 3)).is_ok());     // unknown mode
  EXPECT_FALSE(TurboQuantView::from_bytes(patch_u32(16, 96)).is_ok());   // not a power of two
  EXPECT_FALSE(TurboQuantView::from_bytes(patch_u32(0, 200)).is_ok());   // P = 128 < n = 200
  EXPECT_FALSE(TurboQuantView::from_bytes(patch_u32(16, 1u << 30)).is_ok());
  auto nan_scale = bytes;
  const double nan = NAN;
  std::memcpy(&nan_scale[20], &nan, 8);
  EXPECT_FALSE(TurboQuantView::from_bytes(nan_scale).is_ok());
  // Random corruption never crashes; accepted views give finite dots.
  Xorshift64 rng(3);
  for (int t = 0; t < 500; ++t) {
    auto b = bytes;
    b[rng.below(b.size())] ^= static_cast<std::uint8_t>(1 + rng.below(255));
    auto cv = TurboQuantView::from_bytes(b);
    if (cv.is_ok()) {
      EXPECT_TRUE(std::isfinite(cv->dot(x)));
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
