// The online Mondrian process of one tree (src/mondrian/mondrian_tree.hpp):
// split times, split features and thresholds follow the Mondrian process
// restricted to the data's bounding box whatever the arrival order, boxes
// widen to take in new points, and the tree stays a consistent partition.
#include "mondrian/mondrian_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::detail {
namespace {

MondrianParams regression_params(std::size_t width) {
  MondrianParams p;
  p.task = Task::kRegression;
  p.width = width;
  p.max_nodes = 1 << 20;
  return p;
}

MondrianParams classification_params(std::size_t width, std::size_t k) {
  MondrianParams p = regression_params(width);
  p.task = Task::kClassification;
  p.n_classes = k;
  return p;
}

void learn(MondrianTree& t, const MondrianParams& p, std::vector<double> x, double y) {
  std::vector<double> ext(p.width);
  t.learn(p, x, y, 1.0, ext);
}

// Kolmogorov-Smirnov statistic of `v` against the CDF `cdf`.
template <class Cdf>
double ks_statistic(std::vector<double> v, Cdf cdf) {
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  double d = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

// KS critical value at false-failure rate 1e-4 (asymptotic: sqrt(ln(2/a)/2) / sqrt(n)).
double ks_critical(std::size_t n) { return std::sqrt(std::log(2.0 / 1e-4) / 2.0) / std::sqrt(static_cast<double>(n)); }

// The online tree has the law of a Mondrian process restricted to the
// bounding box of the data (Lakshminarayanan et al. 2014, Section 3): after
// (0,0), (1,0), (0,2) in any order, the root splits at T ~ Exp(1 + 2), on
// feature 1 with probability 2/3, at a threshold uniform in that feature's
// range. The third point can only reach the root's split through the
// insertion of a node above the old subtree, so this also checks that
// mechanism. With scaled extents (each e_j over feature j's range, x
// included) the same holds for the points scaled to [0, 1]: (0,0), (1,0),
// (0,1), so T ~ Exp(1 + 1) and feature 1 has probability 1/2 (in either
// order each arrival extends one feature by its whole range, rate 1).
// 4000 independent trees; each check has a false-failure rate of at most
// 1e-4 (KS at 1e-4; the z-tests at |z| < 4.4, about 1e-5).
TEST(MondrianProcess, RootSplitFollowsTheMondrianLawOfTheBoundingBox) {
 for (const bool scaled : {false, true}) {
  MondrianParams p = regression_params(2);
  p.scaled_extents = scaled;
  const double rate = scaled ? 2.0 : 3.0, share1 = scaled ? 0.5 : 2.0 / 3.0;
  const std::vector<std::vector<double>> points = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 2.0}};
  for (const std::vector<int>& order : {std::vector<int>{0, 1, 2}, std::vector<int>{2, 0, 1}}) {
    constexpr std::size_t kTrees = 4000;
    std::vector<double> scaled_times, thresholds0, thresholds1;
    std::size_t on_feature1 = 0;
    for (std::size_t s = 0; s < kTrees; ++s) {
      MondrianTree t(p, derive_seed(1234, s));
      for (int i : order) learn(t, p, points[i], static_cast<double>(i));
      const MondrianNode& root = t.node(0);
      ASSERT_FALSE(root.is_leaf());
      scaled_times.push_back(rate * t.node(root.left).time);
      if (root.feature == 1) {
        ++on_feature1;
        thresholds1.push_back(root.threshold / 2.0);
      } else {
        thresholds0.push_back(root.threshold);
      }
    }
    const double n = static_cast<double>(kTrees);
    double mean = 0.0;
    for (double v : scaled_times) mean += v / n;
    EXPECT_LT(std::fabs(mean - 1.0) / (1.0 / std::sqrt(n)), 4.4) << "mean of rate T = " << mean << " scaled " << scaled;
    EXPECT_LT(ks_statistic(scaled_times, [](double v) { return 1.0 - std::exp(-v); }), ks_critical(kTrees));
    const double share = static_cast<double>(on_feature1) / n;
    EXPECT_LT(std::fabs(share - share1) / std::sqrt(share1 * (1.0 - share1) / n), 4.4)
        << "feature 1 share " << share << " scaled " << scaled;
    auto uniform = [](double v) { return std::clamp(v, 0.0, 1.0); };
    EXPECT_LT(ks_statistic(thresholds0, uniform), ks_critical(thresholds0.size()));
    EXPECT_LT(ks_statistic(thresholds1, uniform), ks_critical(thresholds1.size()));
  }
 }
}

// A leaf splits whenever a point falls outside its box, at its birth time
// plus T ~ Exp(E), E the sum of the range extensions: with the box [0,1]^2
// and x = (1.5, 3), E = 0.5 + 2 = 2.5; scaled by the ranges x makes, 1.5
// and 3, E = 1/3 + 2/3 = 1. Same false-failure budget as above.
TEST(MondrianProcess, LeafSplitTimeIsExponentialWithTheExtensionSumAsRate) {
 for (const bool scaled_extents : {false, true}) {
  constexpr std::size_t kTrees = 4000;
  const double rate = scaled_extents ? 1.0 : 2.5;
  std::vector<double> scaled;
  for (std::size_t s = 0; s < kTrees; ++s) {
    // A box [0,1]^2 in one leaf: with distinct labels it would split, so
    // grow it in a classification tree whose labels are all equal (pure).
    MondrianParams pure = classification_params(2, 2);
    pure.scaled_extents = scaled_extents;
    MondrianTree c(pure, derive_seed(99, s));
    for (const auto& x : {std::vector<double>{0, 0}, std::vector<double>{1, 1}, std::vector<double>{0, 1}})
      learn(c, pure, x, 0.0);
    ASSERT_EQ(c.size(), 1u);
    learn(c, pure, {1.5, 3.0}, 1.0);  // another label: the leaf must split
    ASSERT_EQ(c.size(), 3u);
    const MondrianNode& root = c.node(0);
    scaled.push_back(rate * c.node(root.left).time);
  }
  EXPECT_LT(ks_statistic(scaled, [](double v) { return 1.0 - std::exp(-v); }), ks_critical(kTrees))
      << "scaled " << scaled_extents;
 }
}

// Split-pure off: a node whose samples all carry x's label does not split;
// it widens its box to take x in.
TEST(MondrianProcess, APureLeafWidensItsBoxInsteadOfSplitting) {
  const MondrianParams p = classification_params(3, 2);
  MondrianTree t(p, 5);
  learn(t, p, {0.0, 0.0, 0.0}, 1.0);
  learn(t, p, {2.0, -1.0, 0.5}, 1.0);
  learn(t, p, {-3.0, 4.0, 0.25}, 1.0);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.lo(p, 0, 0), -3.0);
  EXPECT_EQ(t.hi(p, 0, 0), 2.0);
  EXPECT_EQ(t.lo(p, 0, 1), -1.0);
  EXPECT_EQ(t.hi(p, 0, 1), 4.0);
  EXPECT_EQ(t.lo(p, 0, 2), 0.0);
  EXPECT_EQ(t.hi(p, 0, 2), 0.5);
  // Split-pure on: the same stream splits at the second point.
  MondrianParams split = p;
  split.split_pure = true;
  MondrianTree u(split, 5);
  learn(u, split, {0.0, 0.0, 0.0}, 1.0);
  learn(u, split, {2.0, -1.0, 0.5}, 1.0);
  EXPECT_EQ(u.size(), 3u);
}

// A point outside a leaf's box splits it: the old box moves down unchanged,
// the point sits alone in a new leaf, and the parent's box covers both.
TEST(MondrianProcess, APointOutsideTheBoxGetsItsOwnLeaf) {
  const MondrianParams p = regression_params(2);
  MondrianTree t(p, 17);
  learn(t, p, {0.0, 0.0}, 1.0);
  learn(t, p, {1.0, 1.0}, 2.0);
  ASSERT_EQ(t.size(), 3u);
  const std::uint32_t leaf = t.leaf_of(std::vector<double>{1.0, 1.0});
  EXPECT_EQ(t.lo(p, leaf, 0), 1.0);
  EXPECT_EQ(t.hi(p, leaf, 0), 1.0);
  const std::uint32_t old = t.leaf_of(std::vector<double>{0.0, 0.0});
  EXPECT_NE(old, leaf);
  EXPECT_EQ(t.hi(p, old, 0), 0.0);
  EXPECT_EQ(t.lo(p, 0, 0), 0.0);
  EXPECT_EQ(t.hi(p, 0, 1), 1.0);
  // A point inside the root's box but outside both leaves' boxes: no
  // extension at the root, so it splits a leaf (or nothing above it).
  learn(t, p, {0.5, 0.5}, 3.0);
  EXPECT_EQ(t.size(), 5u);
  EXPECT_EQ(t.lo(p, 0, 0), 0.0);
  EXPECT_EQ(t.hi(p, 0, 0), 1.0);
}

// On a random stream: child boxes nest in their parent's, children are born
// after their parent, the split threshold separates the children's boxes,
// and every sample lies in the box of every node on its path.
TEST(MondrianProcess, TreeStaysAConsistentNestedPartition) {
  const MondrianParams p = regression_params(4);
  MondrianTree t(p, 3);
  Xorshift64 rng(8);
  std::vector<std::vector<double>> seen;
  for (int i = 0; i < 2000; ++i) {
    std::vector<double> x(4);
    for (double& v : x) v = rng.normal();
    learn(t, p, x, x[0] + x[1]);
    seen.push_back(x);
  }
  EXPECT_GT(t.size(), 200u);
  for (std::uint32_t v = 0; v < t.size(); ++v) {
    const MondrianNode& n = t.node(v);
    if (n.is_leaf()) continue;
    for (std::uint32_t c : {n.left, n.right}) {
      EXPECT_EQ(t.node(c).parent, v);
      EXPECT_GE(t.node(c).time, n.time);
      for (std::size_t j = 0; j < p.width; ++j) {
        EXPECT_GE(t.lo(p, c, j), t.lo(p, v, j));
        EXPECT_LE(t.hi(p, c, j), t.hi(p, v, j));
      }
    }
    EXPECT_LE(t.hi(p, n.left, n.feature), n.threshold);
    EXPECT_GT(t.lo(p, n.right, n.feature), n.threshold);
  }
  for (const auto& x : seen) {
    std::uint32_t v = 0;
    for (;;) {
      for (std::size_t j = 0; j < p.width; ++j) {
        ASSERT_GE(x[j], t.lo(p, v, j));
        ASSERT_LE(x[j], t.hi(p, v, j));
      }
      const MondrianNode& n = t.node(v);
      if (n.is_leaf()) break;
      v = x[n.feature] <= n.threshold ? n.left : n.right;
    }
  }
}

// max-nodes caps the tree; a full tree still widens boxes and learns.
TEST(MondrianProcess, MaxNodesStopsSplitting) {
  MondrianParams p = regression_params(2);
  p.max_nodes = 51;
  MondrianTree t(p, 4);
  Xorshift64 rng(2);
  for (int i = 0; i < 1000; ++i) learn(t, p, {rng.uniform(), rng.uniform()}, 1.0);
  EXPECT_LE(t.size(), 51u);
  EXPECT_GE(t.size(), 49u);
  learn(t, p, {10.0, 10.0}, 5.0);
  EXPECT_EQ(t.hi(p, 0, 0), 10.0);
  EXPECT_GT(t.predict_value(p, std::vector<double>{10.0, 10.0}), 1.0);
}

// A missing feature neither widens a box nor is split on; at a split on it
// the sample follows the heavier child.
TEST(MondrianProcess, MissingFeaturesWidenNothingAndFollowTheHeavierChild) {
  const MondrianParams p = regression_params(2);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  MondrianTree t(p, 6);
  learn(t, p, {0.0, nan}, 1.0);
  learn(t, p, {inf, 5.0}, 1.0);
  EXPECT_EQ(t.size(), 1u);  // nothing to extend: feature 1 had no value yet, feature 0 is missing
  EXPECT_EQ(t.hi(p, 0, 0), 0.0);
  EXPECT_EQ(t.lo(p, 0, 1), 5.0);
  // Three samples on the low side of feature 0, one on the high side.
  for (double v : {0.1, 0.2, 0.05}) learn(t, p, {v, 5.0}, 1.0);
  learn(t, p, {100.0, 5.0}, 1.0);
  ASSERT_GT(t.size(), 1u);
  const std::vector<double> probe = {nan, 5.0};
  std::uint32_t v = 0;
  while (!t.node(v).is_leaf()) {
    const MondrianNode& n = t.node(v);
    EXPECT_EQ(n.feature, 0u);  // feature 1 never widened: every split is on feature 0
    v = t.node(n.right).mass > t.node(n.left).mass ? n.right : n.left;  // ties go left
  }
  EXPECT_EQ(v, t.leaf_of(probe));
  EXPECT_TRUE(std::isfinite(t.predict_value(p, std::vector<double>{nan, nan})));
}

// Aggregation: a one-leaf tree predicts the Dirichlet-smoothed counts.
TEST(MondrianProcess, LeafPredictionIsTheSmoothedClassShare) {
  const MondrianParams p = classification_params(1, 2);
  MondrianTree t(p, 1);
  for (int i = 0; i < 3; ++i) learn(t, p, {0.0}, 1.0);
  std::vector<double> proba(2);
  t.predict_proba(p, std::vector<double>{0.0}, proba);
  EXPECT_DOUBLE_EQ(proba[1], (3.0 + 0.5) / (3.0 + 1.0));
  EXPECT_DOUBLE_EQ(proba[0], 0.5 / 4.0);
}

}  // namespace
}  // namespace irithyll::detail
