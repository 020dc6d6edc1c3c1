// The standardiser's AVX loops give the same bits as the plain ones, on
// ordinary values and on the hostile ones each branch exists for: missing
// values (NaN, +-inf), sums that overflow, zero weights, spreads under
// 1e-150, clamped z-scores, and lengths whose last block overlaps the one
// before it.
#include "linear/standardizer_kernels.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/cpu_features.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll::linear_detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Stats {
  explicit Stats(std::size_t n) : w(n, 0.0), mean(n, 0.0), m2(n, 0.0), inv(n, 0.0) {}
  StandardizerArrays arrays() { return {w.data(), mean.data(), m2.data(), inv.data()}; }
  std::vector<double> w, mean, m2, inv;
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Mostly ordinary values, with every hostile kind mixed in.
double draw(Xorshift64& rng, std::size_t feature) {
  const double u = rng.uniform();
  if (u < 0.05) return kNaN;
  if (u < 0.07) return rng.uniform() < 0.5 ? kInf : -kInf;
  if (u < 0.10) return (rng.uniform() < 0.5 ? 1.0 : -1.0) * 1.7e308;  // overflows the sums
  if (u < 0.13) return 1e-200 * rng.normal();                          // spread under 1e-150
  if (u < 0.15) return 0.0;
  if (feature % 3 == 2) return 5.0;  // constant feature: sd stays 0
  return 1e3 * rng.normal() + static_cast<double>(feature);
}

double draw_weight(Xorshift64& rng) {
  const double u = rng.uniform();
  if (u < 0.05) return 0.0;
  if (u < 0.08) return 1e300;
  return u < 0.5 ? 1.0 : 2.0 * rng.uniform();
}

using Learn = void (*)(const double*, double, const StandardizerArrays&, std::size_t) noexcept;
using Transform = void (*)(const double*, const double*, const double*, double*, std::size_t) noexcept;

// Runs ref and candidate side by side over a stream; every statistic and
// z-score must match bit for bit after every step.
void expect_same_as_ref(Learn learn, Transform transform, std::size_t min_n) {
  for (std::size_t n : {1u, 3u, 4u, 5u, 8u, 11u, 16u}) {
    if (n < min_n) continue;
    Xorshift64 rng(1000 + n);
    Stats ref(n), got(n);
    std::vector<double> x(n), z_ref(n), z_got(n);
    for (int step = 0; step < 3000; ++step) {
      for (std::size_t j = 0; j < n; ++j) x[j] = draw(rng, j);
      const double weight = draw_weight(rng);
      standardizer_transform_ref(x.data(), ref.mean.data(), ref.inv.data(), z_ref.data(), n);
      transform(x.data(), got.mean.data(), got.inv.data(), z_got.data(), n);
      ASSERT_TRUE(same_bits(z_ref, z_got)) << "n " << n << " step " << step;
      standardizer_learn_ref(x.data(), weight, ref.arrays(), n);
      learn(x.data(), weight, got.arrays(), n);
      ASSERT_TRUE(same_bits(ref.w, got.w) && same_bits(ref.mean, got.mean) && same_bits(ref.m2, got.m2) &&
                  same_bits(ref.inv, got.inv))
          << "n " << n << " step " << step;
    }
  }
}

TEST(StandardizerKernels, DispatchedLoopsMatchTheReference) {
  expect_same_as_ref(standardizer_learn, standardizer_transform, 1);
}

#if defined(__x86_64__)
TEST(StandardizerKernels, AvxLoopsMatchTheReference) {
  if (!cpu_has_avx2()) GTEST_SKIP() << "this CPU has no AVX2; the AVX loops are not used here";
  expect_same_as_ref(standardizer_learn_avx, standardizer_transform_avx, 4);  // they need n >= 4
}
#endif

// The branches the stream above relies on are really taken.
TEST(StandardizerKernels, OverflowResetsAndMissingValuesAreKept) {
  Stats s(4);
  const double first[] = {1.0, 2.0, 3.0, 4.0};
  standardizer_learn(first, 1.0, s.arrays(), 4);
  const double second[] = {kNaN, 1.7e308, -kInf, 6.0};
  standardizer_learn(second, 1.0, s.arrays(), 4);
  EXPECT_EQ(s.w[0], 1.0);  // missing: untouched
  EXPECT_EQ(s.mean[0], 1.0);
  EXPECT_EQ(s.w[1], 0.0);  // the m2 sum overflowed: feature 1 starts again
  EXPECT_EQ(s.inv[1], 0.0);
  const double third[] = {3.0, -1.7e308, 5.0, 8.0};
  standardizer_learn(third, 1.0, s.arrays(), 4);
  EXPECT_EQ(s.w[1], 1.0);
  EXPECT_EQ(s.w[2], 2.0);
  EXPECT_EQ(s.mean[3], 6.0);
  EXPECT_GT(s.inv[3], 0.0);
  double z[4];
  const double far[] = {1e300, kNaN, 4.0, -1e300};
  standardizer_transform(far, s.mean.data(), s.inv.data(), z, 4);
  EXPECT_EQ(z[0], 1e6);  // clamped
  EXPECT_EQ(z[1], 0.0);  // missing
  EXPECT_EQ(z[3], -1e6);
}

}  // namespace
}  // namespace irithyll::linear_detail
