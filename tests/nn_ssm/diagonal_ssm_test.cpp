// DiagonalSsm: ZOH discretisation properties (stable for a < 0, Delta = 0 is
// the identity map), the impulse response against its closed form
// y_k = sum_n C_n bbar_n B_n abar_n^k, linearity, predict / step agreement,
// reset, refusal of bad parameters, and the checkpoint round trip.
#include "nn/ssm/diagonal_ssm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/discretize.hpp"

namespace irithyll::nn {
namespace {

TEST(DiagonalSsmZoh, StableForNegativeAOverManyStepSizes) {
  Xorshift64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const double a = -std::exp(rng.uniform(-8.0, 8.0));
    const double delta = std::exp(rng.uniform(-10.0, 3.0));
    const DiscreteReal z = zoh(a, delta);
    EXPECT_GE(z.a_bar, 0.0) << a << " " << delta;
    EXPECT_LT(z.a_bar, 1.0) << a << " " << delta;
    // bbar = (1 - abar) / |a| lies in (0, Delta]: the input gain never exceeds
    // the step (e^{-u} >= 1 - u).
    EXPECT_GT(z.b_bar, 0.0);
    EXPECT_LE(z.b_bar, delta * (1.0 + 1e-15));
    // The fixed point of h = abar h + bbar x is x / |a|, the continuous one
    // (1 - abar taken as -expm1 so the check itself loses no digits).
    EXPECT_NEAR(z.b_bar / -std::expm1(delta * a), 1.0 / -a, 1e-12 / -a) << a << " " << delta;
  }
}

TEST(DiagonalSsmZoh, DeltaZeroIsIdentityForAnyA) {
  for (double a : {-1e6, -3.0, -1e-13, 0.0, 2.0}) {
    const DiscreteReal z = zoh(a, 0.0);
    EXPECT_EQ(z.a_bar, 1.0) << a;
    EXPECT_EQ(z.b_bar, 0.0) << a;
  }
}

TEST(DiagonalSsm, ImpulseResponseMatchesClosedForm) {
  const std::vector<double> log_a = {std::log(0.5), 0.0, std::log(2.0), std::log(7.0)};
  const std::vector<double> b = {1.0, -0.5, 0.25, 2.0};
  const std::vector<double> c = {0.3, 1.1, -0.7, 0.05};
  const double delta = 0.2;
  auto made = DiagonalSsm::make(log_a, b, c, delta);
  ASSERT_TRUE(made.is_ok()) << made.status().message();
  DiagonalSsm ssm = std::move(made).value();
  for (int k = 0; k < 60; ++k) {
    const double y = ssm.step(k == 0 ? 1.0 : 0.0);
    double want = 0.0;
    for (std::size_t n = 0; n < log_a.size(); ++n) {
      const double a = -std::exp(log_a[n]);
      const double abar = std::exp(delta * a), bbar = (abar - 1.0) / a;
      want += c[n] * bbar * b[n] * std::pow(abar, k);
    }
    EXPECT_NEAR(y, want, 1e-14 + 1e-12 * std::fabs(want)) << k;
  }
}

TEST(DiagonalSsm, StepResponseSettlesAtDcGain) {
  // Constant input x: h_n -> B_n x / |A_n|, so y -> x sum_n C_n B_n / |A_n|.
  auto ssm = DiagonalSsm::make(DiagonalSsmConfig{8, 0.1, DiagonalSsmInit::kS4dInv, 3, 1.0}).value();
  double y = 0.0;
  for (int t = 0; t < 2000; ++t) y = ssm.step(2.0);
  double gain = 0.0;
  for (std::size_t n = 0; n < ssm.n_state(); ++n) gain += ssm.c()[n] * ssm.b()[n] / std::exp(ssm.log_a()[n]);
  EXPECT_NEAR(y, 2.0 * gain, 1e-10);
}

TEST(DiagonalSsm, PredictMatchesStepAndResetRestoresZeroState) {
  auto ssm = DiagonalSsm::make(DiagonalSsmConfig{12, 0.05, DiagonalSsmInit::kMamba, 9, 1.0}).value();
  Xorshift64 rng(11);
  std::vector<double> first;
  for (int t = 0; t < 50; ++t) {
    const double x = rng.normal();
    const double p = ssm.predict(x);
    const double y = ssm.step(x);
    EXPECT_EQ(p, y) << t;
    first.push_back(y);
  }
  ssm.reset();
  for (double h : ssm.state()) EXPECT_EQ(h, 0.0);
  Xorshift64 again(11);
  for (int t = 0; t < 50; ++t) EXPECT_EQ(ssm.step(again.normal()), first[static_cast<std::size_t>(t)]) << t;
}

TEST(DiagonalSsm, NonFiniteInputKeepsState) {
  auto ssm = DiagonalSsm::make(DiagonalSsmConfig{4, 0.1, DiagonalSsmInit::kS4dLin, 1, 1.0}).value();
  ssm.step(1.0);
  const std::vector<double> before(ssm.state().begin(), ssm.state().end());
  EXPECT_TRUE(std::isnan(ssm.step(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(ssm.step(std::numeric_limits<double>::infinity())));
  EXPECT_EQ(std::vector<double>(ssm.state().begin(), ssm.state().end()), before);
}

TEST(DiagonalSsm, RefusesBadParameters) {
  const std::vector<double> one = {0.0}, two = {0.0, 0.0};
  EXPECT_FALSE(DiagonalSsm::make(one, two, one, 0.1).is_ok());
  EXPECT_FALSE(DiagonalSsm::make(std::vector<double>{}, std::vector<double>{}, std::vector<double>{}, 0.1).is_ok());
  EXPECT_FALSE(DiagonalSsm::make(one, one, one, 0.0).is_ok());
  EXPECT_FALSE(DiagonalSsm::make(one, one, one, std::numeric_limits<double>::infinity()).is_ok());
  const std::vector<double> bad = {std::numeric_limits<double>::quiet_NaN()};
  EXPECT_FALSE(DiagonalSsm::make(bad, one, one, 0.1).is_ok());
  DiagonalSsmConfig cfg;
  cfg.n_state = 0;
  EXPECT_FALSE(DiagonalSsm::make(cfg).is_ok());
  cfg.n_state = 4;
  cfg.delta = -1.0;
  EXPECT_FALSE(DiagonalSsm::make(cfg).is_ok());
}

TEST(DiagonalSsm, CheckpointContinuesBitIdenticallyAndRefusesHostileBytes) {
  auto a = DiagonalSsm::make(DiagonalSsmConfig{6, 0.3, DiagonalSsmInit::kS4dInv, 5, 1.0}).value();
  Xorshift64 rng(2);
  for (int t = 0; t < 20; ++t) a.step(rng.normal());
  ByteWriter w;
  a.encode(w);
  const std::vector<std::uint8_t> bytes = w.data();
  DiagonalSsm b;
  ByteReader r(bytes);
  ASSERT_TRUE(b.decode(r).is_ok());
  for (int t = 0; t < 20; ++t) {
    const double x = rng.normal();
    EXPECT_EQ(a.step(x), b.step(x)) << t;
  }
  // Truncations are refused and leave the target as it was.
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
    DiagonalSsm c = b;
    ByteReader rc(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(c.decode(rc).is_ok()) << cut;
    EXPECT_EQ(c.step(0.5), DiagonalSsm(b).step(0.5)) << cut;
  }
  // A negative step size in otherwise valid bytes is refused.
  ByteWriter hw;
  hw.f64(-0.3);
  hw.bytes(std::span<const std::uint8_t>(bytes).subspan(8));
  const std::vector<std::uint8_t> hostile = hw.data();
  DiagonalSsm d;
  ByteReader rd(hostile);
  EXPECT_FALSE(d.decode(rd).is_ok());
}

}  // namespace
}  // namespace irithyll::nn
