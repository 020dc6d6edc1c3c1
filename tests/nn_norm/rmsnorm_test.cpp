#include "nn/norm/rmsnorm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::nn {
namespace {

TEST(RMSNorm, UnitRmsAndNoMeanCentering) {
  RMSNorm n(4, 1e-12);
  const std::vector<double> x{1.0, 2.0, 3.0, 4.0};
  std::vector<double> y(4);
  n.forward(x, y);
  double ss = 0.0, mean = 0.0;
  for (double e : y) {
    ss += e * e;
    mean += e;
  }
  EXPECT_NEAR(std::sqrt(ss / 4), 1.0, 1e-10);
  EXPECT_GT(mean, 1.0);  // LayerNorm would centre this to 0
  EXPECT_NEAR(y[0] / y[3], 0.25, 1e-14);
}

TEST(RMSNorm, ScaleInvarianceAndExtremes) {
  RMSNorm n(3);
  std::vector<double> a(3), b(3);
  n.forward(std::vector<double>{1e3, -2e3, 5e2}, a);
  n.forward(std::vector<double>{1e6, -2e6, 5e5}, b);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], 1e-9);
  n.forward(std::vector<double>{1e150, -1e150, 1e150}, a);
  for (double e : a) EXPECT_TRUE(std::isfinite(e));
  n.forward(std::vector<double>{0.0, 0.0, 0.0}, a);
  for (double e : a) EXPECT_EQ(e, 0.0);
  // Invalid parameters come back as a Status from the checked factory.
  EXPECT_EQ(RMSNorm::make(0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(RMSNorm::make(2, 0.0).is_ok());
  ASSERT_TRUE(RMSNorm::make(2).is_ok());
  EXPECT_EQ(RMSNorm::make(2)->dim(), 2u);
}

// Loss = sum_i c_i y_i with random c; analytic dx and dgamma vs central differences.
TEST(RMSNorm, BackwardMatchesFiniteDifferences) {
  constexpr double kH = 1e-6, kTol = 1e-7;
  Xorshift64 rng(17);
  for (int trial = 0; trial < 100; ++trial) {
    const std::size_t d = 1 + rng.below(12);
    RMSNorm n(d, 1e-5);
    for (double& g : n.gamma()) g = rng.normal();
    std::vector<double> x(d), c(d), y(d), dx(d);
    for (double& e : x) e = rng.normal() * (trial % 2 ? 0.1 : 3.0);
    for (double& e : c) e = rng.normal();
    auto loss = [&](RMSNorm& m, const std::vector<double>& in) {
      std::vector<double> out(d);
      m.forward(in, out);
      double s = 0.0;
      for (std::size_t i = 0; i < d; ++i) s += c[i] * out[i];
      return s;
    };
    n.forward(x, y);
    n.zero_grad();
    n.backward(c, dx);
    const std::vector<double> dgamma(n.grad_gamma().begin(), n.grad_gamma().end());
    for (std::size_t i = 0; i < d; ++i) {
      auto xp = x, xm = x;
      xp[i] += kH;
      xm[i] -= kH;
      EXPECT_NEAR(dx[i], (loss(n, xp) - loss(n, xm)) / (2 * kH), kTol) << "d=" << d << " i=" << i;
      const double g0 = n.gamma()[i];
      n.gamma()[i] = g0 + kH;
      const double lp = loss(n, x);
      n.gamma()[i] = g0 - kH;
      const double lm = loss(n, x);
      n.gamma()[i] = g0;
      EXPECT_NEAR(dgamma[i], (lp - lm) / (2 * kH), kTol);
    }
  }
}

TEST(RMSNorm, AdamFitsTargetScale) {
  AdamConfig cfg;
  cfg.lr = 0.05;
  RMSNorm n(4, 1e-5, cfg);
  const std::vector<double> target{2.0, -1.0, 0.5, 3.0};
  Xorshift64 rng(1);
  std::vector<double> x(4), y(4), dy(4), dx(4);
  double first = 0.0, last = 0.0;
  for (int it = 0; it < 500; ++it) {
    for (std::size_t i = 0; i < 4; ++i) x[i] = 1.0 + 0.1 * rng.normal();
    n.forward(x, y);
    double l = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
      const double want = target[i] * x[i] / n.last_rms();
      dy[i] = y[i] - want;
      l += 0.5 * dy[i] * dy[i];
    }
    if (it == 0) first = l;
    last = l;
    n.backward(dy, dx);
    n.apply_gradients();
  }
  EXPECT_LT(last, 0.01 * first);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(n.gamma()[i], target[i], 0.05);
}

TEST(Adam, SkipsNonFiniteGradients) {
  Adam a(2);
  std::vector<double> p{1.0, 2.0};
  const std::vector<double> g{std::nan(""), 1.0};
  a.step(p, g);
  EXPECT_EQ(p, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(a.steps(), 0u);
}

}  // namespace
}  // namespace irithyll::nn
