// The leaf controls of the Rust library: max_leaf_output,
// min_hessian_sum, gradient clipping and monotone constraints, each checked on
// a case where ignoring the option gives a different answer; and the options
// block of the tree record (round trip, bit-identical continuation).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "tree/gradient_tree.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

GradientTreeConfig base() {
  GradientTreeConfig c;
  c.grace_period = 50;
  c.n_bins = 32;
  c.delta = 0.01;
  c.lambda = 0.1;
  return c;
}

double max_abs_leaf(const GradientTree& t) {
  double m = 0.0;
  for (std::uint32_t n = 0; n < t.n_nodes(); ++n)
    if (t.is_leaf(n)) m = std::max(m, std::abs(t.node_value(n)));
  return m;
}

// Gradients that drive leaf values to about -g/h = 40 (h small, as on a
// saturated logistic).
void train_saturated(GradientTree& t, int n) {
  Xorshift64 rng(3);
  double x[2];
  for (int i = 0; i < n; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    t.learn_one(x, x[0] > 0.5 ? -1.0 : 1.0, 0.025);
  }
}

TEST(LeafControls, MaxLeafOutputClampsEveryLeaf) {
  GradientTree free_tree(base());
  train_saturated(free_tree, 2000);
  EXPECT_GT(max_abs_leaf(free_tree), 10.0);  // what the clamp must prevent
  GradientTreeConfig c = base();
  c.max_leaf_output = 2.0;
  GradientTree t(c);
  train_saturated(t, 2000);
  EXPECT_GT(t.n_leaves(), 1u);
  EXPECT_LE(max_abs_leaf(t), 2.0);
  EXPECT_DOUBLE_EQ(max_abs_leaf(t), 2.0);
}

TEST(LeafControls, MinHessianSumSilencesLeavesUntilReached) {
  GradientTreeConfig c = base();
  c.grace_period = 1000;  // one leaf throughout
  c.min_hessian_sum = 100.0;
  GradientTree t(c), free_tree(base());
  const double x[2] = {0.5, 0.5};
  for (int i = 0; i < 99; ++i) {
    t.learn_one(x, -1.0, 1.0);
    free_tree.learn_one(x, -1.0, 1.0);
  }
  EXPECT_EQ(t.predict(x), 0.0);  // H = 99 < 100
  EXPECT_GT(free_tree.predict(x), 0.9);
  t.learn_one(x, -1.0, 1.0);
  EXPECT_NEAR(t.predict(x), 100.0 / 100.1, 1e-12);  // H = 100: the Newton step
}

TEST(LeafControls, GradientClippingBoundsAnOutlier) {
  GradientTreeConfig c = base();
  c.grace_period = 1000;
  c.gradient_clip_sigma = 3.0;
  GradientTree t(c), free_tree(base());
  const double x[2] = {0.5, 0.5};
  for (int i = 0; i < 100; ++i) {
    const double g = i % 2 ? -0.9 : -1.1;  // mean -1, sd ~0.1
    t.learn_one(x, g, 1.0);
    free_tree.learn_one(x, g, 1.0);
  }
  t.learn_one(x, -1e6, 1.0);
  free_tree.learn_one(x, -1e6, 1.0);
  EXPECT_GT(free_tree.predict(x), 1000.0);
  // Clamped to mean - 3 sd of the gradients before it: about -1.3, so the
  // leaf moves by a few thousandths instead of by 1e4.
  EXPECT_GT(t.predict(x), 0.99);
  EXPECT_LT(t.predict(x), 1.01);
}

TEST(LeafControls, AdaptiveLeafBoundFollowsTheLeafsOwnHistory) {
  GradientTreeConfig c = base();
  c.grace_period = 1000;
  c.adaptive_leaf_bound = 3.0;
  c.max_leaf_output = 1000.0;  // the adaptive bound takes priority
  GradientTree t(c), free_tree(base());
  const double x[2] = {0.5, 0.5};
  for (int i = 0; i < 100; ++i) {
    t.learn_one(x, -1.0, 1.0);
    free_tree.learn_one(x, -1.0, 1.0);
  }
  t.learn_one(x, -1e4, 1.0);
  free_tree.learn_one(x, -1e4, 1.0);
  EXPECT_GT(free_tree.predict(x), 90.0);
  // The leaf's values so far lie in [0.9, 1): mean about 0.99, sd about 0.01.
  EXPECT_LT(t.predict(x), 1.2);
  EXPECT_GT(t.predict(x), 0.9);
}

// y = sin(6 x0) + x1: not monotone in x0. With +1 on x0 every tree's
// prediction must be non-decreasing along x0 for any fixed x1.
GradientTree train_wavy(const std::vector<std::int8_t>& monotone, int n) {
  GradientTreeConfig c = base();
  c.lambda = 1.0;
  c.max_depth = 8;
  c.monotone = monotone;
  GradientTree t(c);
  Xorshift64 rng(11);
  double x[2];
  for (int i = 0; i < n; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    const double y = std::sin(6.0 * x[0]) + x[1] + 0.05 * rng.normal();
    // Squared loss around a fixed prediction of 0: g = -y, h = 1.
    t.learn_one(x, -y, 1.0);
  }
  return t;
}

// Largest drop of the prediction along a grid on feature 0 (sign flipped
// for a -1 constraint), over several values of feature 1.
double worst_violation(const GradientTree& t, int sign) {
  double worst = 0.0;
  for (double x1 : {0.1, 0.35, 0.6, 0.85}) {
    double prev = -INFINITY;
    for (int i = 0; i <= 200; ++i) {
      const double x[2] = {i / 200.0, x1};
      const double p = sign * t.predict(x);
      worst = std::max(worst, prev - p);
      prev = p;
    }
  }
  return worst;
}

TEST(LeafControls, MonotoneConstraintHoldsAlongAGrid) {
  const GradientTree free_tree = train_wavy({}, 20000);
  EXPECT_GT(worst_violation(free_tree, +1), 0.1);  // the data are not monotone
  const GradientTree up = train_wavy({1, 0}, 20000);
  EXPECT_GT(up.n_leaves(), 4u);
  EXPECT_EQ(worst_violation(up, +1), 0.0);
  const GradientTree down = train_wavy({-1, 0}, 20000);
  EXPECT_EQ(worst_violation(down, -1), 0.0);
}

TEST(LeafControls, OptionsRoundTripAndContinueBitIdentically) {
  GradientTreeConfig c = base();
  c.monotone = {1, -1};
  c.gradient_clip_sigma = 2.5;
  c.max_leaf_output = 3.0;
  c.min_hessian_sum = 2.0;
  c.adaptive_leaf_bound = 4.0;
  GradientTree t(c);
  train_saturated(t, 1500);
  ByteWriter w;
  t.encode(w);
  GradientTree d(c);
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.config().monotone, c.monotone);
  EXPECT_EQ(d.config().gradient_clip_sigma, 2.5);
  Xorshift64 rng(9);
  double x[2];
  for (int i = 0; i < 1500; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    const double g = x[0] > 0.5 ? -1.0 : 1.0;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(t.learn_one(x, g, 0.025)),
              std::bit_cast<std::uint64_t>(d.learn_one(x, g, 0.025)));
  }
  // A config without options encodes as before them: no options byte.
  ByteWriter plain, flagged;
  testing::encode_legacy(base(), plain);
  testing::encode_legacy(c, flagged);
  EXPECT_GT(flagged.size(), plain.size());
  GradientTreeConfig bad = base();
  bad.monotone = {2};
  EXPECT_FALSE(bad.validate().is_ok());
}

// Interpolated leaves: after the root splits, each child's first sample
// gives v = -g/(h + lambda) and a = h/(h + lambda), and the leaf must then
// hold a v + (1 - a) v_root exactly; the root keeps its plain value; and a
// checkpoint carries the priors (a continued tree stays bit-identical).
TEST(LeafControls, InterpolatedLeavesBlendTowardTheirParent) {
  GradientTreeConfig c = base();
  c.interpolate = true;
  c.lambda = 1.0;
  c.max_depth = 3;
  GradientTree t(c);
  Xorshift64 rng(9);
  double x[2];
  int n = 0;
  while (t.n_nodes() == 1 && n < 5000) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    t.learn_one(x, x[0] > 0.5 ? -1.0 : 1.0, 1.0);
    ++n;
  }
  ASSERT_GT(t.n_nodes(), 1u) << "the root never split";
  const double root = t.node_value(0);
  // The root's value is its own Newton weight (interpolation skips it).
  EXPECT_TRUE(t.is_leaf(1) && t.is_leaf(2));
  for (std::uint32_t child : {1u, 2u}) {
    ASSERT_EQ(t.node_count(child), 0u);
    // A sample routed to this child.
    x[0] = t.node(0).feature == 0 ? (child == 1 ? 0.0 : 1.0) : 0.3;
    x[1] = t.node(0).feature == 1 ? (child == 1 ? 0.0 : 1.0) : 0.3;
    ASSERT_EQ(t.leaf_index(x), child);
    const double g = 0.7, h = 0.5;
    t.learn_one(x, g, h);
    const double v = -g / (h + 1.0), a = h / (h + 1.0);
    EXPECT_DOUBLE_EQ(t.node_value(child), a * v + (1.0 - a) * root) << "child " << child;
  }
  // Without interpolation the same first sample gives the plain weight.
  GradientTreeConfig plain = c;
  plain.interpolate = false;
  GradientTree p(plain);
  Xorshift64 rng2(9);
  while (p.n_nodes() == 1) {
    x[0] = rng2.uniform(), x[1] = rng2.uniform();
    p.learn_one(x, x[0] > 0.5 ? -1.0 : 1.0, 1.0);
  }
  x[0] = p.node(0).feature == 0 ? 0.0 : 0.3;
  x[1] = p.node(0).feature == 1 ? 0.0 : 0.3;
  p.learn_one(x, 0.7, 0.5);
  EXPECT_DOUBLE_EQ(p.node_value(1), -0.7 / 1.5);
  // The priors travel with the state.
  for (int i = 0; i < 500; ++i) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    t.learn_one(x, x[0] > 0.5 ? -1.0 : 1.0, 1.0);
  }
  ByteWriter w;
  t.encode(w);
  GradientTree d(c);
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  for (int i = 0; i < 2000; ++i) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    ASSERT_EQ(std::bit_cast<std::uint64_t>(t.predict(x)), std::bit_cast<std::uint64_t>(d.predict(x)));
    const double g = x[0] + x[1] > 1.0 ? -1.0 : 1.0;
    t.learn_one(x, g, 1.0);
    d.learn_one(x, g, 1.0);
  }
  // A record cut before its priors is refused.
  ByteReader cut(std::span<const std::uint8_t>(w.data().data(), w.data().size() - 8));
  GradientTree e(c);
  EXPECT_FALSE(e.decode(cut).is_ok());
}

// Under leaf decay the Hoeffding bound counts at most 1/(1 - alpha)
// samples, the weight the decayed sums actually hold. With alpha 0.9 the
// root's sums hold about 10 samples' worth, so the best split (g = -1 left of
// x0 = 0.5, +1 right, h = 1) gains at most about 4.6 however long the
// stream; with R = 8 and delta 1e-7 the capped bound is 8 sqrt(ln(1e7)/20)
// = 7.2 and the tree never splits, where the uncapped bound at the first
// attempt (n = 50) is 3.2 and it would split there. Without decay the same
// R splits at once (the sums hold every sample). Deterministic.
TEST(LeafControls, DecayCapsTheSamplesTheHoeffdingBoundCounts) {
  GradientTreeConfig c = base();
  c.lambda = 1.0;
  c.delta = 1e-7;
  c.hoeffding_r = 8.0;
  c.max_depth = 3;
  c.leaf_decay_alpha = 0.9;
  GradientTree decayed(c);
  c.leaf_decay_alpha = 0.0;
  GradientTree kept(c);
  Xorshift64 rng(4);
  double x[2];
  for (int i = 0; i < 3000; ++i) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    const double g = x[0] > 0.5 ? 1.0 : -1.0;
    decayed.learn_one(x, g, 1.0);
    kept.learn_one(x, g, 1.0);
  }
  EXPECT_EQ(decayed.n_nodes(), 1u);
  EXPECT_GT(decayed.n_split_attempts(), 50u);
  EXPECT_GT(kept.n_nodes(), 1u);
}

}  // namespace
}  // namespace irithyll
