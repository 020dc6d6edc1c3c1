// SGBT's leaf-control options reach every tree through the config table:
// a monotone committee, the options' rows, and checkpoints that carry them.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "support/sgbt_direct.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "ensemble/tree_slot.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

// y = sin(6 x0) - 2 x1 + noise: not monotone in x0, decreasing in x1.
std::unique_ptr<SGBTLearner> train(const char* monotone, int n) {
  SGBTConfig c;
  EXPECT_TRUE(set_sgbt_config_field(c, "monotone", monotone).is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "n-steps", "20").is_ok());
  auto m = SGBTLearner::make(c, {.task = Task::kRegression, .seed = c.seed});
  EXPECT_TRUE(m.is_ok());
  Xorshift64 rng(5);
  double x[3];
  for (int i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    (*m)->learn_one(x, std::sin(6.0 * x[0]) - 2.0 * x[1] + 0.1 * rng.normal());
  }
  return std::move(*m);
}

// Largest rise (sign -1) or drop (sign +1) of the prediction while feature f
// sweeps a grid, the other features held at several values.
double worst_violation(const SGBTLearner& m, int f, int sign) {
  double worst = 0.0;
  for (double a : {0.15, 0.5, 0.85})
    for (double b : {0.2, 0.7}) {
      double prev = -INFINITY;
      for (int i = 0; i <= 100; ++i) {
        double x[3] = {a, a, b};
        x[f] = i / 100.0;
        const double p = sign * m.predict_one(x);
        worst = std::max(worst, prev - p);
        prev = p;
      }
    }
  return worst;
}

TEST(SGBTOptions, MonotoneConstraintsHoldForTheCommittee) {
  const auto free_model = train("", 20000);
  EXPECT_GT(worst_violation(*free_model, 0, +1), 0.05);  // the data are not monotone in x0
  const auto m = train("1,-1", 20000);
  EXPECT_EQ(worst_violation(*m, 0, +1), 0.0);
  EXPECT_EQ(worst_violation(*m, 1, -1), 0.0);
}

TEST(SGBTImportance, SplitCountsFollowTheSignal) {
  // y depends on x0 and x1 only: x2 gets few splits, and the counts add up
  // to the internal nodes of the active trees.
  const auto m = train("", 20000);
  const auto counts = m->feature_split_counts();
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_GT(counts[0], counts[2]);
  EXPECT_GT(counts[1], counts[2]);
  std::uint64_t internal = 0;
  const SGBT& k = m->committee(0);
  for (std::size_t s = 0; s < k.n_steps(); ++s) internal += (k.slot(s).active().n_nodes() - 1) / 2;
  EXPECT_EQ(counts[0] + counts[1] + counts[2], internal);
}

TEST(SGBTOptions, ErrorWeightingLeansOnSurprisingSamples) {
  // A regression stream at level 1 that jumps to 5: one-leaf trees (no
  // splits, no drift resets) move towards the new level faster when samples
  // far from the base weigh up to 10x.
  auto run = [](double alpha) {
    SGBTConfig c;
    c.n_steps = 5;
    c.tree.grace_period = 1000000;
    c.drift.kind = DriftKind::kNone;
    c.error_weight_alpha = alpha;
    SGBTLearner m = testing::sgbt_learner(c, Task::kRegression);
    const double x[1] = {0.5};
    for (int i = 0; i < 2000; ++i) m.learn_one(x, i < 1000 ? 1.0 : 5.0);
    return m.predict_one(x);
  };
  const double plain = run(0.0), weighted = run(0.01);
  EXPECT_GT(weighted, plain + 0.1) << plain << " " << weighted;
  EXPECT_LT(weighted, 5.0);
}

TEST(SGBTOptions, AdaptiveMaxTreeSamplesRetiresTreesSooner) {
  // With k = 4 the limit sits near base / 5 while the trees' contributions
  // spread as usual, so more trees are replaced than with the fixed base.
  auto replacements = [](double k) {
    SGBTConfig c;
    c.n_steps = 10;
    c.drift.kind = DriftKind::kNone;
    c.max_tree_samples = 5000;
    c.adaptive_mts_k = k;
    SGBTLearner m = testing::sgbt_learner(c, Task::kRegression);
    Xorshift64 rng(8);
    double x[2];
    for (int i = 0; i < 20000; ++i) {
      x[0] = rng.uniform();
      x[1] = rng.uniform();
      m.learn_one(x, std::sin(6.0 * x[0]) + x[1] + 0.1 * rng.normal());
    }
    return m.committee(0).n_replacements();
  };
  const std::uint64_t fixed = replacements(0.0), adaptive = replacements(4.0);
  EXPECT_GE(fixed, 30u);
  EXPECT_GT(adaptive, 2 * fixed) << fixed << " " << adaptive;
  SGBTConfig bad;
  bad.adaptive_mts_k = 1.0;  // no base
  EXPECT_FALSE(bad.validate().is_ok());
}

std::uint64_t replacements_with(SGBTConfig c, bool idle_target) {
  c.n_steps = 10;
  c.drift.kind = DriftKind::kNone;
  SGBTLearner m = testing::sgbt_learner(c, Task::kRegression);
  Xorshift64 rng(12);
  double x[2];
  for (int i = 0; i < 6000; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    m.learn_one(x, idle_target ? 0.0 : std::sin(6.0 * x[0]) + x[1] + 0.1 * rng.normal());
  }
  return m.committee(0).n_replacements();
}

TEST(SGBTOptions, QualityPruningReplacesIdleSteps) {
  // A constant target: every tree contributes 0, so every step goes idle.
  SGBTConfig c;
  EXPECT_EQ(replacements_with(c, true), 0u);
  c.quality_prune_alpha = 0.1;
  c.quality_prune_patience = 500;
  EXPECT_GE(replacements_with(c, true), 10u);
  // A live target keeps every step above the threshold.
  EXPECT_EQ(replacements_with(c, false), 0u);
}

TEST(SGBTOptions, ProactivePruningReplacesTheWeakestStep) {
  SGBTConfig c;
  EXPECT_EQ(replacements_with(c, false), 0u);
  c.proactive_prune_interval = 1000;
  const std::uint64_t n = replacements_with(c, false);
  EXPECT_GE(n, 1u);
  EXPECT_LE(n, 6u);  // at most one per interval
}

TEST(SGBTOptions, RowsParseAndRefuse) {
  SGBTConfig c;
  EXPECT_TRUE(set_sgbt_config_field(c, "monotone", "0, +1,-1").is_ok());
  EXPECT_EQ(c.tree.monotone, (std::vector<std::int8_t>{0, 1, -1}));
  EXPECT_EQ(c.tree_config(3).monotone, c.tree.monotone);
  EXPECT_FALSE(set_sgbt_config_field(c, "monotone", "0,2").is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "max-leaf-output", "1.5").is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "min-hessian-sum", "3").is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "gradient-clip-sigma", "2").is_ok());
  EXPECT_FALSE(set_sgbt_config_field(c, "gradient-clip-sigma", "-1").is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "adaptive-leaf-bound", "2.5").is_ok());
  EXPECT_EQ(c.tree_config(1).adaptive_leaf_bound, 2.5);
  EXPECT_TRUE(set_sgbt_config_field(c, "error-weight-alpha", "0.05").is_ok());
  EXPECT_FALSE(set_sgbt_config_field(c, "error-weight-alpha", "1").is_ok());
  const GradientTreeConfig t = c.tree_config(0);
  EXPECT_EQ(t.max_leaf_output, 1.5);
  EXPECT_EQ(t.min_hessian_sum, 3.0);
  EXPECT_EQ(t.gradient_clip_sigma, 2.0);
  ByteWriter w;
  testing::encode_legacy(c, w);
  SGBTConfig d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.tree.monotone, c.tree.monotone);
  EXPECT_EQ(d.tree.max_leaf_output, 1.5);
  EXPECT_EQ(d.tree.min_hessian_sum, 3.0);
  EXPECT_EQ(d.tree.gradient_clip_sigma, 2.0);
  EXPECT_EQ(d.tree.adaptive_leaf_bound, 2.5);
  EXPECT_EQ(d.error_weight_alpha, 0.05);
}

TEST(SGBTOptions, CheckpointWithOptionsContinuesBitIdentically) {
  SGBTConfig c;
  c.n_steps = 10;
  c.tree.monotone = {1, 0, -1};
  c.tree.gradient_clip_sigma = 3.0;
  c.tree.max_leaf_output = 2.0;
  c.tree.min_hessian_sum = 1.0;
  c.tree.adaptive_leaf_bound = 3.0;
  c.error_weight_alpha = 0.02;
  c.max_tree_samples = 1000;
  c.adaptive_mts_k = 2.0;
  c.quality_prune_alpha = 0.05;
  c.proactive_prune_interval = 500;
  SGBTLearner m = testing::sgbt_learner(c, Task::kClassification, 2);
  Xorshift64 rng(2);
  double x[3];
  auto label = [&] { return x[0] - x[2] + 0.3 * rng.normal() > 0.0 ? 1.0 : 0.0; };
  for (int i = 0; i < 3000; ++i) {
    for (double& v : x) v = rng.uniform();
    m.learn_one(x, label());
  }
  ByteWriter w;
  m.encode(w);
  SGBTLearner d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  for (int i = 0; i < 3000; ++i) {
    for (double& v : x) v = rng.uniform();
    ASSERT_EQ(std::bit_cast<std::uint64_t>(m.predict_one(x)), std::bit_cast<std::uint64_t>(d.predict_one(x)));
    const double y = label();
    m.learn_one(x, y);
    d.learn_one(x, y);
  }
}

// k-means bins: every tree keeps its root's values until the grace period
// ends, so a checkpoint taken inside it (and one after) must carry them.
// Interpolated leaves: the priors, through trees replaced on drift (a
// replaced tree restarts from a reset) as well.
TEST(SGBTOptions, KMeansBinsAndInterpolationResumeFromInsideAndAfterTheGracePeriod) {
  for (const auto& [setting, value] : {std::pair{"bins", "kmeans"}, std::pair{"interpolate", "on"},
                                       std::pair{"linear-leaf-optimizer", "adagrad"}, std::pair{"leaf-model", "mlp"}})
  for (int saved_at : {20, 400, 3000}) {
    SCOPED_TRACE(std::string(setting) + " at " + std::to_string(saved_at));
    SGBTConfig c;
    c.n_steps = 8;
    ASSERT_TRUE(set_sgbt_config_field(c, setting, value).is_ok());
    ASSERT_TRUE(set_sgbt_config_field(c, "grace-period", "50").is_ok());
    if (std::string(setting) == "linear-leaf-optimizer") {
      ASSERT_TRUE(set_sgbt_config_field(c, "leaf-model", "linear").is_ok());
      ASSERT_TRUE(set_sgbt_config_field(c, "linear-leaf-decay", "0.99").is_ok());
    }
    SGBTLearner m = testing::sgbt_learner(c, Task::kRegression, 0);
    Xorshift64 rng(12);
    double x[3];
    int t = 0;
    // The target's sign flips at 1500: drift replaces trees.
    auto target = [&] { return (t++ < 1500 ? 1.0 : -1.0) * (2.0 * std::log(x[0]) - x[1]) + 0.1 * rng.normal(); };
    for (int i = 0; i < saved_at; ++i) {
      for (double& v : x) v = std::exp(rng.normal());  // skewed: k-means edges differ from uniform ones
      m.learn_one(x, target());
    }
    ByteWriter w;
    m.encode(w);
    SGBTLearner d;
    ByteReader r(w.data());
    const Status decoded = d.decode(r);
    ASSERT_TRUE(decoded.is_ok()) << decoded.to_string();
    for (int i = 0; i < 3000; ++i) {
      for (double& v : x) v = std::exp(rng.normal());
      ASSERT_EQ(std::bit_cast<std::uint64_t>(m.predict_one(x)), std::bit_cast<std::uint64_t>(d.predict_one(x)));
      const double y = target();
      m.learn_one(x, y);
      d.learn_one(x, y);
    }
  }
}

}  // namespace
}  // namespace irithyll
