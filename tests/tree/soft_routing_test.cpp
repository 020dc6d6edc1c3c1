// soft_predict (src/tree/soft_routing.hpp): the hard rule in the limits,
// missing values left, a convex blend of the leaves in between; the linear
// kernel (sibling interpolation) exactly hard outside the margin, the mean
// of the two siblings at a threshold, and continuous across it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
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

// The smallest and largest leaf value: any blend of the leaves lies between.
std::pair<double, double> leaf_value_range(const GradientTree& t) {
  double lo = INFINITY, hi = -INFINITY;
  for (std::uint32_t n = 0; n < t.n_nodes(); ++n)
    if (t.is_leaf(n)) lo = std::min(lo, t.node_value(n)), hi = std::max(hi, t.node_value(n));
  return {lo, hi};
}

TEST(SoftRouting, HardInTheLimitsAndBlendInBetween) {
  const GradientTree t = grown_tree();
  ASSERT_GT(t.n_leaves(), 2u);
  const auto [lo, hi] = leaf_value_range(t);
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

// Distance from x to the nearest threshold on the nodes of its hard path
// (the only splits the linear kernel can blend at).
double margin_on_path(const GradientTree& t, const double* x) {
  double m = INFINITY;
  std::uint32_t n = 0;
  while (t.node(n).left != 0) {
    const GradientTree::RouteNode& r = t.node(n);
    m = std::min(m, std::abs(x[r.feature] - r.threshold));
    n = r.left + static_cast<std::uint32_t>(x[r.feature] > r.threshold);
  }
  return m;
}

TEST(SoftRouting, LinearKernelIsHardOutsideItsMarginAndBlendsInside) {
  const GradientTree t = grown_tree();
  ASSERT_GT(t.n_leaves(), 2u);
  const auto [lo, hi] = leaf_value_range(t);
  const double b = 0.02;
  const std::vector<double> band(2, b), none, inf(2, INFINITY);
  Xorshift64 rng(5);
  int outside = 0, inside = 0;
  for (int i = 0; i < 2000; ++i) {
    const double x[2] = {rng.uniform(), rng.uniform()};
    const double hard = t.predict(x);
    const double lin = soft_predict(t, x, band, SoftKernel::kLinear);
    EXPECT_EQ(soft_predict(t, x, none, SoftKernel::kLinear), hard);
    EXPECT_EQ(soft_predict(t, x, inf, SoftKernel::kLinear), hard);
    EXPECT_GE(lin, lo - 1e-12);
    EXPECT_LE(lin, hi + 1e-12);
    // Weight leaves the hard path only at a split on it within b of x, so a
    // point at least b from every split on its path sits wholly in its
    // hard leaf.
    if (margin_on_path(t, x) >= b) {
      EXPECT_EQ(lin, hard) << x[0] << "," << x[1];
      ++outside;
    } else {
      ++inside;
    }
  }
  EXPECT_GT(outside, 100);
  EXPECT_GT(inside, 10);
}

TEST(SoftRouting, LinearKernelAtAThresholdIsTheSiblingsMean) {
  // A stump on x0 at 0.5 (leaf values -1 and 2 learned from a clean step).
  GradientTreeConfig c;
  c.grace_period = 50;
  c.max_depth = 1;
  GradientTree t(c);
  Xorshift64 rng(9);
  for (int i = 0; i < 3000; ++i) {
    const double x[1] = {rng.uniform()};
    t.learn_one(x, t.predict(x) - (x[0] > 0.5 ? 2.0 : -1.0), 1.0);
  }
  ASSERT_EQ(t.n_leaves(), 2u);
  const GradientTree::RouteNode& root = t.node(0);
  const double left = t.node_value(root.left), right = t.node_value(root.left + 1);
  const std::vector<double> band(1, 0.1);
  const double at[1] = {root.threshold};
  EXPECT_NEAR(soft_predict(t, at, band, SoftKernel::kLinear), 0.5 * (left + right), 1e-12);
  // A quarter of the way into the margin: weight 1/4 to the right.
  const double quarter[1] = {root.threshold - 0.05};
  EXPECT_NEAR(soft_predict(t, quarter, band, SoftKernel::kLinear), 0.75 * left + 0.25 * right, 1e-12);
  // Continuous: steps of 1e-5 across the threshold move the output by at
  // most 1e-5 * |right - left| / (2 b) (the line's slope), where the hard
  // rule jumps by |right - left|.
  const double slope = std::abs(right - left) / 0.2;
  double worst = 0.0;
  for (double u = root.threshold - 0.15; u < root.threshold + 0.15; u += 1e-5) {
    const double a[1] = {u}, z[1] = {u + 1e-5};
    worst = std::max(worst, std::abs(soft_predict(t, z, band, SoftKernel::kLinear) - soft_predict(t, a, band, SoftKernel::kLinear)));
  }
  EXPECT_LE(worst, 1e-5 * slope * (1.0 + 1e-6));
  EXPECT_GT(std::abs(right - left), 1.0);
}

}  // namespace
}  // namespace irithyll
