// Seed 000's BCNorm tests, reimplemented.
#include "nn/norm/bcnorm.hpp"

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

namespace irithyll::nn {
namespace {

// L = sum_i w_i out_i(v, gamma): backward(v, w) must give dL/dv and, when
// learnable, dL/dgamma; both against central differences, over random sizes,
// scales (including tiny v where eps matters) and gammas.
TEST(BCNorm, BackwardMatchesFiniteDifferences) {
  Xorshift64 rng(21);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t d = 1 + rng.below(12);
    BCNorm n(d);
    n.set_learnable(true);
    for (double& g : n.gamma()) g = rng.uniform(0.2, 2.0);
    const double scale = std::pow(10.0, rng.uniform(-3.5, 2.0));
    std::vector<double> v(d), w(d), dv(d), out(d);
    for (double& e : v) e = rng.normal() * scale;
    for (double& e : w) e = rng.normal();
    const auto loss = [&](const BCNorm& m, const std::vector<double>& x) {
      m.normalize(x, out);
      double l = 0.0;
      for (std::size_t i = 0; i < d; ++i) l += w[i] * out[i];
      return l;
    };
    n.backward(v, w, dv);
    for (std::size_t i = 0; i < d; ++i) {
      const double h = 1e-6 * std::max(scale, 1e-3);
      std::vector<double> p = v, q = v;
      p[i] += h;
      q[i] -= h;
      const double fd = (loss(n, p) - loss(n, q)) / (2 * h);
      EXPECT_NEAR(dv[i], fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "trial " << trial << " i " << i;
      BCNorm gp = n, gq = n;
      gp.gamma()[i] += 1e-6;
      gq.gamma()[i] -= 1e-6;
      const double fdg = (loss(gp, v) - loss(gq, v)) / 2e-6;
      EXPECT_NEAR(n.grad_gamma()[i], fdg, 1e-7 * std::max(1.0, std::fabs(fdg)));
    }
    // step: gamma -= lr dgamma, and the gradient is cleared.
    const std::vector<double> g0(n.gamma().begin(), n.gamma().end());
    const std::vector<double> dg(n.grad_gamma().begin(), n.grad_gamma().end());
    n.step(0.1);
    for (std::size_t i = 0; i < d; ++i) EXPECT_DOUBLE_EQ(n.gamma()[i], g0[i] - 0.1 * dg[i]);
    for (double e : n.grad_gamma()) EXPECT_EQ(e, 0.0);
  }
}

TEST(BCNorm, FixedGammaIgnoresSteps) {
  BCNorm n(3);
  std::vector<double> v{1.0, 2.0, -1.0}, dy{0.5, -1.0, 2.0}, dv(3);
  n.backward(v, dy, dv);
  for (double e : n.grad_gamma()) EXPECT_EQ(e, 0.0);
  n.step(1.0);
  for (double g : n.gamma()) EXPECT_EQ(g, 1.0);
  // A learning gamma trained to scale the output up: minimising -sum(out) grows gamma where v > 0.
  n.set_learnable(true);
  for (int t = 0; t < 10; ++t) {
    std::vector<double> minus_one(3, -1.0);
    n.backward(v, minus_one, dv);
    n.step(0.1);
  }
  EXPECT_GT(n.gamma()[0], 1.0);
  EXPECT_LT(n.gamma()[2], 1.0);
}

}  // namespace
}  // namespace irithyll::nn
