// SGBTLearner's Tunable hooks: adjustments become the model's settings
// (a fresh model built with them is the same model; a checkpoint taken
// after one resumes bit-identically), bad arguments change nothing, depth
// changes govern growth from then on, and the five signals move the way
// their definitions say.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "support/encoded.hpp"
#include "support/sgbt_direct.hpp"

namespace irithyll {
namespace {

SGBTConfig small_config() {
  SGBTConfig c;
  c.n_steps = 10;
  c.learning_rate = 0.1;
  c.tree.grace_period = 30;
  c.tree.n_bins = 16;
  c.tree.max_depth = 4;
  c.tree.lambda = 0.5;
  c.drift.lambda = 10.0;  // sensitive: checkpoints carry alternates and detector state
  return c;
}

// y = sin(3 x0) + x1^2 + noise on [0, 1)^3.
double friedman_like(Xorshift64& rng, double* x) {
  for (int i = 0; i < 3; ++i) x[i] = rng.uniform();
  return std::sin(3.0 * x[0]) + x[1] * x[1] + 0.1 * (rng.uniform() - 0.5);
}

void learn(SGBTLearner& m, std::uint64_t seed, int n) {
  Xorshift64 rng(seed);
  double x[3];
  for (int i = 0; i < n; ++i) {
    const double y = friedman_like(rng, x);
    m.learn_one(x, y);
  }
}

SGBTLearner decoded(const SGBTLearner& m) {
  const auto bytes = testing::encoded(m);
  ByteReader in(bytes);
  SGBTLearner out;
  EXPECT_TRUE(out.decode(in).is_ok());
  return out;
}

std::uint32_t deepest_tree(const SGBTLearner& m) {
  std::uint32_t d = 0;
  for (const auto& t : m.ensemble_diagnostics(0).trees) d = std::max(d, t.depth);
  return d;
}

TEST(SGBTTuning, AdjustmentsBecomeTheSettings) {
  SGBTLearner m = testing::sgbt_learner(small_config(), Task::kRegression);
  ASSERT_TRUE(m.adjust_config(0.5, 0.25).is_ok());
  ASSERT_TRUE(m.apply_structural_change(1, 5).is_ok());
  EXPECT_DOUBLE_EQ(m.config().learning_rate, 0.05);
  EXPECT_DOUBLE_EQ(m.config().tree.lambda, 0.75);
  EXPECT_EQ(m.config().tree.max_depth, 5u);
  EXPECT_EQ(m.config().n_steps, 15u);
  EXPECT_EQ(m.committee(0).n_steps(), 15u);

  // Adjusted before any sample, it is the model those settings build.
  SGBTConfig c = small_config();
  c.learning_rate = 0.05;
  c.tree.lambda = 0.75;
  c.tree.max_depth = 5;
  c.n_steps = 15;
  SGBTLearner fresh = testing::sgbt_learner(c, Task::kRegression);
  learn(m, 3, 2000);
  learn(fresh, 3, 2000);
  EXPECT_EQ(testing::encoded(m), testing::encoded(fresh));
}

TEST(SGBTTuning, FewerStepsDropTheLastOnes) {
  SGBTLearner m = testing::sgbt_learner(small_config(), Task::kRegression);
  ASSERT_TRUE(m.apply_structural_change(-1, -4).is_ok());
  SGBTConfig c = small_config();
  c.n_steps = 6;
  c.tree.max_depth = 3;
  SGBTLearner fresh = testing::sgbt_learner(c, Task::kRegression);
  learn(m, 4, 1500);
  learn(fresh, 4, 1500);
  EXPECT_EQ(testing::encoded(m), testing::encoded(fresh));
}

TEST(SGBTTuning, NoChangeChangesNothing) {
  SGBTLearner a = testing::sgbt_learner(small_config(), Task::kClassification, 3);
  SGBTLearner b = testing::sgbt_learner(small_config(), Task::kClassification, 3);
  Xorshift64 rng(5);
  double x[3];
  for (int i = 0; i < 3000; ++i) {
    for (double& v : x) v = rng.uniform();
    const double y = std::floor(x[0] * 3.0);
    a.learn_one(x, y);
    b.learn_one(x, y);
    if (i == 1500) {
      ASSERT_TRUE(b.adjust_config(1.0, 0.0).is_ok());
      ASSERT_TRUE(b.apply_structural_change(0, 0).is_ok());
    }
  }
  EXPECT_EQ(testing::encoded(a), testing::encoded(b));
}

TEST(SGBTTuning, ResumesBitIdenticallyAfterMidStreamChanges) {
  for (const int depth_delta : {-2, 2}) {
    SGBTLearner m = testing::sgbt_learner(small_config(), Task::kRegression);
    learn(m, 6, 2500);
    ASSERT_TRUE(m.adjust_config(2.0, -0.2).is_ok());
    ASSERT_TRUE(m.apply_structural_change(depth_delta, 3).is_ok());
    SGBTLearner resumed = decoded(m);
    learn(m, 7, 2500);
    learn(resumed, 7, 2500);
    EXPECT_EQ(testing::encoded(m), testing::encoded(resumed)) << "depth delta " << depth_delta;
    const double x[3] = {0.3, 0.6, 0.1};
    EXPECT_EQ(m.predict_one(x), resumed.predict_one(x));
  }
}

// A half-life set before the first sample is the model that setting builds;
// one set mid-stream (turning the contribution averages on) and later off
// again resumes bit-identically from a checkpoint at each point.
TEST(SGBTTuning, PruneHalfLifeBecomesTheSetting) {
  SGBTLearner m = testing::sgbt_learner(small_config(), Task::kRegression);
  ASSERT_TRUE(m.set_prune_half_life(40.0).is_ok());
  SGBTConfig c = small_config();
  c.prune_half_life = 40.0;
  c.proactive_prune_interval = 300;
  SGBTLearner fresh = testing::sgbt_learner(c, Task::kRegression);
  SGBTConfig with_interval = small_config();
  with_interval.proactive_prune_interval = 300;
  SGBTLearner late = testing::sgbt_learner(with_interval, Task::kRegression);
  ASSERT_TRUE(late.set_prune_half_life(40.0).is_ok());
  learn(fresh, 8, 3000);
  learn(late, 8, 3000);
  EXPECT_EQ(testing::encoded(fresh), testing::encoded(late));
  EXPECT_GT(fresh.n_tree_replacements(), 0u);

  // The rate differs from proactive pruning's default 0.01 (half-life 69),
  // so the same stream prunes other steps.
  SGBTLearner default_rate = testing::sgbt_learner(with_interval, Task::kRegression);
  learn(default_rate, 8, 3000);
  EXPECT_NE(testing::encoded(default_rate), testing::encoded(fresh));

  learn(m, 9, 1500);
  for (const double half_life : {25.0, 0.0}) {
    ASSERT_TRUE(m.set_prune_half_life(half_life).is_ok());
    EXPECT_EQ(m.config().prune_half_life, half_life);
    SGBTLearner resumed = decoded(m);
    learn(m, 10, 800);
    learn(resumed, 10, 800);
    EXPECT_EQ(testing::encoded(m), testing::encoded(resumed)) << "half-life " << half_life;
  }
}

// check_proactive_prune replaces at most one step per committee, only a
// mature one, and only with averages to judge by; bad half-lives change
// nothing.
TEST(SGBTTuning, ProactivePruneOnDemand) {
  SGBTLearner m = testing::sgbt_learner(small_config(), Task::kRegression);
  learn(m, 11, 2000);
  const auto before = testing::encoded(m);
  auto none = m.check_proactive_prune();
  ASSERT_TRUE(none.is_ok());
  EXPECT_FALSE(*none);  // no averages kept: nothing to judge by
  EXPECT_EQ(testing::encoded(m), before);

  for (const double bad : {0.5, -1.0, 2e12, std::numeric_limits<double>::quiet_NaN()}) {
    const Status s = m.set_prune_half_life(bad);
    EXPECT_FALSE(s.is_ok()) << bad;
    EXPECT_NE(s.message().find("prune half-life"), std::string::npos) << s.message();
  }
  EXPECT_EQ(testing::encoded(m), before);

  ASSERT_TRUE(m.set_prune_half_life(20.0).is_ok());
  // The averages start at 0: every step is mature by its sample count, but
  // all averages tie, so none is strictly below the 25th percentile.
  auto tied = m.check_proactive_prune();
  ASSERT_TRUE(tied.is_ok());
  EXPECT_FALSE(*tied);
  learn(m, 12, 400);
  int replaced = 0;
  for (int round = 0; round < 5; ++round) {
    const std::uint64_t n0 = m.n_tree_replacements();
    auto pruned = m.check_proactive_prune();
    ASSERT_TRUE(pruned.is_ok());
    EXPECT_EQ(m.n_tree_replacements() - n0, *pruned ? 1u : 0u);
    replaced += *pruned;
  }
  // The first call replaces the weakest step; its fresh tree (no samples)
  // is not mature, so the remaining nine keep qualifying one at a time.
  EXPECT_EQ(replaced, 5);
}

TEST(SGBTTuning, DepthGovernsGrowthFromNowOn) {
  SGBTConfig c = small_config();
  c.tree.max_depth = 1;
  SGBTLearner m = testing::sgbt_learner(c, Task::kRegression);
  learn(m, 8, 3000);
  ASSERT_EQ(deepest_tree(m), 1u);
  // Deeper: the leaves at the old limit take histograms and split again.
  ASSERT_TRUE(m.apply_structural_change(3, 0).is_ok());
  learn(m, 9, 3000);
  EXPECT_GT(deepest_tree(m), 1u);
  EXPECT_LE(deepest_tree(m), 4u);
  // Shallower again: grown branches stay, the checkpoint still decodes,
  // and no tree grows past the old depth.
  const std::uint32_t before = deepest_tree(m);
  ASSERT_TRUE(m.apply_structural_change(-3, 0).is_ok());
  learn(m, 10, 3000);
  EXPECT_LE(deepest_tree(m), before);
  SGBTLearner resumed = decoded(m);
  EXPECT_EQ(testing::encoded(resumed), testing::encoded(m));
}

TEST(SGBTTuning, RangesHoldAndBadArgumentsChangeNothing) {
  SGBTLearner m = testing::sgbt_learner(small_config(), Task::kRegression);
  learn(m, 11, 500);
  const auto before = testing::encoded(m);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(m.adjust_config(0.0, 0.0).is_ok());
  EXPECT_FALSE(m.adjust_config(-1.0, 0.0).is_ok());
  EXPECT_FALSE(m.adjust_config(nan, 0.0).is_ok());
  EXPECT_FALSE(m.adjust_config(inf, 0.0).is_ok());
  EXPECT_FALSE(m.adjust_config(1.0, nan).is_ok());
  EXPECT_FALSE(m.adjust_config(1.0, -inf).is_ok());
  EXPECT_EQ(testing::encoded(m), before);
  // Clamped: the rate to (0, 1], lambda to >= 0, depth to 1..30, steps to 1..10000.
  ASSERT_TRUE(m.adjust_config(1e6, -1e6).is_ok());
  EXPECT_EQ(m.config().learning_rate, 1.0);
  EXPECT_EQ(m.config().tree.lambda, 0.0);
  ASSERT_TRUE(m.apply_structural_change(-100, -100000).is_ok());
  EXPECT_EQ(m.config().tree.max_depth, 1u);
  EXPECT_EQ(m.config().n_steps, 1u);
  ASSERT_TRUE(m.apply_structural_change(100, 3).is_ok());
  EXPECT_EQ(m.config().tree.max_depth, 30u);
  EXPECT_EQ(m.config().n_steps, 4u);
  EXPECT_TRUE(m.config().validate().is_ok());
}

TEST(SGBTTuning, SignalsFollowTheirDefinitions) {
  const ConfigDiagnostics untrained = testing::sgbt_learner(small_config(), Task::kRegression).config_diagnostics();
  EXPECT_EQ(untrained.effective_dof, 10.0);  // one leaf per step
  EXPECT_EQ(untrained.uncertainty, 0.0);
  EXPECT_EQ(untrained.regularization_sensitivity, 0.0);

  auto trained = [](double lambda, std::uint32_t depth, double lr) {
    SGBTConfig c = small_config();
    c.tree.lambda = lambda;
    c.tree.max_depth = depth;
    c.learning_rate = lr;
    SGBTLearner m = testing::sgbt_learner(c, Task::kRegression);
    learn(m, 12, 4000);
    return m.config_diagnostics();
  };
  const ConfigDiagnostics base = trained(0.5, 4, 0.1);
  EXPECT_GT(base.effective_dof, 10.0);
  EXPECT_GT(base.uncertainty, 0.0);
  for (const double v : base.as_array()) EXPECT_TRUE(std::isfinite(v));
  EXPECT_GE(base.depth_sufficiency, 0.0);
  EXPECT_LE(base.depth_sufficiency, 1.0);
  // More lambda shrinks more; depth 1 leaves everything at the limit.
  EXPECT_GT(trained(50.0, 4, 0.1).regularization_sensitivity, base.regularization_sensitivity);
  EXPECT_EQ(trained(0.5, 1, 0.1).depth_sufficiency, 1.0);
  // Small steps leave the residual to the next tree, in the same direction.
  EXPECT_GT(trained(0.5, 4, 0.02).residual_alignment, 0.5);
  EXPECT_GT(trained(0.5, 4, 0.02).residual_alignment, trained(0.5, 4, 1.0).residual_alignment);
}

}  // namespace
}  // namespace irithyll
