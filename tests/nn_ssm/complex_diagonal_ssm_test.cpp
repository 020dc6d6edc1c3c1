// ComplexDiagonalSsm: construction (s4d_inv_complex by default, an odd or
// non-finite log_a refused), the Tustin and exp-trapezoidal recurrences
// against their closed forms over two steps, bounded state energies on a long
// constant input (|alpha| < 1), first-order agreement of Tustin and
// exp-trapezoidal (lambda = 1/2) as Delta shrinks, step_complex with zero
// imaginary parts equal to step, reset, and refused bad step arguments.
#include "nn/ssm/complex_diagonal_ssm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/discretize.hpp"
#include "nn/ssm/init.hpp"

namespace irithyll::nn {
namespace {

using cdiag_cplx = std::complex<double>;

// Four states with distinct decay rates and rotation frequencies.
const std::vector<double> kCdiagLogA = {std::log(0.5), 1.0, 0.0, -2.0, std::log(2.0), 0.5, std::log(0.3), 3.0};

std::vector<double> cdiag_draw(Xorshift64& rng, std::size_t n) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.normal();
  return v;
}

ComplexDiagonalSsm cdiag_make(ComplexDiscretization m) {
  auto r = ComplexDiagonalSsm::make_with_init(kCdiagLogA, m);
  EXPECT_TRUE(r.is_ok()) << r.status().message();
  return std::move(r).value();
}

TEST(ComplexDiagonalSsm, DefaultInitIsS4dInvAndStateIsTwoN) {
  auto r = ComplexDiagonalSsm::make(6, ComplexDiscretization::kExpTrapezoidal);
  ASSERT_TRUE(r.is_ok());
  std::vector<double> want(12);
  s4d_inv_complex(want);
  EXPECT_EQ(std::vector<double>(r->log_a().begin(), r->log_a().end()), want);
  EXPECT_EQ(r->n_state(), 6u);
  EXPECT_EQ(r->state().size(), 12u);
  for (double h : r->state()) EXPECT_EQ(h, 0.0);
}

TEST(ComplexDiagonalSsm, RefusesOddEmptyOrNonFiniteInit) {
  const std::vector<double> odd = {0.1, 0.2, 0.3};
  auto r = ComplexDiagonalSsm::make_with_init(odd, ComplexDiscretization::kTustin);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("even"), std::string::npos) << r.status().message();
  EXPECT_FALSE(ComplexDiagonalSsm::make_with_init(std::vector<double>{}, ComplexDiscretization::kTustin).is_ok());
  const std::vector<double> nan = {0.0, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_FALSE(ComplexDiagonalSsm::make_with_init(nan, ComplexDiscretization::kTustin).is_ok());
  EXPECT_FALSE(ComplexDiagonalSsm::make(0, ComplexDiscretization::kTustin).is_ok());
}

TEST(ComplexDiagonalSsm, RecurrencesMatchClosedFormOverTwoSteps) {
  const std::vector<double> log_a = {std::log(0.7), 2.5};
  const cdiag_cplx a(-0.7, 2.5);
  const double d1 = 0.1, d2 = 0.2, x1 = 1.5, x2 = -0.4, lam = 0.3;
  const std::vector<double> b = {0.8}, c = {1.3};
  // Exp-trapezoidal: h1 = gamma1 b x1 (no previous input yet);
  // h2 = alpha2 h1 + beta2 b x1 + gamma2 b x2, beta2 = (1 - lambda) d2 alpha2.
  auto e = ComplexDiagonalSsm::make_with_init(log_a, ComplexDiscretization::kExpTrapezoidal).value();
  const cdiag_cplx h1 = lam * d1 * b[0] * x1;
  EXPECT_NEAR(e.step(d1, b, c, x1, lam), c[0] * h1.real(), 1e-15);
  const cdiag_cplx al = std::exp(d2 * a);
  const cdiag_cplx h2 = al * h1 + (1.0 - lam) * d2 * al * (b[0] * x1) + lam * d2 * b[0] * x2;
  EXPECT_NEAR(e.step(d2, b, c, x2, lam), c[0] * h2.real(), 1e-14);
  EXPECT_NEAR(e.state()[0], h2.real(), 1e-14);
  EXPECT_NEAR(e.state()[1], h2.imag(), 1e-14);
  // Tustin: abar = (1 + d a/2)/(1 - d a/2), bbar = d/(1 - d a/2); lambda unused.
  auto t = ComplexDiagonalSsm::make_with_init(log_a, ComplexDiscretization::kTustin).value();
  const cdiag_cplx g1 = d1 / (1.0 - 0.5 * d1 * a) * (b[0] * x1);
  EXPECT_NEAR(t.step(d1, b, c, x1, lam), c[0] * g1.real(), 1e-15);
  const cdiag_cplx g2 = (1.0 + 0.5 * d2 * a) / (1.0 - 0.5 * d2 * a) * g1 + d2 / (1.0 - 0.5 * d2 * a) * (b[0] * x2);
  EXPECT_NEAR(t.step(d2, b, c, x2, 0.9), c[0] * g2.real(), 1e-14);
  EXPECT_NEAR(t.state_energies()[0], std::abs(g2), 1e-14);
}

// |h_t| <= |alpha| |h_{t-1}| + K with K the input terms' magnitude, so
// |h_t| <= K / (1 - |alpha|) for ever from a zero state.
TEST(ComplexDiagonalSsm, EnergiesStayBoundedOnLongConstantInput) {
  for (auto m : {ComplexDiscretization::kTustin, ComplexDiscretization::kExpTrapezoidal}) {
    auto ssm = ComplexDiagonalSsm::make(8, m).value();
    Xorshift64 rng(21);
    const auto b = cdiag_draw(rng, 8), c = cdiag_draw(rng, 8);
    const double delta = 0.1, lam = 0.5, x = 1.0;
    std::vector<double> bound(8);
    for (std::size_t n = 0; n < 8; ++n) {
      const double a_re = -std::exp(ssm.log_a()[2 * n]), a_im = ssm.log_a()[2 * n + 1];
      double mod = 0.0, k = 0.0;
      if (m == ComplexDiscretization::kTustin) {
        const DiscreteComplex d = bilinear_complex(a_re, a_im, delta);
        mod = std::hypot(d.a_re, d.a_im);
        k = std::hypot(d.b_re, d.b_im) * std::fabs(b[n] * x);
      } else {
        const ExpTrapezoidal e = exp_trapezoidal(a_re, a_im, delta, lam);
        mod = std::hypot(e.alpha_re, e.alpha_im);
        k = (std::hypot(e.beta_re, e.beta_im) + e.gamma) * std::fabs(b[n] * x);
      }
      ASSERT_LT(mod, 1.0);
      bound[n] = k / (1.0 - mod);
    }
    std::vector<double> energy(8);
    for (int t = 0; t < 100000; ++t) {
      ASSERT_TRUE(std::isfinite(ssm.step(delta, b, c, x, lam)));
      ssm.state_energies(energy);
      for (std::size_t n = 0; n < 8; ++n) ASSERT_LE(energy[n], bound[n] * (1.0 + 1e-9)) << t << " " << n;
    }
    for (std::size_t n = 0; n < 8; ++n) EXPECT_GT(energy[n], 0.0);
  }
}

// From a zero state with constant input, Tustin tracks the continuous
// solution to O(Delta^2); exp-trapezoidal's first step sees no previous input
// (a half-step lag of the input), an O(Delta) offset that then decays. So the
// outputs at a fixed time T agree to first order: the gap halves with Delta.
TEST(ComplexDiagonalSsm, TustinAndExpTrapezoidalAgreeToFirstOrder) {
  const std::vector<double> b = {1.0, -0.5, 0.7, 0.2}, c = {0.4, 1.0, -0.3, 0.8};
  double sum_cb = 0.0;
  for (std::size_t n = 0; n < 4; ++n) sum_cb += std::fabs(c[n] * b[n]);
  std::vector<double> gaps;
  for (double delta : {0.02, 0.01, 0.005, 0.0025}) {
    auto t = cdiag_make(ComplexDiscretization::kTustin);
    auto e = cdiag_make(ComplexDiscretization::kExpTrapezoidal);
    const int steps = static_cast<int>(std::lround(1.0 / delta));
    double yt = 0.0, ye = 0.0;
    for (int k = 0; k < steps; ++k) {
      yt = t.step(delta, b, c, 1.0, 0.5);
      ye = e.step(delta, b, c, 1.0, 0.5);
    }
    const double gap = std::fabs(yt - ye);
    EXPECT_LE(gap, delta * sum_cb) << delta;
    gaps.push_back(gap);
  }
  for (std::size_t i = 1; i < gaps.size(); ++i) {
    EXPECT_GT(gaps[i] / gaps[i - 1], 0.4) << i;
    EXPECT_LT(gaps[i] / gaps[i - 1], 0.6) << i;
  }
}

TEST(ComplexDiagonalSsm, StepComplexWithZeroImaginaryPartsEqualsStep) {
  for (auto m : {ComplexDiscretization::kTustin, ComplexDiscretization::kExpTrapezoidal}) {
    auto s1 = cdiag_make(m);
    auto s2 = cdiag_make(m);
    Xorshift64 rng(5);
    const std::vector<double> zeros(4, 0.0);
    for (int t = 0; t < 200; ++t) {
      const auto b = cdiag_draw(rng, 4), c = cdiag_draw(rng, 4);
      const double delta = 0.01 + 0.2 * rng.uniform(), x = rng.normal(), lam = rng.uniform();
      EXPECT_EQ(s1.step(delta, b, c, x, lam), s2.step_complex(delta, b, zeros, c, zeros, x, lam)) << t;
    }
    EXPECT_EQ(std::vector<double>(s1.state().begin(), s1.state().end()),
              std::vector<double>(s2.state().begin(), s2.state().end()));
  }
}

TEST(ComplexDiagonalSsm, StepComplexReadsRealAndImaginaryParts) {
  auto s = cdiag_make(ComplexDiscretization::kExpTrapezoidal);
  Xorshift64 rng(8);
  for (int t = 0; t < 30; ++t) {
    const auto br = cdiag_draw(rng, 4), bi = cdiag_draw(rng, 4), cr = cdiag_draw(rng, 4), ci = cdiag_draw(rng, 4);
    const double y = s.step_complex(0.1, br, bi, cr, ci, rng.normal(), 0.5);
    double want = 0.0;
    for (std::size_t n = 0; n < 4; ++n) want += cr[n] * s.state()[2 * n] + ci[n] * s.state()[2 * n + 1];
    EXPECT_NEAR(y, want, 1e-12 * (1.0 + std::fabs(want))) << t;
  }
}

TEST(ComplexDiagonalSsm, ResetRestoresTheInitialState) {
  for (auto m : {ComplexDiscretization::kTustin, ComplexDiscretization::kExpTrapezoidal}) {
    auto used = cdiag_make(m);
    Xorshift64 rng(13);
    for (int t = 0; t < 40; ++t) used.step(0.1, cdiag_draw(rng, 4), cdiag_draw(rng, 4), rng.normal(), 0.5);
    used.reset();
    for (double h : used.state()) EXPECT_EQ(h, 0.0);
    // The remembered input term is cleared too: the next steps match a fresh layer.
    auto fresh = cdiag_make(m);
    Xorshift64 again(99);
    for (int t = 0; t < 10; ++t) {
      const auto b = cdiag_draw(again, 4), c = cdiag_draw(again, 4);
      const double x = again.normal();
      EXPECT_EQ(used.step(0.1, b, c, x, 0.5), fresh.step(0.1, b, c, x, 0.5)) << t;
    }
  }
}

TEST(ComplexDiagonalSsm, BadStepArgumentsLeaveStateUntouched) {
  auto s = cdiag_make(ComplexDiscretization::kExpTrapezoidal);
  const std::vector<double> b(4, 1.0), c(4, 1.0), short_b(3, 1.0);
  s.step(0.1, b, c, 1.0, 0.5);
  const std::vector<double> before(s.state().begin(), s.state().end());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(s.step(0.1, short_b, c, 1.0, 0.5)));
  EXPECT_TRUE(std::isnan(s.step(0.1, b, c, nan, 0.5)));
  EXPECT_TRUE(std::isnan(s.step(nan, b, c, 1.0, 0.5)));
  EXPECT_TRUE(std::isnan(s.step(-0.1, b, c, 1.0, 0.5)));
  EXPECT_TRUE(std::isnan(s.step(0.1, b, c, 1.0, 1.5)));
  EXPECT_TRUE(std::isnan(s.step_complex(0.1, b, short_b, c, c, 1.0, 0.5)));
  EXPECT_EQ(std::vector<double>(s.state().begin(), s.state().end()), before);
  // The previous input term was kept as well: the next good step equals that
  // of a twin that never saw the bad calls.
  auto twin = cdiag_make(ComplexDiscretization::kExpTrapezoidal);
  twin.step(0.1, b, c, 1.0, 0.5);
  EXPECT_EQ(s.step(0.1, b, c, 2.0, 0.5), twin.step(0.1, b, c, 2.0, 0.5));
}

}  // namespace
}  // namespace irithyll::nn
