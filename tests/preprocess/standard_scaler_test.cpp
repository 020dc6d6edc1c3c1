#include <gtest/gtest.h>

#include <cmath>

#include "irithyll/core/rng.hpp"
#include "irithyll/preprocess/standard_scaler.hpp"

namespace irithyll {
namespace {

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
  double mean = 0;
  for (double v : xs) mean += v;
  mean /= xs.size();
  double var = 0;
  for (double v : xs) var += (v - mean) * (v - mean);
  var /= (xs.size() - 1);
  EXPECT_NEAR(s.mean(0), mean, 1e-10);
  EXPECT_NEAR(s.variance(0), var, 1e-9);
  EXPECT_NEAR(s.mean(1), -mean, 1e-10);
  const double row[2] = {mean + std::sqrt(var), 0.0};
  double out[2];
  s.transform_one(row, out);
  EXPECT_NEAR(out[0], 1.0, 1e-9);
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

TEST(StandardScaler, FewerThanTwoObservationsMapToZero) {
  StandardScaler s;
  const double row[1] = {7.0};
  s.learn_one(row);
  double out[1] = {99};
  s.transform_one(row, out);
  EXPECT_EQ(out[0], 0.0);
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
