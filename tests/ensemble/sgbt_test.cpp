#include "irithyll/ensemble/sgbt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "ensemble/tree_slot.hpp"

namespace irithyll {
namespace {

SGBTConfig fast_config() {
  SGBTConfig c;
  c.n_steps = 20;
  c.learning_rate = 0.1;
  c.tree.grace_period = 50;
  c.tree.n_bins = 16;
  c.tree.max_depth = 4;
  return c;
}

// y = 2 x0 - x1 + 0.5 x2 + N(0, 0.1), x ~ U(0,1)^4 (x3 is noise).
double linear_sample(Xorshift64& rng, double* x) {
  for (int i = 0; i < 4; ++i) x[i] = rng.uniform();
  return 2 * x[0] - x[1] + 0.5 * x[2] + rng.normal() * 0.1;
}

TEST(SGBT, LearnsALinearRegressionTarget) {
  SGBT m(fast_config(), Loss(LossKind::kSquared));
  Xorshift64 rng(1);
  double x[4];
  double se_model = 0, se_base = 0;
  for (int i = 0; i < 20000; ++i) {
    const double y = linear_sample(rng, x);
    if (i >= 15000) {
      se_model += std::pow(m.predict_raw(x) - y, 2);
      se_base += std::pow(m.base_prediction() - y, 2);
    }
    m.train_one(x, y);
  }
  const double rmse = std::sqrt(se_model / 5000), rmse_base = std::sqrt(se_base / 5000);
  EXPECT_LT(rmse, 0.5 * rmse_base) << rmse << " vs base " << rmse_base;
  EXPECT_LT(rmse, 0.25);
  const auto imp = m.feature_importances();
  ASSERT_EQ(imp.size(), 4u);
  double total = 0;
  for (double v : imp) total += v;
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_GT(imp[0], imp[3]);  // the strongest feature beats pure noise
}

TEST(SGBT, BaseWarmUpReplaysBufferedSamples) {
  SGBTConfig c = fast_config();
  c.initial_target_count = 10;
  SGBT m(c, Loss(LossKind::kSquared));
  EXPECT_TRUE(m.feature_importances().empty());
  const double x[1] = {0.5};
  for (int i = 0; i < 9; ++i) {
    m.train_one(x, 10.0 + i);
    EXPECT_FALSE(m.is_initialized());
    EXPECT_DOUBLE_EQ(m.predict_raw(x), (10.0 + 10.0 + i) / 2);  // running mean of targets, no tree output
    EXPECT_EQ(m.slot(0).active().n_samples_seen(), 0u);
  }
  m.train_one(x, 19.0);
  EXPECT_TRUE(m.is_initialized());
  EXPECT_DOUBLE_EQ(m.base_prediction(), 14.5);
  // All ten samples were replayed through every tree after the base was fixed.
  EXPECT_EQ(m.slot(0).active().n_samples_seen(), 10u);
  EXPECT_EQ(m.slot(c.n_steps - 1).active().n_samples_seen(), 10u);
}

TEST(SGBT, SampleWeightMultipliesGradientAndHessian) {
  SGBTConfig c;
  c.n_steps = 1;
  c.learning_rate = 1.0;
  c.tree.lambda = 0.0;
  c.initial_target_count = 1;
  c.tree.grace_period = 1000;
  c.drift.kind = DriftKind::kNone;
  const double x[1] = {0.0};
  SGBT weighted(c, Loss(LossKind::kSquared)), plain(c, Loss(LossKind::kSquared));
  weighted.train_one(x, 0.0, 1.0);
  weighted.train_one(x, 4.0, 3.0);
  plain.train_one(x, 0.0, 1.0);
  plain.train_one(x, 4.0, 1.0);
  EXPECT_DOUBLE_EQ(weighted.predict_raw(x), 3.0);  // (0*1 + 4*3) / 4
  EXPECT_DOUBLE_EQ(plain.predict_raw(x), 2.0);
}

TEST(SGBT, SkipVariantSkipsAboutOneInK) {
  // Over many seeds the fraction of samples a tree skips stays in 5-15% for k = 10.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SGBTConfig c = fast_config();
    c.n_steps = 3;
    c.variant = SGBTVariant::kSkip;
    c.skip_k = 10;
    c.seed = seed;
    c.drift.kind = DriftKind::kNone;  // a replacement would restart the tree's counter
    c.initial_target_count = 1;
    SGBT m(c, Loss(LossKind::kSquared));
    Xorshift64 rng(seed);
    double x[4];
    const int n = 2000;
    for (int i = 0; i < n; ++i) m.train_one(x, linear_sample(rng, x));
    for (std::size_t s = 0; s < m.n_steps(); ++s) {
      const double skipped = 1.0 - static_cast<double>(m.slot(s).active().n_samples_seen()) / n;
      EXPECT_GT(skipped, 0.05) << "seed " << seed;
      EXPECT_LT(skipped, 0.15) << "seed " << seed;
    }
  }
  SGBTConfig always = fast_config();
  always.variant = SGBTVariant::kSkip;
  always.skip_k = 1;
  always.initial_target_count = 1;
  SGBT m(always, Loss(LossKind::kSquared));
  const double x[1] = {1.0};
  for (int i = 0; i < 100; ++i) m.train_one(x, i);
  EXPECT_EQ(m.slot(0).active().n_samples_seen(), 0u);
}

TEST(SGBT, MultipleIterationsRepeatCeilHessianTimesM) {
  SGBTConfig c = fast_config();
  c.n_steps = 2;
  c.variant = SGBTVariant::kMultipleIterations;
  c.mi_multiplier = 2.5;  // squared loss: h = 1 -> ceil(2.5) = 3 repetitions
  c.initial_target_count = 1;
  SGBT m(c, Loss(LossKind::kSquared));
  Xorshift64 rng(3);
  double x[4];
  for (int i = 0; i < 100; ++i) m.train_one(x, linear_sample(rng, x));
  EXPECT_EQ(m.slot(0).active().n_samples_seen(), 300u);
  c.mi_multiplier = 0.1;  // max(1, ceil(0.1)) = 1
  SGBT one(c, Loss(LossKind::kSquared));
  for (int i = 0; i < 100; ++i) one.train_one(x, linear_sample(rng, x));
  EXPECT_EQ(one.slot(0).active().n_samples_seen(), 100u);
}

TEST(SGBT, DriftSpawnsAlternateThenSwapsIt) {
  SGBTConfig c = fast_config();
  c.n_steps = 10;
  c.learning_rate = 0.5;
  c.drift.kind = DriftKind::kPageHinkley;
  c.drift.delta = 0.005;
  c.drift.lambda = 20.0;
  SGBT m(c, Loss(LossKind::kSquared));
  Xorshift64 rng(4);
  double x[4];
  for (int i = 0; i < 5000; ++i) m.train_one(x, linear_sample(rng, x));
  const std::uint64_t before = m.n_replacements();
  std::uint64_t warnings_before = 0;
  for (std::size_t s = 0; s < m.n_steps(); ++s) warnings_before += m.slot(s).n_warnings();
  bool saw_alternate = false;
  for (int i = 0; i < 5000; ++i) {  // abrupt concept change: sign flip
    const double y = 1.5 - linear_sample(rng, x);
    m.train_one(x, y);
    saw_alternate |= m.n_trees() > m.n_steps();
  }
  std::uint64_t warnings_after = 0;
  for (std::size_t s = 0; s < m.n_steps(); ++s) warnings_after += m.slot(s).n_warnings();
  EXPECT_GT(m.n_replacements(), before);
  EXPECT_GT(warnings_after, warnings_before);
  EXPECT_TRUE(saw_alternate);
  // After the swap the trees adapted to the new concept.
  double se = 0;
  for (int i = 0; i < 500; ++i) {
    const double y = 1.5 - linear_sample(rng, x);
    se += std::pow(m.predict_raw(x) - y, 2);
  }
  EXPECT_LT(std::sqrt(se / 500), 0.5);
}

TEST(SGBT, MaxTreeSamplesReplacesTreesOnSchedule) {
  SGBTConfig c = fast_config();
  c.n_steps = 2;
  c.drift.kind = DriftKind::kNone;
  c.max_tree_samples = 300;
  c.initial_target_count = 1;
  SGBT m(c, Loss(LossKind::kSquared));
  Xorshift64 rng(5);
  double x[4];
  for (int i = 0; i < 1000; ++i) m.train_one(x, linear_sample(rng, x));
  EXPECT_EQ(m.slot(0).n_replacements(), 3u);
  EXPECT_EQ(m.slot(0).active().n_samples_seen(), 100u);
}

TEST(SGBT, DeterministicAndSeedSensitive) {
  auto run = [](std::uint64_t seed) {
    SGBTConfig c = fast_config();
    c.seed = seed;
    SGBT m(c, Loss(LossKind::kSquared));
    Xorshift64 rng(8);
    double x[4];
    std::vector<double> preds;
    for (int i = 0; i < 4000; ++i) {
      const double y = linear_sample(rng, x);
      preds.push_back(m.predict_raw(x));
      m.train_one(x, y);
    }
    return preds;
  };
  EXPECT_EQ(run(1), run(1));
  EXPECT_NE(run(1), run(2));
}

TEST(SGBT, ResetEqualsFresh) {
  SGBT a(fast_config(), Loss(LossKind::kSquared)), fresh(fast_config(), Loss(LossKind::kSquared));
  Xorshift64 r1(6);
  double x[4];
  for (int i = 0; i < 3000; ++i) a.train_one(x, linear_sample(r1, x));
  a.reset();
  EXPECT_EQ(a.n_samples_seen(), 0u);
  Xorshift64 r2(7), r3(7);
  double x2[4];
  for (int i = 0; i < 3000; ++i) {
    const double y = linear_sample(r2, x);
    const double y2 = linear_sample(r3, x2);
    ASSERT_EQ(a.predict_raw(x), fresh.predict_raw(x2)) << i;
    a.train_one(x, y);
    fresh.train_one(x2, y2);
  }
}

TEST(SGBT, ExportModelReproducesPredictRaw) {
  SGBT m(fast_config(), Loss(LossKind::kSquared));
  Xorshift64 rng(9);
  double x[4];
  for (int i = 0; i < 5000; ++i) m.train_one(x, linear_sample(rng, x));
  const ExportModel e = m.export_model();
  EXPECT_EQ(e.trees.size(), m.n_steps());
  EXPECT_EQ(e.n_features, 4u);
  EXPECT_DOUBLE_EQ(e.learning_rate, 0.1);
  for (int i = 0; i < 200; ++i) {
    linear_sample(rng, x);
    if (i % 10 == 0) x[1] = std::numeric_limits<double>::quiet_NaN();
    double sum = 0;
    for (const ExportTree& t : e.trees) {
      std::uint32_t n = t.root;
      while (!t.nodes[n].is_leaf) n = x[t.nodes[n].feature] > t.nodes[n].threshold ? t.nodes[n].right : t.nodes[n].left;
      sum += t.nodes[n].leaf_value;
    }
    EXPECT_DOUBLE_EQ(e.base_prediction + e.learning_rate * sum, m.predict_raw(x));
  }
}

TEST(SGBT, MemoryPlateausOnceTreesAreGrown) {
  SGBTConfig c = fast_config();
  c.drift.kind = DriftKind::kNone;
  SGBT m(c, Loss(LossKind::kSquared));
  Xorshift64 rng(10);
  double x[4];
  for (int i = 0; i < 40000; ++i) m.train_one(x, linear_sample(rng, x));
  const std::size_t at40k = m.memory_bytes();
  for (int i = 0; i < 40000; ++i) m.train_one(x, linear_sample(rng, x));
  EXPECT_LE(m.memory_bytes(), at40k + at40k / 20) << "grew from " << at40k;
}

}  // namespace
}  // namespace irithyll

namespace irithyll {
namespace {

TEST(SGBT, EveryBinStrategyLearns) {
  for (const auto& row : bin_strategy_table()) {
    SGBTConfig c = fast_config();
    c.tree.bin_strategy = row.strategy;
    SGBT m(c, Loss(LossKind::kSquared));
    Xorshift64 rng(12);
    double x[4];
    double se = 0, se_base = 0;
    for (int i = 0; i < 15000; ++i) {
      double y = linear_sample(rng, x);
      if (row.strategy == BinStrategy::kCategorical) {  // integer-coded categories
        x[0] = std::floor(x[0] * 8);
        y = (static_cast<int>(x[0]) % 3 == 0 ? 2.0 : 0.0) + rng.normal() * 0.1;
      }
      if (i >= 12000) {
        se += std::pow(m.predict_raw(x) - y, 2);
        se_base += std::pow(m.base_prediction() - y, 2);
      }
      m.train_one(x, y);
    }
    EXPECT_LT(se, 0.5 * se_base) << row.name;
  }
}

}  // namespace
}  // namespace irithyll
