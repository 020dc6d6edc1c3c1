#include "nn/primitives.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::nn {
namespace {

TEST(Primitives, SoftplusTailsAndSigmoidExtremes) {
  EXPECT_DOUBLE_EQ(softplus(25.0), 25.0);
  EXPECT_DOUBLE_EQ(softplus(-25.0), std::exp(-25.0));
  EXPECT_NEAR(softplus(0.0), std::log(2.0), 1e-15);
  EXPECT_DOUBLE_EQ(sigmoid(1000.0), 1.0);
  EXPECT_DOUBLE_EQ(sigmoid(-1000.0), 0.0);
  EXPECT_DOUBLE_EQ(sigmoid(0.0), 0.5);
}

TEST(Primitives, SoftplusSoftmaxMixIsADistribution) {
  Xorshift64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> x(1 + rng.below(40)), out(x.size());
    for (double& e : x) e = rng.normal() * 10.0;
    softplus_softmax_mix(x, 0.5 + rng.uniform() * 3.0, out);
    double s = 0.0;
    for (double e : out) {
      EXPECT_GE(e, 0.0);
      s += e;
    }
    EXPECT_NEAR(s, 1.0, 1e-12);
  }
}

TEST(Primitives, SoftplusSoftmaxMixSpecialCases) {
  std::vector<double> z(5, 0.0), out(5);
  softplus_softmax_mix(z, 1.0, out);
  for (double e : out) EXPECT_NEAR(e, 0.2, 1e-15);
  std::vector<double> one{3.7}, o1(1);
  softplus_softmax_mix(one, 1.0, o1);
  EXPECT_DOUBLE_EQ(o1[0], 1.0);
  std::vector<double> mono{-1.0, 0.0, 1.0, 2.0}, om(4);
  softplus_softmax_mix(mono, 1.0, om);
  for (int i = 0; i < 3; ++i) EXPECT_LT(om[i], om[i + 1]);
  softplus_softmax_mix(mono, 1000.0, om);
  for (double e : om) EXPECT_NEAR(e, 0.25, 0.01);
  std::vector<double> tiny{-1e6, -1e6}, ot(2);  // every term underflows: uniform limit
  softplus_softmax_mix(tiny, 1.0, ot);
  EXPECT_DOUBLE_EQ(ot[0], 0.5);
  // A subnormal total (terms near e^-710) once gave 1/total = inf and NaN weights.
  std::vector<double> sub{-712.0, -713.0, -2000.0}, os(3);
  softplus_softmax_mix(sub, 1.0, os);
  for (double e : os) EXPECT_TRUE(std::isfinite(e));
  EXPECT_NEAR(os[0] + os[1] + os[2], 1.0, 1e-12);
}

TEST(Primitives, TanhBound) {
  std::vector<double> v{-1e9, 0.0, 3.0, 1e300};
  tanh_inplace(v);
  for (double e : v) EXPECT_LE(std::fabs(e), 1.0);
  EXPECT_EQ(v[1], 0.0);
}

TEST(Primitives, L2NormDoesNotOverflow) {
  std::vector<double> v{3e200, 4e200};
  EXPECT_NEAR(l2_norm(v) / 5e200, 1.0, 1e-15);
  std::vector<double> z(3, 0.0);
  EXPECT_EQ(l2_norm(z), 0.0);
}

TEST(Welford, MeanVarianceAndWarmup) {
  WelfordNormalizer w(1);
  std::vector<double> out(1);
  const std::vector<double> first{1.0};
  w.update_and_normalize(first, out);
  EXPECT_EQ(out[0], 0.0);  // count < 2
  for (double v : {2.0, 3.0, 4.0, 5.0}) w.update(std::vector<double>{v});
  EXPECT_DOUBLE_EQ(w.mean(0), 3.0);
  EXPECT_DOUBLE_EQ(w.variance(0), 2.5);
  w.normalize(std::vector<double>{3.0 + std::sqrt(2.5)}, out);
  EXPECT_NEAR(out[0], 1.0, 1e-8);
  // Combined path equals the separate path; NaN is not counted.
  WelfordNormalizer a(2), b(2);
  std::vector<double> oa(2), ob(2);
  Xorshift64 rng(2);
  for (int i = 0; i < 100; ++i) {
    std::vector<double> x{rng.normal(), i == 50 ? std::nan("") : rng.normal()};
    a.update_and_normalize(x, oa);
    b.update(x);
    b.normalize(x, ob);
    EXPECT_EQ(oa, ob);
    EXPECT_TRUE(std::isfinite(oa[1]));
  }
  EXPECT_EQ(a.count(1), 99u);
  a.reset();
  EXPECT_EQ(a.count(0), 0u);
}

}  // namespace
}  // namespace irithyll::nn
