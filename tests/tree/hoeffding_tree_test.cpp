#include "tree/gradient_tree.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

constexpr double kHtNaN = std::numeric_limits<double>::quiet_NaN();

// One boosting step against a fixed base of 0 with squared loss: g = 0 - y,
// h = 1, so each leaf converges to the mean target of its region.
void fit_step(GradientTree& t, std::span<const double> x, double y) { t.learn_one(x, -y, 1.0); }

double step_target(const double* x) { return x[0] > 0.5 ? 1.0 : -1.0; }

GradientTreeConfig small_config() {
  GradientTreeConfig c;
  c.grace_period = 50;
  c.n_bins = 16;
  c.max_depth = 4;
  return c;
}

TEST(GradientTree, NoSplitBeforeGraceAndAttemptsOnlyAtMultiples) {
  GradientTreeConfig c = small_config();
  c.delta = 0.999999;  // let any positive gain through
  GradientTree t(c);
  Xorshift64 rng(1);
  double x[2];
  for (int i = 0; i < 49; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    fit_step(t, x, step_target(x));
  }
  EXPECT_EQ(t.n_leaves(), 1u);
  EXPECT_FALSE(t.edges_ready());
  x[0] = 0.9;
  fit_step(t, x, 1.0);  // sample 50: edges computed, this sample only in the histogram
  EXPECT_TRUE(t.edges_ready());
  EXPECT_EQ(t.n_split_attempts(), 0u);
  for (int i = 0; i < 99; ++i) {
    x[0] = rng.uniform();
    fit_step(t, x, step_target(x));
    EXPECT_EQ(t.n_split_attempts(), i >= 49 ? 1u : 0u) << i;  // first attempt at count 100
  }
}

// warm_start fixes the edges after that many root samples (the rest of the
// first grace period then fills the histogram), but never later than the
// first split attempt; the setting survives a config round trip.
TEST(GradientTree, WarmStartFixesTheEdgesEarlier) {
  GradientTreeConfig c = small_config();
  c.warm_start = 10;
  GradientTree t(c);
  double x[2] = {0.0, 0.0};
  for (int i = 0; i < 9; ++i) {
    x[0] = i / 9.0;
    fit_step(t, x, 1.0);
  }
  EXPECT_FALSE(t.edges_ready());
  x[0] = 1.0;
  fit_step(t, x, 1.0);  // the 10th: the range [0, 1] is fixed
  EXPECT_TRUE(t.edges_ready());
  EXPECT_DOUBLE_EQ(t.edges(0).upper_edge(0), 1.0 / c.n_bins);  // equal width over [0, 1]

  c.warm_start = 500;  // past the grace period of 50: the edges come at 50
  GradientTree late(c);
  for (int i = 0; i < 49; ++i) fit_step(late, x, 1.0);
  EXPECT_FALSE(late.edges_ready());
  fit_step(late, x, 1.0);
  EXPECT_TRUE(late.edges_ready());

  // The rows that fixed the edges are replayed into the root's histogram:
  // with warm_start = grace_period the step is split at the 50th sample
  // (without the replay the histogram would hold one row, and the first
  // attempt would come at the 100th).
  GradientTreeConfig r = small_config();
  r.delta = 0.999999;
  r.warm_start = r.grace_period;
  GradientTree step(r);
  Xorshift64 rng(5);
  for (int i = 0; i < 50; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    fit_step(step, x, step_target(x));
  }
  EXPECT_EQ(step.n_split_attempts(), 1u);
  EXPECT_GT(step.n_leaves(), 1u);

  ByteWriter out;
  testing::encode_legacy(c, out);
  GradientTreeConfig back;
  ByteReader in(out.data());
  ASSERT_TRUE(back.decode(in).is_ok());
  EXPECT_EQ(back.warm_start, 500u);
}

TEST(GradientTree, LearnsAStepFunctionAndSplitsOnTheRightFeature) {
  GradientTree t(small_config());
  Xorshift64 rng(2);
  double x[3];
  for (int i = 0; i < 5000; ++i) {
    for (double& v : x) v = rng.uniform();
    fit_step(t, x, step_target(x));
  }
  ASSERT_GT(t.n_leaves(), 1u);
  EXPECT_EQ(t.node(0).feature, 0u);
  EXPECT_NEAR(t.node(0).threshold, 0.5, 0.07);
  double err = 0;
  for (int i = 0; i < 1000; ++i) {
    for (double& v : x) v = rng.uniform();
    err += std::abs(t.predict(x) - step_target(x));
  }
  EXPECT_LT(err / 1000, 0.2);
  EXPECT_GT(t.split_gains()[0], 0.0);
}

TEST(GradientTree, RoutingLessOrEqualGoesLeftAndNaNGoesLeft) {
  GradientTree t(small_config());
  Xorshift64 rng(3);
  double x[1];
  for (int i = 0; i < 3000; ++i) {
    x[0] = rng.uniform();
    fit_step(t, x, step_target(x));
  }
  ASSERT_FALSE(t.is_leaf(0));
  const auto& root = t.node(0);
  const double at[1] = {root.threshold};
  const double above[1] = {std::nextafter(root.threshold, 2.0)};
  const double nan[1] = {kHtNaN};
  // Equality and NaN follow the left child; just above goes right.
  auto first_step = [&](std::span<const double> v) { return v[0] > root.threshold ? root.left + 1 : root.left; };
  EXPECT_EQ(first_step(at), root.left);
  EXPECT_EQ(first_step(nan), root.left);
  EXPECT_EQ(first_step(above), root.left + 1);
  // The tree's own traversal agrees: equality and NaN reach the same leaf as
  // a value just below the threshold, and never the leaf of "just above".
  const double below[1] = {std::nextafter(root.threshold, -2.0)};
  EXPECT_EQ(t.leaf_index(at), t.leaf_index(below));
  EXPECT_NE(t.leaf_index(at), t.leaf_index(above));
  EXPECT_EQ(t.leaf_index(nan), t.leaf_index(below));
  EXPECT_TRUE(std::isfinite(t.predict(nan)));
}

TEST(GradientTree, StructuralInvariantsUnderNoisyData) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    GradientTreeConfig c = small_config();
    c.max_depth = 3;
    c.grace_period = 20;
    c.delta = 0.5;
    c.seed = seed;
    c.feature_subsample = 0.5;
    GradientTree t(c);
    Xorshift64 rng(seed);
    double x[4];
    for (int i = 0; i < 20000; ++i) {
      for (double& v : x) v = rng.uniform() < 0.05 ? kHtNaN : rng.normal();
      if (i % 1000 == 7) x[1] = std::numeric_limits<double>::infinity();
      const double y = (std::isnan(x[0]) ? 0.0 : x[0]) * 2 + rng.normal() * 0.1;
      t.learn_one(x, -y, 1.0);
      ASSERT_TRUE(std::isfinite(t.predict(x)));
    }
    EXPECT_LE(t.depth(), c.max_depth);
    std::size_t leaves = 0, internal = 0;
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n) {
      (t.is_leaf(n) ? leaves : internal) += 1;
      EXPECT_LE(t.node_depth(n), c.max_depth);
    }
    EXPECT_EQ(leaves, internal + 1);
    EXPECT_GT(internal, 0u);
  }
}

TEST(GradientTree, DeterministicPerSeedAndResetEqualsFresh) {
  auto train = [](GradientTree& t, std::uint64_t data_seed, std::vector<double>& preds) {
    Xorshift64 rng(data_seed);
    double x[5];
    for (int i = 0; i < 4000; ++i) {
      for (double& v : x) v = rng.uniform();
      const double y = x[0] + x[1] * x[2] + rng.normal() * 0.05;
      preds.push_back(t.learn_one(x, -y, 1.0));
    }
  };
  GradientTreeConfig c = small_config();
  c.feature_subsample = 0.4;
  GradientTree a(c), b(c);
  std::vector<double> pa, pb, pc;
  train(a, 9, pa);
  train(b, 9, pb);
  EXPECT_EQ(pa, pb);
  a.reset();
  EXPECT_EQ(a.n_leaves(), 1u);
  train(a, 9, pc);
  EXPECT_EQ(pa, pc);
  c.seed = 43;
  GradientTree d(c);
  std::vector<double> pd;
  train(d, 9, pd);
  EXPECT_NE(pa, pd);  // a different feature-subsample stream grows another tree
}

TEST(GradientTree, EncodeDecodeContinuesIdenticallyAndRejectsTruncation) {
  GradientTreeConfig c = small_config();
  c.leaf_decay_alpha = 0.999;
  c.feature_subsample = 0.6;
  GradientTree a(c);
  Xorshift64 rng(4);
  double x[3];
  auto sample = [&]() {
    for (double& v : x) v = rng.uniform();
    return x[0] * 3 - x[2];
  };
  for (int i = 0; i < 3000; ++i) {
    const double y = sample();
    a.learn_one(x, -y, 1.0);
  }
  ByteWriter w;
  a.encode(w);
  GradientTree b(a.config());
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok()) << b.decode(r).to_string();
  EXPECT_TRUE(r.at_end());
  for (int i = 0; i < 3000; ++i) {
    const double y = sample();
    ASSERT_EQ(a.learn_one(x, -y, 1.0), b.learn_one(x, -y, 1.0)) << i;
  }
  for (std::size_t cut = 0; cut < w.size(); cut += 97) {
    GradientTree t(a.config());
    ByteReader tr(std::span<const std::uint8_t>(w.data()).first(cut));
    EXPECT_FALSE(t.decode(tr).is_ok()) << cut;
    EXPECT_EQ(t.n_nodes(), 1u);
  }
}

TEST(GradientTree, LeafDecayTracksRecentData) {
  GradientTreeConfig c = small_config();
  c.grace_period = 100000;  // no splits: a single leaf is an EWMA of residual means
  c.lambda = 0.0;
  c.leaf_decay_alpha = std::exp(-std::log(2.0) / 100.0);
  GradientTree t(c);
  const double x[1] = {0.0};
  for (int i = 0; i < 2000; ++i) t.learn_one(x, -1.0, 1.0);   // target 1 (g = -1 per unit)
  for (int i = 0; i < 1000; ++i) t.learn_one(x, -5.0, 1.0);   // then target 5
  // Ten half-lives after the switch the old level keeps weight 2^-10.
  EXPECT_NEAR(t.predict(x), 5.0 - 4.0 * std::pow(2.0, -10.0), 1e-6);
  GradientTreeConfig off = c;
  off.leaf_decay_alpha = 0.0;
  GradientTree u(off);
  for (int i = 0; i < 2000; ++i) u.learn_one(x, -1.0, 1.0);
  for (int i = 0; i < 1000; ++i) u.learn_one(x, -5.0, 1.0);
  EXPECT_NEAR(u.predict(x), (2000 * 1.0 + 1000 * 5.0) / 3000, 1e-9);
}

TEST(GradientTree, ConfigValidation) {
  EXPECT_TRUE(GradientTreeConfig{}.validate().is_ok());
  GradientTreeConfig c;
  c.n_bins = 1;
  EXPECT_FALSE(c.validate().is_ok());
  c = {};
  c.delta = 1.0;
  EXPECT_FALSE(c.validate().is_ok());
  c = {};
  c.feature_subsample = 0.0;
  EXPECT_FALSE(c.validate().is_ok());
  c = {};
  c.grace_period = 0;
  EXPECT_FALSE(c.validate().is_ok());
}

}  // namespace
}  // namespace irithyll
