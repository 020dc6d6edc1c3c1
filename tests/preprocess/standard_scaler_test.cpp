#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/preprocess/standard_scaler.hpp"

namespace irithyll {
namespace {

// Mean and sample variance of xs by the textbook two passes.
std::pair<double, double> two_pass(const std::vector<double>& xs) {
  double mean = 0;
  for (double v : xs) mean += v;
  mean /= static_cast<double>(xs.size());
  double var = 0;
  for (double v : xs) var += (v - mean) * (v - mean);
  return {mean, var / static_cast<double>(xs.size() - 1)};
}

TEST(StandardScaler, WelfordMatchesTwoPassStatistics) {
  StandardScaler s;
  Xorshift64 rng(3);
  std::vector<double> xs;
  for (int i = 0; i < 1000; ++i) {
    const double v = rng.normal(5.0, 2.0);
    xs.push_back(v);
    const double row[2] = {v, -v};
    s.learn_one(row);
  }
  const auto [mean, var] = two_pass(xs);
  EXPECT_NEAR(s.mean(0), mean, 1e-10);
  EXPECT_NEAR(s.variance(0), var, 1e-9);
  EXPECT_NEAR(s.mean(1), -mean, 1e-10);
  // transform_one counts the transformed value in: two-pass statistics of
  // the 1,000 values plus the transformed one.
  const double v = mean + std::sqrt(var);
  xs.push_back(v);
  const auto [mean2, var2] = two_pass(xs);
  const double row[2] = {v, 0.0};
  double out[2];
  s.transform_one(row, out);
  EXPECT_NEAR(out[0], (v - mean2) / std::sqrt(var2), 1e-9);
  EXPECT_NEAR(s.mean(0), mean, 1e-10);  // transforming stored nothing
}

TEST(StandardScaler, TransformEqualsLearningTheValueThenStandardizing) {
  StandardScaler a;
  Xorshift64 rng(11);
  for (int i = 0; i < 50; ++i) {
    const double row[1] = {rng.normal(-3.0, 0.5)};
    a.learn_one(row);
  }
  const double x[1] = {1.25};
  double got[1];
  a.transform_one(x, got);
  StandardScaler b = a;
  b.learn_one(x);
  EXPECT_NEAR(got[0], (x[0] - b.mean(0)) / std::sqrt(b.variance(0)), 1e-12);
}

// Values such as exp(-(month - m)^2) for a far month: two rows 1e-53 and
// 1e-44 give a variance near 1e-88, against which the past statistics alone
// would put 1e-35 at z = 3.5e8.
TEST(StandardScaler, TinySpreadCannotMakeAnUnboundedValue) {
  StandardScaler s;
  const double values[] = {1e-53, 1e-44, 1e-35, 1e-28, 1e-300, 1e300, -1e300, 0.0};
  double n = 0;
  for (double v : values) {
    const double row[1] = {v};
    double z[1];
    s.transform_one(row, z);
    n += 1;  // values seen, the transformed one included
    ASSERT_TRUE(std::isfinite(z[0])) << v;
    EXPECT_LE(std::abs(z[0]), std::sqrt(n)) << v;
    s.learn_one(row);
  }
  // The third value is the one that past statistics alone blew up:
  // (n - 1) / sqrt(n) with n = 3 is its bound, and it is near it.
  StandardScaler t;
  for (double v : {1e-53, 1e-44}) {
    const double row[1] = {v};
    t.learn_one(row);
  }
  const double third[1] = {1e-35};
  double z[1];
  t.transform_one(third, z);
  EXPECT_NEAR(z[0], 2.0 / std::sqrt(3.0), 1e-6);
}

TEST(StandardScaler, ValuesAtTheEndsOfTheDoubleRangeStayBounded) {
  const double bound = 2.0 / std::sqrt(3.0);  // (n - 1) / sqrt(n), n = 3
  double z[1];
  StandardScaler a;  // 0, 1 seen: the square of 1.7e308 overflows
  for (double v : {0.0, 1.0}) {
    const double row[1] = {v};
    a.learn_one(row);
  }
  for (double v : {1.7e308, -1.7e308}) {
    const double row[1] = {v};
    a.transform_one(row, z);
    EXPECT_NEAR(z[0], std::copysign(bound, v), 1e-12) << v;
  }
  StandardScaler b;  // -1e308 twice: 1e308 - mean overflows itself
  for (int i = 0; i < 2; ++i) {
    const double row[1] = {-1e308};
    b.learn_one(row);
  }
  const double far[1] = {1e308};
  b.transform_one(far, z);
  EXPECT_NEAR(z[0], bound, 1e-12);
  StandardScaler c;  // 0 twice: a subnormal difference is still a difference
  for (int i = 0; i < 2; ++i) {
    const double row[1] = {0.0};
    c.learn_one(row);
  }
  const double tiny[1] = {5e-324};
  c.transform_one(tiny, z);
  EXPECT_NEAR(z[0], bound, 1e-12);
}

// Property: on random streams (heavy-tailed, tiny or huge scales, runs of
// repeated values) every z satisfies |z| <= (n - 1) / sqrt(n) < sqrt(n),
// n counting the transformed value.
TEST(StandardScaler, PropertyZIsBoundedBySqrtN) {
  Xorshift64 rng(2026);
  for (int stream = 0; stream < 200; ++stream) {
    StandardScaler s;
    // Scales from subnormal to where squares overflow.
    const double scale = std::pow(10.0, rng.uniform(-315.0, 300.0));
    double n = 0;
    for (int i = 0; i < 60; ++i) {
      double v = rng.normal(0.0, 1.0);
      if (rng.uniform() < 0.2) v = std::pow(v, 5);  // heavy tail
      if (rng.uniform() < 0.3) v = 1.0;             // repeats
      v *= scale;
      const double row[1] = {v};
      double z[1];
      s.transform_one(row, z);
      n += 1;
      ASSERT_TRUE(std::isfinite(z[0])) << "stream " << stream << " row " << i;
      ASSERT_LE(std::abs(z[0]), (n - 1) / std::sqrt(n) * (1 + 1e-12)) << "stream " << stream << " row " << i;
      s.learn_one(row);
    }
  }
}

TEST(StandardScaler, NonFiniteInputsAreNotLearnedAndStayMissing) {
  StandardScaler s;
  for (double v : {1.0, 2.0, 3.0}) {
    const double row[1] = {v};
    s.learn_one(row);
  }
  const double bad[1] = {std::numeric_limits<double>::infinity()};
  s.learn_one(bad);
  EXPECT_DOUBLE_EQ(s.mean(0), 2.0);
  EXPECT_DOUBLE_EQ(s.variance(0), 1.0);
  double out[1];
  s.transform_one(bad, out);
  EXPECT_TRUE(std::isnan(out[0]));
}

TEST(StandardScaler, NoSpreadMapsToZero) {
  StandardScaler s;
  const double row[1] = {7.0};
  double out[1] = {99};
  s.transform_one(row, out);  // nothing seen
  EXPECT_EQ(out[0], 0.0);
  s.learn_one(row);
  out[0] = 99;
  s.transform_one(row, out);  // 7 and 7
  EXPECT_EQ(out[0], 0.0);
  const double other[1] = {9.0};
  s.transform_one(other, out);  // 7 and 9: 9 is one sample sd / sqrt(2) above their mean
  EXPECT_NEAR(out[0], 1.0 / std::sqrt(2.0), 1e-15);
}

TEST(StandardScaler, EncodeDecodeRoundTrip) {
  StandardScaler a;
  for (double v : {1.0, 4.0, 9.0}) {
    const double row[1] = {v};
    a.learn_one(row);
  }
  ByteWriter w;
  a.encode(w);
  StandardScaler b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok());
  EXPECT_EQ(a.mean(0), b.mean(0));
  EXPECT_EQ(a.variance(0), b.variance(0));
  ByteReader shortr(std::span(w.data().data(), w.size() - 3));
  StandardScaler c;
  EXPECT_FALSE(c.decode(shortr).is_ok());
}

}  // namespace
}  // namespace irithyll
