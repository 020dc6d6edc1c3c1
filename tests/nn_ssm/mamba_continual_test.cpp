// Mamba learner (v3 groups, bd blocks) with neuron regeneration: the hook
// re-draws the picked group's B/C projections (only that group's), the
// readout forgets the features it feeds; resume is bit-identical; on a
// stream with an abrupt change it is not worse than without (budget over seeds).
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "nn/ssm/mamba3.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "nn/ssm/mamba_core.hpp"
#include "nn/ssm/selective_ssm_bd.hpp"
#include "support/continual_checks.hpp"

namespace irithyll::nn {
namespace {

MambaLearnerConfig regen_config(MambaVersion v, std::uint64_t interval) {
  MambaLearnerConfig c;
  c.version = v;
  c.n_state = 4;
  c.n_groups = 4;     // v3: one channel per group on 4 lags
  c.block_size = 1;   // bd: 4 blocks
  c.continual.kind = ContinualKind::kRegen;
  c.continual.interval = interval;
  c.continual.regen_fraction = 0.25;  // one group of 4
  return c;
}

// The context of `seed` (layer and regeneration draws).
LearnerContext seeded(std::uint64_t seed) { return LearnerContext{Task::kRegression, 0, 0, seed}; }

TEST(MambaContinual, RegenerationRedrawsTheGroupAndResetsItsReadout) {
  MambaCore m(regen_config(MambaVersion::kV3, 40), seeded(3));
  const testing::SwitchStream s(1, 300);
  int seen = 0;
  for (std::size_t t = 0; t < s.y.size(); ++t) {
    std::vector<double> wb_before;
    if (const auto* l = dynamic_cast<const Mamba3*>(m.layer())) wb_before.assign(l->w_b().begin(), l->w_b().end());
    const std::uint64_t before = m.continual() ? m.continual()->regeneration().n_regenerations() : 0;
    m.learn_one(s.x[t], s.y[t]);
    if (m.continual()->regeneration().n_regenerations() == before) continue;
    ++seen;
    const auto* l = dynamic_cast<const Mamba3*>(m.layer());
    ASSERT_NE(l, nullptr);
    const std::size_t g = m.continual()->regeneration().last_regenerated()[0];
    const std::size_t per = l->w_b().size() / 4;  // rows of one group times d_in
    for (std::size_t i = 0; i < l->w_b().size(); ++i)
      EXPECT_EQ(l->w_b()[i] == wb_before[i], i / per != g) << "w_b entry " << i << ", regenerated group " << g;
    // Readout features of group g: output channel g and its state slice, all forgotten.
    const auto w = m.readout().head(0).weights();
    EXPECT_EQ(w[g], 0.0);
    const std::size_t state = l->state().size(), off = 4;
    for (std::size_t i = 0; i < state; ++i)
      if (i / (state / 4) == g) {
        EXPECT_EQ(w[off + i], 0.0);
      }
  }
  EXPECT_EQ(seen, (300 - 10) / 40);
}

TEST(MambaContinual, BlockDiagonalRegenerationRedrawsOneBlock) {
  MambaCore m(regen_config(MambaVersion::kBlockDiagonal, 30), seeded(4));
  const testing::SwitchStream s(2, 200);
  for (std::size_t t = 0; t < s.y.size(); ++t) {
    const auto* l = dynamic_cast<const SelectiveSsmBd*>(m.layer());
    std::vector<double> a_before;
    if (l) a_before.assign(l->a().begin(), l->a().end());
    const std::uint64_t before = m.continual() ? m.continual()->regeneration().n_regenerations() : 0;
    m.learn_one(s.x[t], s.y[t]);
    if (m.continual()->regeneration().n_regenerations() == before) continue;
    l = dynamic_cast<const SelectiveSsmBd*>(m.layer());
    const std::size_t b = m.continual()->regeneration().last_regenerated()[0];
    for (std::size_t i = 0; i < l->a().size(); ++i)
      if (i != b) {
        EXPECT_EQ(l->a()[i], a_before[i]);  // block size 1: one entry per block
      }
    EXPECT_EQ(m.readout().head(0).weights()[b], 0.0);
  }
  EXPECT_GT(m.continual()->regeneration().n_regenerations(), 0u);
}

TEST(MambaContinual, ResumesBitIdentically) {
  for (MambaVersion v : {MambaVersion::kV3, MambaVersion::kBlockDiagonal}) {
    MambaLearnerConfig c = regen_config(v, 70);
    c.continual.detector = DriftKind::kDdm;
    MambaCore a(c, seeded(5));
    const testing::SwitchStream s(2, 800, 4, 350);
    for (std::size_t t = 0; t < 400; ++t) a.learn_one(s.x[t], s.y[t]);
    testing::check_bit_identical_resume(a, s, 400);
  }
}

TEST(MambaContinual, RejectsV1AndGradientStrategies) {
  MambaLearnerConfig c;
  c.continual.kind = ContinualKind::kRegen;
  EXPECT_FALSE(MambaLearner::validate(c, {}).is_ok());  // v1 has no per-group hook
  c.version = MambaVersion::kV3;
  EXPECT_TRUE(MambaLearner::validate(c, {}).is_ok());
  c.continual.kind = ContinualKind::kMask;
  EXPECT_FALSE(MambaLearner::validate(c, {}).is_ok());
}

// Over 6 seeds, prequential RMSE on the 3000 samples after the change: with
// regeneration (one group of 4 every 500 updates and on drift) the mean is at
// most 10% above the plain learner's, and no seed is more than 25% worse.
TEST(MambaContinual, NotWorseAfterAnAbruptChange) {
  double sum_plain = 0.0, sum_regen = 0.0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const testing::SwitchStream s(seed, 6000);
    MambaLearnerConfig plain = regen_config(MambaVersion::kV3, 500);
    plain.continual = ContinualConfig{};
    MambaCore a(plain, seeded(seed)), b(regen_config(MambaVersion::kV3, 500), seeded(seed));
    const double ra = testing::prequential_rmse(a, s, 3000, 6000);
    const double rb = testing::prequential_rmse(b, s, 3000, 6000);
    std::printf("mamba v3 seed %llu: plain %.4f regen %.4f (regenerations %llu, drifts %llu)\n",
                static_cast<unsigned long long>(seed), ra, rb,
                static_cast<unsigned long long>(b.continual()->regeneration().n_regenerations()),
                static_cast<unsigned long long>(b.continual()->watch().n_drifts()));
    EXPECT_LE(rb, 1.25 * ra) << "seed " << seed;
    sum_plain += ra;
    sum_regen += rb;
  }
  std::printf("mamba v3 mean post-change RMSE: plain %.4f regen %.4f\n", sum_plain / 6, sum_regen / 6);
  EXPECT_LE(sum_regen, 1.10 * sum_plain);
}

}  // namespace
}  // namespace irithyll::nn
