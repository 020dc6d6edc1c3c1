#include "nn/ssm/discretize.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/init.hpp"

namespace irithyll::nn {
namespace {

TEST(Discretize, ZohMatchesClosedFormAndSmallALimit) {
  const DiscreteReal z = zoh(-2.0, 0.3);
  EXPECT_NEAR(z.a_bar, std::exp(-0.6), 1e-15);
  EXPECT_NEAR(z.b_bar, (std::exp(-0.6) - 1.0) / -2.0, 1e-15);
  const DiscreteReal tiny = zoh(1e-14, 0.25);
  EXPECT_DOUBLE_EQ(tiny.b_bar, 0.25);
  // Continuity across the threshold: (e^{Delta a}-1)/a -> Delta.
  EXPECT_NEAR(zoh(1e-9, 0.25).b_bar, 0.25, 1e-9);
}

TEST(Discretize, ZohDeltaZeroIsIdentity) {
  for (double a : {-5.0, -0.5, 0.0, 1e-13}) {
    const DiscreteReal z = zoh(a, 0.0);
    EXPECT_EQ(z.a_bar, 1.0);
    EXPECT_EQ(z.b_bar, 0.0);
  }
}

TEST(Discretize, ComplexTustinReducesToRealBilinear) {
  Xorshift64 rng(7);
  for (int i = 0; i < 200; ++i) {
    const double a = rng.uniform(-10.0, 0.0), dt = rng.uniform(0.0, 2.0);
    const DiscreteReal r = bilinear(a, dt);
    const DiscreteComplex c = bilinear_complex(a, 0.0, dt);
    EXPECT_NEAR(c.a_re, r.a_bar, 1e-14);
    EXPECT_NEAR(c.b_re, r.b_bar, 1e-14);
    EXPECT_EQ(c.a_im, 0.0);
    EXPECT_EQ(c.b_im, 0.0);
  }
}

TEST(Discretize, ComplexTustinSatisfiesDefiningEquation) {
  // (1 - Delta a/2) abar == 1 + Delta a/2 for complex a.
  const double ar = -0.7, ai = 3.1, dt = 0.4;
  const DiscreteComplex c = bilinear_complex(ar, ai, dt);
  const double lr = 1.0 - 0.5 * dt * ar, li = -0.5 * dt * ai;
  EXPECT_NEAR(lr * c.a_re - li * c.a_im, 1.0 + 0.5 * dt * ar, 1e-14);
  EXPECT_NEAR(lr * c.a_im + li * c.a_re, 0.5 * dt * ai, 1e-14);
}

TEST(Discretize, ExpTrapezoidalLambdaOneIsExpEuler) {
  Xorshift64 rng(3);
  for (int i = 0; i < 200; ++i) {
    const double ar = -std::exp(rng.uniform(-3.0, 3.0)), ai = rng.uniform(-20.0, 20.0), dt = rng.uniform(0.0, 1.0);
    const ExpTrapezoidal e = exp_trapezoidal(ar, ai, dt, 1.0);
    EXPECT_EQ(e.beta_re, 0.0);
    EXPECT_EQ(e.beta_im, 0.0);
    EXPECT_EQ(e.gamma, dt);
  }
}

TEST(Discretize, ExpTrapezoidalLambdaHalfSplitsWeightEvenly) {
  // lambda = 1/2: gamma = Delta/2 and |beta| = (Delta/2)|alpha| (trapezoid rule
  // with the old endpoint carried through one step of decay).
  const ExpTrapezoidal e = exp_trapezoidal(-0.5, 2.0, 0.2, 0.5);
  EXPECT_DOUBLE_EQ(e.gamma, 0.1);
  EXPECT_NEAR(std::hypot(e.beta_re, e.beta_im), 0.1 * std::hypot(e.alpha_re, e.alpha_im), 1e-15);
  EXPECT_NEAR(e.beta_re, 0.1 * e.alpha_re, 1e-16);
  // The weights on the two endpoints sum to Delta when a -> 0 (quadrature of x dt).
  const ExpTrapezoidal z = exp_trapezoidal(0.0, 0.0, 0.2, 0.5);
  EXPECT_NEAR(z.beta_re + z.gamma, 0.2, 1e-16);
}

TEST(Discretize, AlphaInsideUnitCircleForNegativeRealPart) {
  Xorshift64 rng(11);
  for (int i = 0; i < 1000; ++i) {
    const double ar = -std::exp(rng.uniform(-8.0, 4.0)), ai = rng.uniform(-100.0, 100.0);
    const double dt = rng.uniform(1e-6, 5.0), lam = rng.uniform();
    const ExpTrapezoidal e = exp_trapezoidal(ar, ai, dt, lam);
    EXPECT_LT(std::hypot(e.alpha_re, e.alpha_im), 1.0);
    EXPECT_LT(std::abs(zoh(ar, dt).a_bar), 1.0);
    EXPECT_LT(std::abs(bilinear(ar, dt).a_bar), 1.0);
    const DiscreteComplex c = bilinear_complex(ar, ai, dt);
    EXPECT_LT(std::hypot(c.a_re, c.a_im), 1.0);
  }
}

TEST(SsmInit, MambaLinInvValues) {
  std::vector<double> v(8);
  mamba_init(v);
  for (std::size_t n = 0; n < v.size(); ++n) EXPECT_DOUBLE_EQ(v[n], std::log(static_cast<double>(n) + 1.0));
  s4d_lin_real(v);
  for (double x : v) EXPECT_DOUBLE_EQ(x, std::log(0.5));
  s4d_inv_real(v);
  for (std::size_t n = 1; n < v.size(); ++n) EXPECT_GT(v[n], v[n - 1]);
  EXPECT_DOUBLE_EQ(v[0], std::log(0.5));
  for (double x : v) EXPECT_LT(-std::exp(x), 0.0);
}

TEST(SsmInit, ComplexInitialisersFollowS4D) {
  std::vector<double> v(2 * 16);
  s4d_inv_complex(v);
  for (std::size_t n = 0; n < 16; ++n) {
    EXPECT_DOUBLE_EQ(-std::exp(v[2 * n]), -0.5);
    EXPECT_NEAR(v[2 * n + 1], 16.0 / M_PI * (16.0 / (2.0 * n + 1.0) - 1.0), 1e-12);
  }
  EXPECT_GT(v[1], v[3]);  // imaginary parts decrease with n
  s4d_lin_complex(v);
  EXPECT_NEAR(v[2 * 3 + 1], 3.0 * M_PI, 1e-14);
}

}  // namespace
}  // namespace irithyll::nn
