// Seed 000's BCNorm tests, reimplemented.
#include "irithyll/nn/norm/bcnorm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::nn {
namespace {

double rms(const std::vector<double>& v) {
  double s = 0.0;
  for (double e : v) s += e * e;
  return std::sqrt(s / static_cast<double>(v.size()));
}

TEST(BCNorm, ScaleInvariantOverManyDraws) {
  Xorshift64 rng(9);
  for (int t = 0; t < 100; ++t) {
    const std::size_t d = 1 + rng.below(16);
    BCNorm n(d);
    std::vector<double> v(d), a(d), b(d);
    for (double& e : v) e = (rng.uniform() < 0.5 ? -1.0 : 1.0) * rng.uniform(0.5, 1.5);
    const double scale = std::pow(10.0, rng.uniform(0.0, 4.0));
    std::vector<double> s = v;
    for (double& e : s) e *= scale;
    n.normalize(v, a);
    n.normalize(s, b);
    // eps = 1e-6 perturbs 1/rms by at most eps / (2 mean(v^2)) <= 2e-6 relative here.
    for (std::size_t i = 0; i < d; ++i) EXPECT_NEAR(a[i], b[i], 3e-6 * std::fabs(a[i]));
  }
}

TEST(BCNorm, UnitRmsGammaScalesZeroAndEmpty) {
  BCNorm n(5);
  std::vector<double> v{1.0, -2.0, 3.0, -1.5, 0.5}, out(5);
  n.normalize(v, out);
  EXPECT_NEAR(rms(out), 1.0, 1e-6);
  for (double& g : n.gamma()) g = 2.0;
  std::vector<double> out2(5);
  n.normalize(v, out2);
  for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(out2[i], 2.0 * out[i]);
  std::vector<double> z(5, 0.0);
  n.normalize_inplace(z);
  for (double e : z) EXPECT_EQ(e, 0.0);
  std::vector<double> empty;
  n.normalize(empty, empty);  // no-op, no crash
  std::vector<double> inplace = v;
  for (double& g : n.gamma()) g = 1.0;
  n.normalize_inplace(inplace);
  EXPECT_EQ(inplace, out);  // in-place equals out-of-place
}

TEST(BCNorm, InvalidParametersAreAStatus) {
  EXPECT_EQ(BCNorm::make(0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(BCNorm::make(3, 0.0).is_ok());
  EXPECT_FALSE(BCNorm::make(3, -1.0).is_ok());
  EXPECT_FALSE(BCNorm::make(3, std::nan("")).is_ok());
  ASSERT_TRUE(BCNorm::make(3).is_ok());
  EXPECT_EQ(BCNorm::make(3)->eps(), 1e-6);
}

}  // namespace
}  // namespace irithyll::nn
