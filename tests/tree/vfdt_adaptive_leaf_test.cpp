// Adaptive regression leaves: each leaf predicts with the mean or the linear
// model, whichever has the lower faded squared error at that leaf.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "irithyll/tree/vfdt.hpp"

namespace irithyll {
namespace {

HoeffdingTreeConfig one_leaf(LeafModel lm) {
  HoeffdingTreeConfig c;
  c.leaf_model = lm;
  c.max_depth = 1;          // a root that never splits: one leaf
  c.grace_period = 1000000;
  c.learning_rate = 0.05;
  return c;
}

// y = 4 x0 - 3 x1 on uniform inputs: the linear model wins at the leaf.
double linear_target(std::span<const double> x) { return 4.0 * x[0] - 3.0 * x[1]; }

TEST(VfdtAdaptiveLeaf, PicksTheLinearModelWhereItErrsLess) {
  Vfdt adaptive(one_leaf(LeafModel::kAdaptive), Task::kRegression, 0, 2, 0, 7);
  Vfdt linear(one_leaf(LeafModel::kLinear), Task::kRegression, 0, 2, 0, 7);
  Vfdt mean(one_leaf(LeafModel::kMean), Task::kRegression, 0, 2, 0, 7);
  Xorshift64 rng(3);
  std::vector<double> x(2);
  for (int i = 0; i < 3000; ++i) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    const double y = linear_target(x);
    adaptive.learn_one(x, y, 1.0);
    linear.learn_one(x, y, 1.0);
    mean.learn_one(x, y, 1.0);
  }
  x[0] = 0.9, x[1] = 0.1;
  // Same linear weights (the adaptive leaf trains its linear model on every
  // sample), and it predicts with them rather than with the mean.
  EXPECT_DOUBLE_EQ(adaptive.predict_one(x), linear.predict_one(x));
  EXPECT_NE(adaptive.predict_one(x), mean.predict_one(x));
  EXPECT_LT(std::abs(adaptive.predict_one(x) - linear_target(x)), std::abs(mean.predict_one(x) - linear_target(x)));
}

TEST(VfdtAdaptiveLeaf, PicksTheMeanOnAConstantTargetWithNoisyInputs) {
  // A constant target: the mean is exact after one sample, while the linear
  // model's SGD steps on the first samples leave it off by a little on
  // inputs it has not seen; the mean's error stays zero, so the mean wins.
  Vfdt adaptive(one_leaf(LeafModel::kAdaptive), Task::kRegression, 0, 2, 0, 7);
  Vfdt mean(one_leaf(LeafModel::kMean), Task::kRegression, 0, 2, 0, 7);
  Xorshift64 rng(5);
  std::vector<double> x(2);
  for (int i = 0; i < 500; ++i) {
    x[0] = rng.uniform() * 100.0, x[1] = rng.uniform();
    adaptive.learn_one(x, 2.5, 1.0);
    mean.learn_one(x, 2.5, 1.0);
  }
  for (double v : {0.0, 50.0, 1000.0}) {
    x[0] = v, x[1] = 0.5;
    EXPECT_DOUBLE_EQ(adaptive.predict_one(x), mean.predict_one(x)) << v;
    EXPECT_DOUBLE_EQ(adaptive.predict_one(x), 2.5) << v;
  }
}

TEST(VfdtAdaptiveLeaf, WeightedSamplesPickTheSamePredictor) {
  // Weight w fades the errors by 0.95^w and adds w squared errors, as w
  // repetitions would: a stream given with weight 2 still picks the linear
  // model on a linear target, and with any weight the mean on a constant one.
  Vfdt lin(one_leaf(LeafModel::kAdaptive), Task::kRegression, 0, 2, 0, 7);
  Vfdt flat(one_leaf(LeafModel::kAdaptive), Task::kRegression, 0, 2, 0, 7);
  Xorshift64 rng(9);
  std::vector<double> x(2);
  for (int i = 0; i < 1500; ++i) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    const double w = i % 2 == 0 ? 2.0 : 0.5;
    lin.learn_one(x, linear_target(x), w);
    x[0] *= 100.0;
    flat.learn_one(x, -1.0, w);
  }
  x[0] = 0.9, x[1] = 0.1;
  EXPECT_LT(std::abs(lin.predict_one(x) - linear_target(x)), 0.3);
  x[0] = 1000.0;
  EXPECT_DOUBLE_EQ(flat.predict_one(x), -1.0);
}

TEST(VfdtAdaptiveLeaf, CheckpointRoundTripContinuesBitIdentically) {
  HoeffdingTreeConfig c;
  c.leaf_model = LeafModel::kAdaptive;
  c.grace_period = 50;
  Vfdt a(c, Task::kRegression, 0, 3, 0, 11);
  Xorshift64 rng(2);
  std::vector<double> x(3);
  auto sample = [&] {
    x[0] = rng.uniform(), x[1] = rng.uniform(), x[2] = rng.uniform();
    return x[0] < 0.5 ? 3.0 + x[1] : 10.0 * x[2];
  };
  for (int i = 0; i < 1500; ++i) a.learn_one(x, sample(), 1.0);
  ByteWriter w;
  a.encode(w);
  Vfdt b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r, a.config()).is_ok());
  EXPECT_EQ(b.config().leaf_model, LeafModel::kAdaptive);
  for (int i = 0; i < 1500; ++i) {
    const double y = sample();
    ASSERT_EQ(a.learn_one(x, y, 1.0), b.learn_one(x, y, 1.0)) << i;
  }
  ByteWriter wa, wb;
  a.encode(wa);
  b.encode(wb);
  EXPECT_EQ(wa.data(), wb.data());
}

TEST(VfdtAdaptiveLeaf, IsTheDefaultAndReadsByName) {
  EXPECT_EQ(HoeffdingTreeConfig{}.leaf_model, LeafModel::kAdaptive);
  auto lm = parse_leaf_model("adaptive");
  ASSERT_TRUE(lm.is_ok());
  EXPECT_EQ(*lm, LeafModel::kAdaptive);
  EXPECT_EQ(leaf_model_name(LeafModel::kAdaptive), "adaptive");
  // Classification: adaptive is adaptive naive Bayes, so the learner accepts it.
  EXPECT_TRUE(HoeffdingTreeLearner::make({}, {Task::kClassification, 2, 0, 1}).is_ok());
}

}  // namespace
}  // namespace irithyll
