// soft_predict (src/tree/soft_routing.hpp): the hard rule in the limits,
// missing values left, a convex blend of the leaves in between.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "tree/gradient_tree.hpp"
#include "tree/soft_routing.hpp"

namespace irithyll {
namespace {

GradientTree grown_tree() {
  GradientTreeConfig c;
  c.grace_period = 50;
  c.max_depth = 4;
  GradientTree t(c);
  Xorshift64 rng(2);
  for (int i = 0; i < 5000; ++i) {
    const double x[2] = {rng.uniform(), rng.uniform()};
    const double y = (x[0] > 0.5 ? 2.0 : -1.0) + x[1];
    const double pred = t.predict(x);
    t.learn_one(x, pred - y, 1.0);  // squared loss: g = p - y, h = 1
  }
  return t;
}

TEST(SoftRouting, HardInTheLimitsAndBlendInBetween) {
  const GradientTree t = grown_tree();
  ASSERT_GT(t.n_leaves(), 2u);
  double lo = INFINITY, hi = -INFINITY;
  for (std::uint32_t n = 0; n < t.n_nodes(); ++n)
    if (t.is_leaf(n)) lo = std::min(lo, t.node_value(n)), hi = std::max(hi, t.node_value(n));
  const std::vector<double> none, zero(2, 0.0), inf(2, std::numeric_limits<double>::infinity()), tiny(2, 1e-300),
      wide(2, 0.05);
  Xorshift64 rng(4);
  double moved = 0.0;
  for (int i = 0; i < 500; ++i) {
    const double x[2] = {rng.uniform(), rng.uniform()};
    const double hard = t.predict(x);
    EXPECT_EQ(soft_predict(t, x, none), hard);  // no bandwidth: hard routing, exactly
    EXPECT_EQ(soft_predict(t, x, zero), hard);
    EXPECT_EQ(soft_predict(t, x, inf), hard);
    EXPECT_NEAR(soft_predict(t, x, tiny), hard, 1e-12);
    const double soft = soft_predict(t, x, wide);
    EXPECT_GE(soft, lo - 1e-12);  // a convex combination of the leaves
    EXPECT_LE(soft, hi + 1e-12);
    moved = std::max(moved, std::abs(soft - hard));
  }
  EXPECT_GT(moved, 0.01);  // the bandwidth does blend near the thresholds
  // NaN goes left at every split, as in training.
  const double missing[2] = {std::nan(""), std::nan("")};
  EXPECT_EQ(soft_predict(t, missing, wide), t.predict(missing));
}

}  // namespace
}  // namespace irithyll
