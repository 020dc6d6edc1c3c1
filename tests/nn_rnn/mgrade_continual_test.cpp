// mGRADE learner with neuron regeneration: the minGRU hook redraws only the
// picked unit and the readout forgets it; resume is bit-identical; on a stream
// with an abrupt change it is not worse than without (budget over seeds).
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "nn/rnn/mgrade_core.hpp"
#include "support/continual_checks.hpp"

namespace irithyll::nn {
namespace {

MgradeLearnerConfig regen_config(std::uint64_t interval) {
  MgradeLearnerConfig c;
  c.d_hidden = 8;
  c.continual.kind = ContinualKind::kRegen;
  c.continual.interval = interval;
  c.continual.regen_fraction = 0.125;  // one unit of 8
  return c;
}

// The context of `seed` (cell and regeneration draws).
LearnerContext seeded(std::uint64_t seed) { return LearnerContext{Task::kRegression, 0, 0, seed}; }

TEST(MgradeContinual, RegenerationRedrawsTheUnitAndResetsItsReadout) {
  MgradeCore m(regen_config(50), seeded(3));
  const testing::SwitchStream s(1, 400);
  int seen = 0;
  for (std::size_t t = 0; t < s.y.size(); ++t) {
    const std::vector<double> wz(m.cell().w_z().begin(), m.cell().w_z().end());
    const std::vector<double> wh(m.cell().w_h().begin(), m.cell().w_h().end());
    const std::uint64_t before = m.continual() ? m.continual()->regeneration().n_regenerations() : 0;
    m.learn_one(s.x[t], s.y[t]);
    ASSERT_NE(m.continual(), nullptr);
    if (m.continual()->regeneration().n_regenerations() == before) continue;
    ++seen;
    const std::size_t j = m.continual()->regeneration().last_regenerated()[0];
    const std::size_t d = m.n_features(), dt = d + 8;
    for (std::size_t u = 0; u < 8; ++u) {
      bool same = true;
      for (std::size_t k = 0; k < dt; ++k) same &= m.cell().w_z()[u * dt + k] == wz[u * dt + k];
      for (std::size_t k = 0; k < d; ++k) same &= m.cell().w_h()[u * d + k] == wh[u * d + k];
      EXPECT_EQ(same, u != j) << "unit " << u;
    }
    EXPECT_EQ(m.readout().head(0).weights()[j], 0.0);
    EXPECT_EQ(m.cell().state()[j], 0.0);
  }
  EXPECT_EQ(seen, (400 - 10) / 50);
}

TEST(MgradeContinual, ResumesBitIdentically) {
  MgradeCore a(regen_config(60), seeded(5));
  const testing::SwitchStream s(2, 900, 4, 400);
  for (std::size_t t = 0; t < 450; ++t) a.learn_one(s.x[t], s.y[t]);
  testing::check_bit_identical_resume(a, s, 450);
}

// Over 6 seeds, prequential RMSE on the 3000 samples after the change: with
// regeneration (1/8 of the units every 250 updates and on drift) the mean is
// at most 10% above the plain learner's, and no seed is more than 25% worse.
TEST(MgradeContinual, NotWorseAfterAnAbruptChange) {
  double sum_plain = 0.0, sum_regen = 0.0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const testing::SwitchStream s(seed, 6000);
    MgradeLearnerConfig plain = regen_config(250);
    plain.continual = ContinualConfig{};
    MgradeCore a(plain, seeded(seed)), b(regen_config(250), seeded(seed));
    const double ra = testing::prequential_rmse(a, s, 3000, 6000);
    const double rb = testing::prequential_rmse(b, s, 3000, 6000);
    EXPECT_LE(rb, 1.25 * ra) << "seed " << seed;
    sum_plain += ra;
    sum_regen += rb;
  }
  std::printf("mgrade mean post-change RMSE: plain %.4f regen %.4f\n", sum_plain / 6, sum_regen / 6);
  EXPECT_LE(sum_regen, 1.10 * sum_plain);
}

}  // namespace
}  // namespace irithyll::nn
