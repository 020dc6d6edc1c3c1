// The wiring pieces of continual learning: utilities fed directly to
// NeuronRegeneration, the RLS readout forgetting one input, the gradient
// guard (EWC pull, frozen mask), and encode/decode of every strategy's state
// (bit-identical continuation; every truncation rejected, state untouched).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "nn/continual/gradient_continual.hpp"
#include "nn/continual/readout_regeneration.hpp"
#include "readout/rls.hpp"

namespace irithyll::nn {
namespace {

std::vector<std::uint8_t> bytes_of(const ContinualStrategy& s) {
  ByteWriter w;
  s.encode_state(w);
  return w.take();
}

TEST(NeuronRegeneration, DirectUtilitiesPickTheLeastUsefulAndDriftTriggers) {
  NeuronRegenerationConfig c;
  c.fraction = 0.25;
  c.interval = 4;
  c.utility_alpha = 0.0;
  c.on_drift = true;
  NeuronRegeneration r(8, c);  // group_size 1: 8 groups, 2 picked
  const std::vector<double> score = {5, 1, 7, 0.5, 9, 3, 2, 8};
  for (int t = 0; t < 3; ++t) {
    r.observe_utility(score);
    EXPECT_FALSE(r.step());
  }
  r.observe_utility(score);
  ASSERT_TRUE(r.step());
  EXPECT_EQ(r.last_regenerated().size(), 2u);
  EXPECT_TRUE(r.was_regenerated(3) && r.was_regenerated(1));
  EXPECT_EQ(r.n_regenerations(), 1u);
  r.observe_utility(score);
  r.on_drift({}, DriftSignal::kWarning);
  EXPECT_FALSE(r.step());  // a warning does not trigger
  r.on_drift({}, DriftSignal::kDrift);
  EXPECT_TRUE(r.step());  // a drift does, at the next update
  EXPECT_FALSE(r.step());
}

// Contribution utility: the unit whose readout feature is silent (activation
// 0) is the least useful and is the one regenerated; the hook sees it and the
// readout forgets exactly its input.
TEST(ReadoutRegenerator, PicksTheSilentUnitAndForgetsItsInput) {
  ContinualConfig c;
  c.kind = ContinualKind::kRegen;
  c.detector = DriftKind::kNone;
  c.interval = 100;
  c.regen_fraction = 0.25;  // 1 of 4 units
  c.alpha = 0.9;
  auto made = ReadoutRegenerator::make(c, 4, {0, 1, 2, 3, ReadoutRegenerator::kNoGroup});
  ASSERT_TRUE(made.is_ok()) << made.status().message();
  ReadoutRegenerator r = std::move(made).value();
  RlsHead head(Task::kRegression, 0, 5, RlsConfig{0.99, 100.0});
  Xorshift64 rng(4);
  std::vector<double> f(5, 0.0);
  std::vector<std::size_t> hooked;
  for (int t = 0; t < 100; ++t) {
    for (std::size_t i = 0; i < 4; ++i) f[i] = i == 2 ? 0.0 : rng.normal();
    f[4] = 1.0;
    const double y = f[0] + 0.5 * f[1] - f[3] + 0.2;
    r.observe(head, f, y, Task::kRegression);
    head.update(f, y);
    r.after_update(head, f, [&](std::size_t g, Xorshift64&) { hooked.push_back(g); });
  }
  ASSERT_EQ(hooked.size(), 1u);
  EXPECT_EQ(hooked[0], 2u);
  EXPECT_EQ(head.head(0).weights()[2], 0.0);
  EXPECT_NEAR(head.head(0).weights()[0], 1.0, 1e-3);  // the others keep what they learned
  EXPECT_NEAR(head.head(0).weights()[3], -1.0, 1e-3);
}

TEST(RecursiveLeastSquares, ResetInputForgetsOneInputOnly) {
  RecursiveLeastSquares rls(3, RlsConfig{0.99, 50.0});
  Xorshift64 rng(3);
  std::vector<double> x(3);
  for (int t = 0; t < 200; ++t) {
    for (double& v : x) v = rng.normal();
    rls.update(x, 2.0 * x[0] - x[1] + 0.5 * x[2]);
  }
  const std::vector<double> w0(rls.weights().begin(), rls.weights().end());
  rls.reset_input(1);
  EXPECT_EQ(rls.weights()[1], 0.0);
  EXPECT_EQ(rls.weights()[0], w0[0]);
  EXPECT_EQ(rls.weights()[2], w0[2]);
  // P row/column 1 is delta e_1: an input on coordinate 1 alone has variance delta.
  const std::vector<double> e1 = {0.0, 1.0, 0.0};
  EXPECT_DOUBLE_EQ(rls.prediction_half_width(e1, 1.0),
                   std::sqrt(rls.residual_variance() * (1.0 + 50.0)));
  // It relearns: after more samples the weight is back near -1.
  for (int t = 0; t < 200; ++t) {
    for (double& v : x) v = rng.normal();
    rls.update(x, 2.0 * x[0] - x[1] + 0.5 * x[2]);
  }
  EXPECT_NEAR(rls.weights()[1], -1.0, 1e-3);
}

// A record is refused when it could only predict inf or NaN: a weight
// beyond 1e100, a non-finite entry of P, a negative or non-finite residual
// variance. The same record with sane values decodes.
TEST(RecursiveLeastSquares, DecodeRefusesValuesLearningCannotReach) {
  auto record = [](double w1, double p1, double s2) {
    ByteWriter out;
    out.f64(0.99);
    out.f64(50.0);
    out.f64s(std::vector<double>{0.5, w1});
    out.f64s(std::vector<double>{50.0, p1, p1, 50.0});
    out.f64(s2);
    out.u64(10);
    return out.take();
  };
  auto decodes = [](const std::vector<std::uint8_t>& bytes) {
    RecursiveLeastSquares rls;
    ByteReader in(bytes);
    return rls.decode(in).is_ok();
  };
  EXPECT_TRUE(decodes(record(2.0, 0.1, 1.0)));
  EXPECT_FALSE(decodes(record(1e200, 0.1, 1.0)));
  EXPECT_FALSE(decodes(record(std::nan(""), 0.1, 1.0)));
  EXPECT_FALSE(decodes(record(2.0, std::numeric_limits<double>::infinity(), 1.0)));
  EXPECT_FALSE(decodes(record(2.0, 0.1, -1.0)));
  EXPECT_FALSE(decodes(record(2.0, 0.1, std::nan(""))));
}

TEST(GradientContinual, EwcPullsTowardTheAnchorAfterDrift) {
  ContinualConfig c;
  c.kind = ContinualKind::kEwc;
  c.ewc_lambda = 50.0;
  c.alpha = 0.5;
  auto made = GradientContinual::make(c, 2, 1);
  ASSERT_TRUE(made.is_ok()) << made.status().message();
  GradientContinual g = std::move(made).value();
  auto& ewc = static_cast<StreamingEwc&>(g.strategy());
  // Some Fisher mass, then the anchor at (1, 1).
  g.params()[0] = g.params()[1] = 1.0;
  g.grads()[0] = g.grads()[1] = 1.0;
  g.pre_update();
  ewc.on_drift(g.params(), DriftSignal::kDrift);
  ASSERT_TRUE(ewc.has_anchor());
  // The task gradient now pulls parameter 0 away to 0; the penalty holds it near the anchor.
  double theta_free = 1.0, theta = 1.0;
  for (int t = 0; t < 200; ++t) {
    theta_free -= 0.01 * theta_free;
    g.params()[0] = theta;
    g.grads()[0] = theta;  // d/dtheta of theta^2/2
    g.grads()[1] = 0.0;
    g.pre_update();
    theta -= 0.01 * g.grads()[0];
  }
  EXPECT_GT(theta, theta_free + 0.1);  // held toward 1
  EXPECT_LT(theta, 1.0);
}

TEST(GradientContinual, MaskedParametersDoNotMove) {
  ContinualConfig c;
  c.kind = ContinualKind::kMask;
  c.freeze_fraction = 0.25;
  c.alpha = 0.0;
  auto g = std::move(GradientContinual::make(c, 8, 1)).value();
  const std::vector<double> first = {1, 8, 2, 7, 3, 6, 4, 5};
  std::copy(first.begin(), first.end(), g.grads().begin());
  g.pre_update();
  g.strategy().on_drift(g.params(), DriftSignal::kDrift);
  const auto& mask = static_cast<const DriftMask&>(g.strategy());
  EXPECT_EQ(mask.n_frozen(), 2u);
  EXPECT_TRUE(mask.is_frozen(1) && mask.is_frozen(3));
  for (int t = 0; t < 10; ++t) {
    for (double& v : g.grads()) v = 1.0;
    g.pre_update();
    for (std::size_t i = 0; i < 8; ++i) g.params()[i] -= 0.1 * g.grads()[i];
  }
  EXPECT_EQ(g.params()[1], 0.0);
  EXPECT_EQ(g.params()[3], 0.0);
  EXPECT_LT(g.params()[0], -0.5);
}

// Trains a strategy on random gradients with drifts, encodes, decodes into a
// fresh one, and checks that both continue identically; every truncation of
// the bytes is rejected and leaves the target unchanged.
template <class S, class Make>
void check_round_trip(Make make) {
  Xorshift64 rng(11);
  S a = make();
  const std::size_t n = a.n_params();
  std::vector<double> theta(n), g(n);
  for (double& v : theta) v = rng.normal();
  auto step = [&](S& s, std::vector<double>& th, Xorshift64& r, int t) {
    for (double& v : g) v = r.normal();
    s.pre_update(th, g);
    for (std::size_t i = 0; i < n; ++i) th[i] -= 0.05 * g[i];
    s.post_update(th);
    if (t % 37 == 36) s.on_drift(th, DriftSignal::kDrift);
  };
  for (int t = 0; t < 200; ++t) step(a, theta, rng, t);
  const auto bytes = bytes_of(a);
  S b = make();
  const auto fresh = bytes_of(b);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 97) {
    ByteReader in(std::span<const std::uint8_t>(bytes).first(cut));
    EXPECT_FALSE(b.decode_state(in).is_ok()) << "cut " << cut;
    EXPECT_EQ(bytes_of(b), fresh);
  }
  ByteReader in(bytes);
  ASSERT_TRUE(b.decode_state(in).is_ok());
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(bytes_of(b), bytes);
  std::vector<double> theta_b = theta;
  Xorshift64 ra(99), rb(99);
  for (int t = 200; t < 400; ++t) {
    step(a, theta, ra, t);
    step(b, theta_b, rb, t);
  }
  EXPECT_EQ(theta, theta_b);
  EXPECT_EQ(bytes_of(a), bytes_of(b));
  S wrong_size(n + 1);
  ByteReader in2(bytes);
  EXPECT_FALSE(wrong_size.decode_state(in2).is_ok());
}

TEST(ContinualState, EwcRoundTrip) {
  check_round_trip<StreamingEwc>([] { return StreamingEwc(40, StreamingEwcConfig{2.0, 0.9}); });
}

TEST(ContinualState, MaskRoundTrip) {
  check_round_trip<DriftMask>([] { return DriftMask(40, DriftMaskConfig{0.1, 0.9}); });
}

TEST(ContinualState, RegenerationRoundTrip) {
  NeuronRegenerationConfig c;
  c.group_size = 4;
  c.fraction = 0.2;
  c.interval = 25;
  c.on_drift = true;
  check_round_trip<NeuronRegeneration>([c] { return NeuronRegeneration(40, c); });
}

TEST(ContinualState, HostileStateIsRejected) {
  DriftMask mask(4);
  ByteWriter w;
  w.f64s(std::vector<double>(4, 0.0));
  w.u64(4);
  w.bytes(std::vector<std::uint8_t>{0, 1, 2, 0});  // flag 2
  const auto b = w.take();
  ByteReader in(b);
  EXPECT_FALSE(mask.decode_state(in).is_ok());
  EXPECT_EQ(mask.n_frozen(), 0u);
  NeuronRegeneration regen(4);
  ByteWriter w2;
  w2.f64s(std::vector<double>(4, 0.0));
  w2.u64(1);
  w2.u32(7);  // group out of range
  for (int i = 0; i < 2; ++i) w2.u64(0);
  w2.boolean(false);
  w2.u64(1);
  const auto b2 = w2.take();
  ByteReader in2(b2);
  EXPECT_FALSE(regen.decode_state(in2).is_ok());
}

TEST(ContinualConfig, RoundTripAndValidation) {
  ContinualConfig c;
  c.kind = ContinualKind::kRegen;
  c.detector = DriftKind::kAdwin;
  c.interval = 77;
  c.regen_fraction = 0.5;
  ByteWriter w;
  encode_continual_config(c, w);
  const auto b = w.take();
  ByteReader in(b);
  auto d = decode_continual_config(in);
  ASSERT_TRUE(d.is_ok());
  EXPECT_EQ(d->kind, ContinualKind::kRegen);
  EXPECT_EQ(d->detector, DriftKind::kAdwin);
  EXPECT_EQ(d->interval, 77u);
  auto bad = b;
  bad[0] = 9;  // unknown strategy
  ByteReader in2(bad);
  EXPECT_FALSE(decode_continual_config(in2).is_ok());
  ContinualConfig e;
  e.kind = ContinualKind::kEwc;
  e.detector = DriftKind::kNone;
  EXPECT_FALSE(e.validate().is_ok());  // ewc needs a detector
  EXPECT_TRUE(parse_continual_kind("regen").is_ok());
  EXPECT_FALSE(parse_continual_kind("sometimes").is_ok());
}

}  // namespace
}  // namespace irithyll::nn
