#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/continual/drift_mask.hpp"
#include "nn/continual/neuron_regeneration.hpp"
#include "nn/continual/streaming_ewc.hpp"

namespace irithyll::nn {
namespace {

TEST(StreamingEwc, FisherEwmaAnchorOnDriftOnlyAndPenaltyPullsBack) {
  StreamingEwc ewc(3, StreamingEwcConfig{2.0, 0.5});
  std::vector<double> theta = {1.0, 2.0, 3.0}, g = {2.0, 0.0, -1.0};
  ewc.pre_update(theta, g);
  EXPECT_DOUBLE_EQ(ewc.fisher()[0], 0.5 * 4.0);
  EXPECT_DOUBLE_EQ(ewc.fisher()[2], 0.5 * 1.0);
  EXPECT_EQ(ewc.penalty(theta), 0.0);
  ewc.on_drift(theta, DriftSignal::kWarning);
  EXPECT_FALSE(ewc.has_anchor());
  ewc.on_drift(theta, DriftSignal::kDrift);
  EXPECT_TRUE(ewc.has_anchor());
  std::vector<double> moved = {1.5, 2.0, 3.0}, g2 = {0.0, 0.0, 0.0};
  ewc.pre_update(moved, g2);  // F0 = 0.5*2 = 1 after this update
  EXPECT_DOUBLE_EQ(ewc.fisher()[0], 1.0);
  EXPECT_DOUBLE_EQ(g2[0], 2.0 * 1.0 * 0.5);  // lambda F (theta - anchor): descent moves theta back
  EXPECT_DOUBLE_EQ(ewc.penalty(moved), 0.5 * 2.0 * 1.0 * 0.25);
  ewc.reset();
  EXPECT_FALSE(ewc.has_anchor());
}

TEST(DriftMask, FreezesTopFractionCumulativelyAndZeroesTheirGradients) {
  DriftMask mask(10, DriftMaskConfig{0.3, 0.0});  // alpha 0: importance = |g| of the last update
  std::vector<double> theta(10, 0.0), g = {1, 9, 2, 8, 3, 7, 4, 6, 5, 0};
  mask.pre_update(theta, g);
  mask.on_drift(theta, DriftSignal::kWarning);
  EXPECT_EQ(mask.n_frozen(), 0u);
  mask.on_drift(theta, DriftSignal::kDrift);
  EXPECT_EQ(mask.n_frozen(), 3u);
  EXPECT_TRUE(mask.is_frozen(1) && mask.is_frozen(3) && mask.is_frozen(5));
  std::vector<double> g2 = {10, 1, 9, 1, 8, 1, 1, 1, 1, 1};
  mask.pre_update(theta, g2);
  EXPECT_EQ(g2[1], 0.0);
  EXPECT_EQ(g2[3], 0.0);
  EXPECT_EQ(g2[0], 10.0);
  mask.on_drift(theta, DriftSignal::kDrift);  // top 3 now 0, 2, 4: added to the frozen set
  EXPECT_EQ(mask.n_frozen(), 6u);
  mask.unfreeze_all();
  EXPECT_EQ(mask.n_frozen(), 0u);
}

TEST(NeuronRegeneration, ReplacesLeastUsefulGroupsAtTheInterval) {
  NeuronRegenerationConfig c;
  c.group_size = 2;
  c.fraction = 0.25;
  c.interval = 3;
  c.utility_alpha = 0.0;
  NeuronRegeneration regen(8, c);  // 4 groups -> 1 replaced per regeneration
  std::vector<double> theta(8, 5.0), g = {1, 1, 0.1, 0.1, 3, 3, 2, 2};
  for (int t = 0; t < 2; ++t) {
    regen.pre_update(theta, g);
    regen.post_update(theta);
  }
  EXPECT_EQ(theta[2], 5.0);  // not yet
  regen.pre_update(theta, g);
  regen.post_update(theta);
  EXPECT_TRUE(regen.was_regenerated(1));
  EXPECT_FALSE(regen.was_regenerated(0));
  EXPECT_LE(std::fabs(theta[2]), 0.01);
  EXPECT_LE(std::fabs(theta[3]), 0.01);
  EXPECT_EQ(theta[0], 5.0);
  EXPECT_DOUBLE_EQ(regen.utility()[1], (1 + 0.1 + 3 + 2) / 4.0);  // reset to the mean
  NeuronRegenerationConfig tiny = c;
  tiny.fraction = 1e-9;
  NeuronRegeneration one(8, tiny);
  one.force_regenerate(theta);
  int n = 0;
  for (std::size_t gi = 0; gi < one.n_groups(); ++gi) n += one.was_regenerated(gi);
  EXPECT_EQ(n, 1);  // at least one group
}

// Selection agrees with a full sort on random importances (the O(n) path is exact).
TEST(DriftMask, SelectionMatchesFullSortOnRandomInputs) {
  Xorshift64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const std::size_t n = 50 + rng.below(500);
    DriftMask mask(n, DriftMaskConfig{0.2, 0.0});
    std::vector<double> theta(n, 0.0), g(n);
    for (double& v : g) v = rng.normal();
    auto sorted = g;
    for (double& v : sorted) v = std::fabs(v);
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    mask.pre_update(theta, g);
    mask.on_drift(theta, DriftSignal::kDrift);
    const std::size_t k = static_cast<std::size_t>(std::floor(0.2 * static_cast<double>(n)));
    ASSERT_EQ(mask.n_frozen(), k);
    for (std::size_t i = 0; i < n; ++i) {
      if (mask.is_frozen(i)) {
        EXPECT_GE(mask.importance()[i], sorted[k - 1]);
      }
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
