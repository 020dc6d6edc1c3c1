// Log-linear learner with a continual-learning guard around its SGD step:
// the mask freezes and frozen weights stop moving, EWC pulls the weights
// toward the anchor taken at a drift, regeneration redraws rows; resume is
// bit-identical for every strategy; on a stream with an abrupt change the
// guarded learner is not worse than the plain one (budget over seeds).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "nn/attention/log_linear_core.hpp"
#include "support/continual_checks.hpp"

namespace irithyll::nn {
namespace {

LogLinearLearnerConfig guarded(ContinualKind kind) {
  LogLinearLearnerConfig c;
  c.continual.kind = kind;
  c.continual.detector = DriftKind::kPageHinkley;
  c.continual.interval = 200;
  c.continual.regen_fraction = 0.05;
  return c;
}

// The context of `seed` (the layer's and the guard's draws).
LearnerContext ll_seeded(std::uint64_t seed) { return LearnerContext{Task::kRegression, 0, 0, seed}; }

std::vector<double> params_of(const LogLinearCore& m) {
  std::vector<double> p(m.layer().n_params());
  m.layer().copy_params(p);
  return p;
}

TEST(LogLinearContinual, MaskFreezesOnDriftAndFrozenWeightsStayPut) {
  LogLinearCore m(guarded(ContinualKind::kMask), ll_seeded(1));
  const testing::SwitchStream s(1, 8000);
  std::size_t t = 0;
  while (t < s.y.size()) {
    m.learn_one(s.x[t], s.y[t]);
    ++t;
    if (m.continual()->watch().n_drifts() > 0) break;
  }
  ASSERT_LT(t, s.y.size()) << "no drift detected";
  const auto& mask = static_cast<const DriftMask&>(m.continual()->strategy());
  const std::size_t n = m.layer().n_params();
  EXPECT_EQ(mask.n_frozen(), static_cast<std::size_t>(std::floor(0.3 * static_cast<double>(n))));
  std::vector<bool> frozen(n);
  for (std::size_t i = 0; i < n; ++i) frozen[i] = mask.is_frozen(i);
  const auto before = params_of(m);
  std::size_t steps = 0;
  for (; t < s.y.size() && steps < 300; ++t, ++steps) m.learn_one(s.x[t], s.y[t]);
  EXPECT_GE(mask.n_frozen(), n / 4);
  const auto after = params_of(m);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (frozen[i]) {
      EXPECT_EQ(after[i], before[i]) << "frozen weight " << i << " moved";
    } else {
      moved += after[i] != before[i];
    }
  }
  EXPECT_GT(moved, 0u);
}

TEST(LogLinearContinual, EwcPullsWeightsTowardTheAnchor) {
  // lambda 0 and lambda 1e4 follow the same path until the first drift
  // anchors them both; afterwards the penalised one stays closer to the anchor.
  LogLinearLearnerConfig loose = guarded(ContinualKind::kEwc), tight = loose;
  loose.continual.ewc_lambda = 0.0;
  tight.continual.ewc_lambda = 1e4;
  LogLinearCore a(loose, ll_seeded(2)), b(tight, ll_seeded(2));
  const testing::SwitchStream s(2, 8000);
  std::size_t t = 0;
  while (t < s.y.size()) {
    a.learn_one(s.x[t], s.y[t]);
    b.learn_one(s.x[t], s.y[t]);
    ++t;
    if (static_cast<const StreamingEwc&>(b.continual()->strategy()).has_anchor()) break;
  }
  ASSERT_LT(t, s.y.size()) << "no drift detected";
  const auto& ea = static_cast<const StreamingEwc&>(a.continual()->strategy());
  const auto& eb = static_cast<const StreamingEwc&>(b.continual()->strategy());
  ASSERT_TRUE(ea.has_anchor());
  EXPECT_EQ(params_of(a), params_of(b));
  for (std::size_t k = 0; k < 1500 && t < s.y.size(); ++k, ++t) {
    a.learn_one(s.x[t], s.y[t]);
    b.learn_one(s.x[t], s.y[t]);
  }
  auto dist = [](const std::vector<double>& p, std::span<const double> anchor) {
    double d = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) d += (p[i] - anchor[i]) * (p[i] - anchor[i]);
    return std::sqrt(d);
  };
  const double da = dist(params_of(a), ea.anchor()), db = dist(params_of(b), eb.anchor());
  std::printf("distance to anchor after 1500 steps: lambda 0 %.4g, lambda 1e4 %.4g\n", da, db);
  EXPECT_LT(db, 0.5 * da);
}

TEST(LogLinearContinual, RegenerationRedrawsRows) {
  LogLinearLearnerConfig c = guarded(ContinualKind::kRegen);
  c.continual.interval = 100;
  LogLinearCore m(c, ll_seeded(3));
  const testing::SwitchStream s(3, 100);
  for (std::size_t t = 0; t < 99; ++t) m.learn_one(s.x[t], s.y[t]);
  const auto before = params_of(m);
  m.learn_one(s.x[99], s.y[99]);
  const auto& r = static_cast<const NeuronRegeneration&>(m.continual()->strategy());
  ASSERT_EQ(r.n_regenerations(), 1u);
  const auto after = params_of(m);
  const std::size_t dm = c.layer.d_model;
  for (const std::uint32_t g : r.last_regenerated()) {
    for (std::size_t j = 0; j < dm; ++j) {
      EXPECT_LE(std::fabs(after[g * dm + j]), 0.01);
      EXPECT_NE(after[g * dm + j], before[g * dm + j]);
    }
  }
}

TEST(LogLinearContinual, ResumesBitIdentically) {
  for (ContinualKind k : {ContinualKind::kEwc, ContinualKind::kMask, ContinualKind::kRegen}) {
    SCOPED_TRACE(std::string(continual_kind_name(k)));
    LogLinearCore a(guarded(k), ll_seeded(4));
    const testing::SwitchStream s(4, 1400, 4, 500);
    for (std::size_t t = 0; t < 700; ++t) a.learn_one(s.x[t], s.y[t]);
    if (k != ContinualKind::kRegen) {
      EXPECT_GT(a.continual()->watch().n_drifts() + a.continual()->watch().n_warnings(), 0u);
    }
    testing::check_bit_identical_resume(a, s, 700);
  }
}

// Over 6 seeds, prequential RMSE on the 3000 samples after the change: each
// guard's mean is at most 10% above the plain learner's, no seed 25% worse.
TEST(LogLinearContinual, NotWorseAfterAnAbruptChange) {
  for (ContinualKind k : {ContinualKind::kEwc, ContinualKind::kMask, ContinualKind::kRegen}) {
    double sum_plain = 0.0, sum_guard = 0.0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const testing::SwitchStream s(seed, 6000);
      LogLinearLearnerConfig plain = guarded(k);
      plain.continual = ContinualConfig{};
      LogLinearCore a(plain, ll_seeded(seed)), b(guarded(k), ll_seeded(seed));
      const double ra = testing::prequential_rmse(a, s, 3000, 6000);
      const double rb = testing::prequential_rmse(b, s, 3000, 6000);
      EXPECT_LE(rb, 1.25 * ra) << continual_kind_name(k) << " seed " << seed;
      sum_plain += ra;
      sum_guard += rb;
    }
    std::printf("loglinear %s mean post-change RMSE: plain %.4f guarded %.4f\n",
                std::string(continual_kind_name(k)).c_str(), sum_plain / 6, sum_guard / 6);
    EXPECT_LE(sum_guard, 1.10 * sum_plain) << continual_kind_name(k);
  }
}

}  // namespace
}  // namespace irithyll::nn
