// sLSTM learner with neuron regeneration (continual backprop): the hook really
// re-draws the picked unit and the readout forgets it; resume is bit-identical;
// on a stream with an abrupt change it is not worse than without (budget over seeds).
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "nn/rnn/slstm_core.hpp"
#include "support/continual_checks.hpp"

namespace irithyll::nn {
namespace {

SlstmLearnerConfig slstm_regen_config(std::uint64_t interval) {
  SlstmLearnerConfig c;
  c.d_hidden = 8;
  c.n_heads = 2;
  c.continual.kind = ContinualKind::kRegen;
  c.continual.interval = interval;
  c.continual.regen_fraction = 0.125;  // one unit of 8
  return c;
}

// The context of `seed` (cell and regeneration draws).
LearnerContext slstm_seeded(std::uint64_t seed) { return LearnerContext{Task::kRegression, 0, 0, seed}; }

TEST(SlstmContinual, RegenerationRedrawsTheUnitAndResetsItsReadout) {
  SlstmCore m(slstm_regen_config(50), slstm_seeded(3));
  const testing::SwitchStream s(1, 400);
  int seen = 0;
  for (std::size_t t = 0; t < s.y.size(); ++t) {
    std::vector<std::vector<double>> w_before;
    if (m.cell().d_hidden() > 0)
      for (int g = 0; g < 4; ++g) w_before.emplace_back(m.cell().w(g).begin(), m.cell().w(g).end());
    const std::uint64_t before = m.continual() ? m.continual()->regeneration().n_regenerations() : 0;
    m.learn_one(s.x[t], s.y[t]);
    ASSERT_NE(m.continual(), nullptr);
    if (m.continual()->regeneration().n_regenerations() == before) continue;
    ++seen;
    const auto picked = m.continual()->regeneration().last_regenerated();
    ASSERT_EQ(picked.size(), 1u);
    const std::size_t j = picked[0], d = m.n_features();
    for (int g = 0; g < 4; ++g) {
      for (std::size_t u = 0; u < 8; ++u) {
        bool same = true;
        for (std::size_t k = 0; k < d; ++k) same &= m.cell().w(g)[u * d + k] == w_before[g][u * d + k];
        EXPECT_EQ(same, u != j) << "gate " << g << " unit " << u;
      }
    }
    EXPECT_EQ(m.readout().head(0).weights()[j], 0.0);
    EXPECT_EQ(m.cell().hidden()[j], 0.0);
  }
  EXPECT_EQ(seen, (400 - 10) / 50);  // readout updates start after the warm-up
}

TEST(SlstmContinual, ResumesBitIdentically) {
  SlstmLearnerConfig c = slstm_regen_config(60);
  c.continual.detector = DriftKind::kAdwin;
  SlstmCore a(c, slstm_seeded(5));
  const testing::SwitchStream s(2, 900, 4, 400);
  for (std::size_t t = 0; t < 450; ++t) a.learn_one(s.x[t], s.y[t]);
  testing::check_bit_identical_resume(a, s, 450);
}

TEST(SlstmContinual, RejectsGradientStrategies) {
  SlstmLearnerConfig c;
  c.continual.kind = ContinualKind::kEwc;
  EXPECT_FALSE(SlstmLearner::validate(c, {}).is_ok());
}

// Over 6 seeds, prequential RMSE on the 3000 samples after the change: with
// regeneration (fraction 1/8 every 250 updates and on drift) the mean is at
// most 10% above the plain learner's, and no seed is more than 25% worse.
TEST(SlstmContinual, NotWorseAfterAnAbruptChange) {
  double sum_plain = 0.0, sum_regen = 0.0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const testing::SwitchStream s(seed, 6000);
    SlstmLearnerConfig plain = slstm_regen_config(250);
    plain.continual = ContinualConfig{};
    SlstmCore a(plain, slstm_seeded(seed)), b(slstm_regen_config(250), slstm_seeded(seed));
    const double ra = testing::prequential_rmse(a, s, 3000, 6000);
    const double rb = testing::prequential_rmse(b, s, 3000, 6000);
    std::printf("slstm seed %llu: plain %.4f regen %.4f (regenerations %llu, drifts %llu)\n",
                static_cast<unsigned long long>(seed), ra, rb,
                static_cast<unsigned long long>(b.continual()->regeneration().n_regenerations()),
                static_cast<unsigned long long>(b.continual()->watch().n_drifts()));
    EXPECT_LE(rb, 1.25 * ra) << "seed " << seed;
    sum_plain += ra;
    sum_regen += rb;
  }
  std::printf("slstm mean post-change RMSE: plain %.4f regen %.4f\n", sum_plain / 6, sum_regen / 6);
  EXPECT_LE(sum_regen, 1.10 * sum_plain);
}

}  // namespace
}  // namespace irithyll::nn
