// The model and structure options of the SGBT tree:
// linear and adaptive leaves, split re-evaluation at the depth ceiling and
// the CIR adaptive-depth gate. Each test is built so that ignoring the option
// gives a clearly different answer; all streams are seeded (deterministic, no
// false failures).
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

GradientTreeConfig ext_base() {
  GradientTreeConfig c;
  c.grace_period = 50;
  c.n_bins = 32;
  c.delta = 0.01;
  c.lambda = 0.1;
  return c;
}

// A standalone tree fits -g/h: with g = -y, h = 1 it fits y.
template <class Target>
void train(GradientTree& t, int n, std::uint64_t seed, Target y) {
  Xorshift64 rng(seed);
  double x[2];
  for (int i = 0; i < n; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    t.learn_one(x, -y(x, rng), 1.0);
  }
}

template <class Target>
double mse(const GradientTree& t, Target y) {
  Xorshift64 rng(777);
  double x[2], s = 0.0;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    const double e = t.predict(x) - y(x, rng);
    s += e * e;
  }
  return s / n;
}

const auto kLine = [](const double* x, Xorshift64&) { return 3.0 * x[0]; };

TEST(TreeExtensions, LinearLeavesFitALineFarBetterThanConstantOnes) {
  GradientTreeConfig c = ext_base();
  c.max_depth = 1;
  GradientTree constant(c);
  c.leaf_model = TreeLeafModel::kLinear;
  GradientTree linear(c);
  train(constant, 6000, 1, kLine);
  train(linear, 6000, 1, kLine);
  const double mc = mse(constant, kLine), ml = mse(linear, kLine);
  // Two constant leaves on 3x over [0, 1]: about 9 / 48 = 0.19.
  EXPECT_GT(mc, 0.1);
  EXPECT_LT(ml, 0.01 * mc) << "constant " << mc << " linear " << ml;
  EXPECT_TRUE(linear.leaf_is_linear(0) || linear.leaf_is_linear(1) || linear.leaf_is_linear(2));
  // w of a leaf approaches the slope on x0 and ignores x1.
  const std::uint32_t leaf = linear.leaf_index(std::vector<double>{0.9, 0.5});
  ASSERT_EQ(linear.leaf_linear_weights(leaf).size(), 2u);
  EXPECT_NEAR(linear.leaf_linear_weights(leaf)[0], 3.0, 0.3);
  EXPECT_NEAR(linear.leaf_linear_weights(leaf)[1], 0.0, 0.3);
  EXPECT_TRUE(constant.leaf_linear_weights(0).empty());
}

TEST(TreeExtensions, LinearLeavesSkipMissingValues) {
  GradientTreeConfig c = ext_base();
  c.leaf_model = TreeLeafModel::kLinear;
  GradientTree t(c);
  train(t, 2000, 2, kLine);
  const double nan = std::nan("");
  const std::vector<double> x{nan, nan};
  EXPECT_TRUE(std::isfinite(t.predict(x)));
  t.learn_one(x, -1.0, 1.0);
  EXPECT_TRUE(std::isfinite(t.predict(std::vector<double>{0.5, 0.5})));
}

TEST(TreeExtensions, AdaptiveLeavesPromoteOnALineAndNotOnNoise) {
  GradientTreeConfig c = ext_base();
  c.max_depth = 1;
  c.delta = 1e-7;
  c.leaf_model = TreeLeafModel::kAdaptive;
  GradientTree line(c);
  train(line, 6000, 3, kLine);
  bool any = false;
  for (std::uint32_t n = 0; n < line.n_nodes(); ++n) any = any || (line.is_leaf(n) && line.leaf_is_linear(n));
  EXPECT_TRUE(any);
  GradientTreeConfig cc = c;
  cc.leaf_model = TreeLeafModel::kConstant;
  GradientTree constant(cc);
  train(constant, 6000, 3, kLine);
  EXPECT_LT(mse(line, kLine), 0.1 * mse(constant, kLine));

  // Noise independent of x: the linear shadow only chases noise, so no leaf
  // passes the Hoeffding test and predictions equal the constant tree's.
  const auto noise = [](const double*, Xorshift64& r) { return 1.0 + (r.uniform() - 0.5); };
  GradientTree flat(c), flat_constant(cc);
  train(flat, 6000, 4, noise);
  train(flat_constant, 6000, 4, noise);
  for (std::uint32_t n = 0; n < flat.n_nodes(); ++n) EXPECT_FALSE(flat.leaf_is_linear(n)) << "node " << n;
  EXPECT_EQ(flat.predict(std::vector<double>{0.3, 0.7}), flat_constant.predict(std::vector<double>{0.3, 0.7}));
}

TEST(TreeExtensions, AdaptiveChildrenDoNotInheritPromotion) {
  GradientTreeConfig c = ext_base();
  c.max_depth = 3;
  c.leaf_model = TreeLeafModel::kAdaptive;
  GradientTree t(c);
  Xorshift64 rng(5);
  double x[2];
  std::size_t splits_seen = 0;
  for (int i = 0; i < 20000; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    const std::size_t before = t.n_nodes();
    t.learn_one(x, -3.0 * x[0], 1.0);
    if (t.n_nodes() > before) {
      ++splits_seen;
      EXPECT_FALSE(t.leaf_is_linear(static_cast<std::uint32_t>(t.n_nodes() - 1)));
      EXPECT_FALSE(t.leaf_is_linear(static_cast<std::uint32_t>(t.n_nodes() - 2)));
      const auto w = t.leaf_linear_weights(static_cast<std::uint32_t>(t.n_nodes() - 1));
      ASSERT_EQ(w.size(), 2u);
      EXPECT_EQ(w[0], 0.0);
    }
  }
  EXPECT_GT(splits_seen, 0u);
}

// max_depth 1: the root split is the only one. The concept moves from x0 to x1.
TEST(TreeExtensions, SplitReevaluationReplacesAStaleSplitAtTheCeiling) {
  const auto on_x0 = [](const double* x, Xorshift64&) { return x[0] > 0.5 ? 1.0 : -1.0; };
  const auto on_x1 = [](const double* x, Xorshift64&) { return x[1] > 0.5 ? 1.0 : -1.0; };
  GradientTreeConfig c = ext_base();
  c.max_depth = 1;
  GradientTree fixed(c);
  c.split_reeval_interval = 200;
  GradientTree reeval(c);
  for (GradientTree* t : {&fixed, &reeval}) {
    train(*t, 3000, 6, on_x0);
    ASSERT_FALSE(t->is_leaf(0));
    EXPECT_EQ(t->node(0).feature, 0u);
    train(*t, 8000, 7, on_x1);
  }
  EXPECT_EQ(fixed.node(0).feature, 0u);  // what re-evaluation must fix
  EXPECT_EQ(reeval.node(0).feature, 1u);
  EXPECT_GT(reeval.n_split_replacements(), 0u);
  EXPECT_EQ(fixed.n_split_reevaluations(), 0u);
  EXPECT_LT(mse(reeval, on_x1), 0.25 * mse(fixed, on_x1));
  EXPECT_EQ(reeval.depth(), 1u);  // never past the ceiling
  // A stable concept keeps its split.
  GradientTree stable(c);
  train(stable, 12000, 8, on_x0);
  EXPECT_GT(stable.n_split_reevaluations(), 0u);
  EXPECT_EQ(stable.n_split_replacements(), 0u);
}

// A staircase in x0 needs many splits: depth is the binding limit.
TEST(TreeExtensions, CirGateChangesTreeSize) {
  const auto stairs = [](const double* x, Xorshift64&) { return std::floor(16.0 * x[0]); };
  GradientTreeConfig c = ext_base();
  c.max_depth = 2;
  GradientTree plain(c);
  train(plain, 20000, 9, stairs);
  EXPECT_EQ(plain.depth(), 2u);
  c.adaptive_depth = 1e-6;  // a gate nothing fails: the ceiling doubles
  GradientTree deep(c);
  train(deep, 20000, 9, stairs);
  EXPECT_GT(deep.depth(), 2u);
  EXPECT_LE(deep.depth(), 4u);
  EXPECT_GT(deep.n_leaves(), plain.n_leaves());
  // A strict gate: c / (n d) falls as a leaf's n grows while gains grow with
  // n, so it delays splits (here: the root's until n ~ 10^4) and the tree
  // stays smaller than without it.
  c.adaptive_depth = 1e9;
  GradientTree gated(c);
  train(gated, 20000, 9, stairs);
  EXPECT_LT(gated.n_leaves(), plain.n_leaves());
  c.adaptive_depth = 1e12;
  GradientTree closed(c);
  train(closed, 20000, 9, stairs);
  EXPECT_EQ(closed.n_leaves(), 1u);
}

void expect_round_trip(const GradientTreeConfig& c) {
  GradientTree t(c);
  train(t, 3000, 10, [](const double* x, Xorshift64&) { return x[0] > 0.5 ? 3.0 * x[1] : -1.0; });
  ByteWriter w;
  t.encode(w);
  GradientTree d(c);
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  ByteWriter w2;
  d.encode(w2);
  EXPECT_EQ(w.data().size(), w2.data().size());
  EXPECT_TRUE(std::equal(w.data().begin(), w.data().end(), w2.data().begin()));
  Xorshift64 rng(11);
  double x[2];
  for (int i = 0; i < 4000; ++i) {
    x[0] = rng.uniform();
    x[1] = i % 7 == 0 ? std::nan("") : rng.uniform();
    const double g = x[1] > 0.5 ? 1.0 : -2.0 * x[0];
    ASSERT_EQ(std::bit_cast<std::uint64_t>(t.learn_one(x, g, 1.0)), std::bit_cast<std::uint64_t>(d.learn_one(x, g, 1.0)));
  }
  ByteWriter a, b;
  t.encode(a);
  d.encode(b);
  EXPECT_TRUE(a.data() == b.data());
}

TEST(TreeExtensions, EveryOptionRoundTripsAndContinuesBitIdentically) {
  GradientTreeConfig c = ext_base();
  c.max_depth = 2;
  c.leaf_model = TreeLeafModel::kLinear;
  expect_round_trip(c);
  c.leaf_model = TreeLeafModel::kAdaptive;
  expect_round_trip(c);
  c.split_reeval_interval = 100;
  expect_round_trip(c);
  c.adaptive_depth = 0.5;
  c.leaf_decay_alpha = 0.999;
  expect_round_trip(c);
  GradientTreeConfig only_reeval = ext_base();
  only_reeval.max_depth = 1;
  only_reeval.split_reeval_interval = 50;
  expect_round_trip(only_reeval);
  GradientTreeConfig linear_options = ext_base();
  linear_options.max_depth = 2;
  linear_options.leaf_model = TreeLeafModel::kLinear;
  linear_options.linear_adagrad = true;
  linear_options.linear_decay = 0.999;
  expect_round_trip(linear_options);
  linear_options.interpolate = true;
  expect_round_trip(linear_options);
  GradientTreeConfig mlp = ext_base();
  mlp.max_depth = 2;
  mlp.leaf_model = TreeLeafModel::kMlp;
  mlp.mlp_hidden = 5;
  expect_round_trip(mlp);
}

// MLP leaves bend where a line cannot: one split on y = sin(6 x0) leaves two
// leaves that each hold a hump; constant leaves and linear leaves miss it.
// The network starts from the seed (two trees of one config agree bit for
// bit), and a stream of huge gradients leaves every output finite.
TEST(TreeExtensions, MlpLeavesFitACurveAndStayFinite) {
  const auto curve = [](const double* x, Xorshift64&) { return std::sin(6.0 * x[0]); };
  GradientTreeConfig c = ext_base();
  c.max_depth = 1;
  GradientTree constant(c);
  c.leaf_model = TreeLeafModel::kLinear;
  GradientTree linear(c);
  c.leaf_model = TreeLeafModel::kMlp;
  c.mlp_hidden = 8;
  GradientTree mlp(c), twin(c);
  train(constant, 20000, 1, curve);
  train(linear, 20000, 1, curve);
  train(mlp, 20000, 1, curve);
  train(twin, 20000, 1, curve);
  const double mc = mse(constant, curve), ml = mse(linear, curve), mm = mse(mlp, curve);
  EXPECT_LT(mm, 0.5 * ml) << "constant " << mc << " linear " << ml << " mlp " << mm;
  EXPECT_LT(mm, 0.5 * mc);
  const std::vector<double> probe = {0.37, 0.81};
  EXPECT_EQ(std::bit_cast<std::uint64_t>(mlp.predict(probe)), std::bit_cast<std::uint64_t>(twin.predict(probe)));
  GradientTree wild(c);
  Xorshift64 rng(5);
  double x[2];
  for (int i = 0; i < 3000; ++i) {
    x[0] = rng.uniform() * 1e6, x[1] = rng.uniform();
    wild.learn_one(x, (i % 2 ? 1e12 : -1e12), 1e-9);
    ASSERT_TRUE(std::isfinite(wild.predict(x))) << "sample " << i;
  }
}

// AdaGrad learns the slope of a line in a leaf too; linear_decay shrinks w
// by exactly its factor on a sample whose surrogate gradient is zero (the
// leaf already predicts it), so only the decay moves w there.
TEST(TreeExtensions, LinearLeafAdaGradLearnsAndDecayShrinks) {
  GradientTreeConfig c = ext_base();
  c.max_depth = 1;
  c.grace_period = 100000;  // one leaf: the root
  c.leaf_model = TreeLeafModel::kLinear;
  c.linear_adagrad = true;
  GradientTree t(c);
  train(t, 6000, 3, kLine);
  ASSERT_EQ(t.leaf_linear_weights(0).size(), 2u);
  EXPECT_NEAR(t.leaf_linear_weights(0)[0], 3.0, 0.3);
  EXPECT_NEAR(t.leaf_linear_weights(0)[1], 0.0, 0.3);

  c.linear_adagrad = false;
  c.linear_decay = 0.9;
  GradientTree d(c);
  train(d, 3000, 4, kLine);
  const double w0 = d.leaf_linear_weights(0)[0];
  EXPECT_GT(std::abs(w0), 0.1);
  // g = -p with h = 1 makes r = g + h p = 0: the step is zero, so w scales by 0.9.
  const std::vector<double> x = {0.3, 0.6};
  const double p = d.predict(x);
  d.learn_one(x, -p, 1.0);
  EXPECT_DOUBLE_EQ(d.leaf_linear_weights(0)[0], 0.9 * w0);
}


TEST(TreeExtensions, ConfigEncodingAndValidation) {
  // Without the new options the record is unchanged (options version 1 or none).
  ByteWriter plain, ext;
  testing::encode_legacy(ext_base(), plain);
  GradientTreeConfig c = ext_base();
  c.adaptive_depth = 7.5;
  testing::encode_legacy(c, ext);
  EXPECT_GT(ext.size(), plain.size());
  GradientTreeConfig back;
  ByteReader r(ext.data());
  ASSERT_TRUE(back.decode(r).is_ok());
  EXPECT_EQ(back.adaptive_depth, 7.5);
  EXPECT_EQ(back.depth_ceiling(), 2 * c.max_depth);

  GradientTreeConfig bad = ext_base();
  bad.linear_learning_rate = 0.0;
  EXPECT_FALSE(bad.validate().is_ok());
  bad = ext_base();
  bad.adaptive_depth = -1.0;
  EXPECT_FALSE(bad.validate().is_ok());
  bad = ext_base();
  bad.leaf_model = TreeLeafModel::kLinear;
  bad.monotone = {1};
  const Status s = bad.validate();
  EXPECT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("monotone"), std::string::npos);
  EXPECT_EQ(*parse_tree_leaf_model("adaptive"), TreeLeafModel::kAdaptive);
  EXPECT_FALSE(parse_tree_leaf_model("cubic").is_ok());
}

}  // namespace
}  // namespace irithyll
