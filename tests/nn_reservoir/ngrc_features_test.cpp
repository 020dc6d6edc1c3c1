#include "nn/reservoir/ngrc_features.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace irithyll::nn {
namespace {

TEST(DelayBuffer, NewestFirstAndReadiness) {
  DelayBuffer b(3, 2);
  EXPECT_TRUE(b.get(0).empty());
  for (int t = 1; t <= 5; ++t) {
    const double x[2] = {static_cast<double>(t), -static_cast<double>(t)};
    b.push(x);
    EXPECT_EQ(b.is_ready(), t >= 3);
    EXPECT_EQ(b.get(0)[0], t);
    if (t >= 2) {
      EXPECT_EQ(b.get(1)[1], -(t - 1));
    }
  }
  EXPECT_EQ(b.get(2)[0], 3.0);
  EXPECT_TRUE(b.get(3).empty());
  b.reset();
  EXPECT_EQ(b.size(), 0u);
}

TEST(PolynomialFeatures, DegreeTwoCountAndOrder) {
  PolynomialFeatures p(3, 2);
  ASSERT_EQ(p.output_dim(), 6u);
  const std::uint32_t expect[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
  for (std::size_t t = 0; t < 6; ++t) {
    EXPECT_EQ(p.term(t)[0], expect[t][0]);
    EXPECT_EQ(p.term(t)[1], expect[t][1]);
  }
  const double x[3] = {2, 3, 5};
  double out[6];
  p.transform(x, out);
  const double want[6] = {4, 6, 10, 9, 15, 25};
  for (int t = 0; t < 6; ++t) EXPECT_EQ(out[t], want[t]);
  EXPECT_EQ(PolynomialFeatures(4, 3).output_dim(), 20u);
  EXPECT_EQ(PolynomialFeatures::count(6, 2), 21u);
}

TEST(NgrcFeatures, LayoutMatchesGauthier) {
  NgrcConfig c;
  c.n_inputs = 1;
  c.k = 2;
  c.s = 2;
  NgrcFeatures f(c);
  ASSERT_EQ(f.n_features(), 1u + 2u + 3u);
  for (double v : {1.0, 2.0, 3.0}) f.push(std::span<const double>(&v, 1));
  std::vector<double> out(6), with(6);
  f.features(out);  // lin = [x_t, x_{t-2}] = [3, 1]
  const double want[6] = {1, 3, 1, 9, 3, 1};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]);
  const double next = 4.0;
  f.features_with(std::span<const double>(&next, 1), with);  // lin = [4, 2]
  const double want2[6] = {1, 4, 2, 16, 8, 4};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(with[i], want2[i]);
  EXPECT_FALSE((NgrcConfig{1, 0, 1, 2, true}.validate().is_ok()));
  EXPECT_FALSE((NgrcConfig{1, 2, 1, 1, true}.validate().is_ok()));
  EXPECT_FALSE((NgrcConfig{100, 64, 1, 4, true}.validate().is_ok()));
}

}  // namespace
}  // namespace irithyll::nn
