// Linear regression leaves: children start from their parent's linear model
// (FIMT-DD), and no LMS step carries a prediction past its target.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/tree/vfdt.hpp"

namespace irithyll {
namespace {

HoeffdingTreeConfig linear_tree() {
  HoeffdingTreeConfig c;
  c.leaf_model = LeafModel::kLinear;
  c.grace_period = 200;
  c.learning_rate = 0.05;
  return c;
}

TEST(VfdtLinearLeaf, ChildrenStartFromTheParentsSlope) {
  // y = 6 x0 + (x1 > 0.5 ? 10 : 0): the root learns the slope in x0, then
  // splits on x1. Right after the split, each child still answers with that
  // slope; children that started from zero weights would answer with their
  // mean alone (the same value for x0 = 0.1 and x0 = 0.9).
  Vfdt tree(linear_tree(), Task::kRegression, 0, 2, 0, 7);
  Xorshift64 rng(11);
  std::vector<double> x(2);
  const std::vector<double> below{0.5, 0.2}, above{0.5, 0.8};
  double before_below = 0.0, before_above = 0.0;
  bool split = false;
  for (int i = 0; i < 20000 && !split; ++i) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    before_below = tree.predict_one(below), before_above = tree.predict_one(above);
    tree.learn_one(x, 6.0 * x[0] + (x[1] > 0.5 ? 10.0 : 0.0), 1.0);
    split = tree.n_leaves() > 1;
  }
  ASSERT_TRUE(split);
  // The children answer as the parent did: the split itself moves no
  // prediction (only the one sample's step does, a small fraction of 10).
  EXPECT_NEAR(tree.predict_one(below), before_below, 0.5);
  EXPECT_NEAR(tree.predict_one(above), before_above, 0.5);
  for (double side : {0.2, 0.8}) {
    const double lo = tree.predict_one(std::vector<double>{0.1, side});
    const double hi = tree.predict_one(std::vector<double>{0.9, side});
    EXPECT_GT(hi - lo, 0.5 * 6.0 * 0.8) << "x1 = " << side;  // most of the slope's 4.8
  }
}

TEST(VfdtLinearLeaf, AStepNeverOvershootsItsTarget) {
  // One leaf fitted on inputs near 0, then a sample 10^4 standard
  // deviations out: plain LMS would move its prediction by
  // rate (|z|^2 + 1) err, far past the target; the step is capped at the
  // error, so the prediction lands between where it was and the target.
  HoeffdingTreeConfig c = linear_tree();
  c.grace_period = 1000000;  // never splits
  Vfdt tree(c, Task::kRegression, 0, 1, 0, 7);
  Xorshift64 rng(13);
  std::vector<double> x(1);
  for (int i = 0; i < 2000; ++i) {
    x[0] = rng.normal();
    tree.learn_one(x, 2.0 * x[0] + 1.0, 1.0);
  }
  x[0] = 3.0e4;
  const double target = 5.0, before = tree.predict_one(x);
  tree.learn_one(x, target, 1.0);
  const double after = tree.predict_one(x);
  EXPECT_LE(std::abs(after - target), std::abs(before - target) * (1.0 + 1e-9));
  // And the leaf still answers ordinary inputs with finite values.
  EXPECT_TRUE(std::isfinite(tree.predict_one(std::vector<double>{0.5})));
}

}  // namespace
}  // namespace irithyll
