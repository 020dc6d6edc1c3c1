// The route cache and Vfdt::route_together: an ensemble walks its members'
// trees to x's leaves together, and each tree's next prediction and learn of
// the same x start from the remembered leaf. Neither may change any answer:
// every prediction is compared, bit for bit, with a copy of the tree read
// back from its record (which starts with no route remembered), through
// threshold, one-vs-rest and multiway nominal splits, missing values, and
// splits made by the very sample that was routed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/tree/vfdt.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kFeatures = 4, kClasses = 3;

HoeffdingTreeConfig config(int variant) {
  HoeffdingTreeConfig c;
  c.grace_period = 20;
  c.delta = 0.05;
  c.leaf_model = LeafModel::kNaiveBayesAdaptive;
  if (variant >= 1) c.categorical = {2};  // multiway splits on codes 0..5
  if (variant == 2) c.binary_nominal = true;  // one-vs-rest splits instead
  return c;
}

// Class from a threshold on x0 and the code in x2; x1 noise; x3 missing 10%.
double next(Xorshift64& rng, double* x) {
  x[0] = rng.uniform();
  x[1] = rng.uniform();
  x[2] = static_cast<double>(static_cast<int>(rng.uniform() * 6.0));
  x[3] = rng.uniform() < 0.1 ? std::numeric_limits<double>::quiet_NaN() : rng.uniform();
  const int c = (x[0] > 0.6 ? 1 : 0) + (x[2] == 3.0 ? 1 : 0);
  return rng.uniform() < 0.05 ? static_cast<double>(rng.below(kClasses)) : static_cast<double>(c);
}

// The tree's answer for x from a copy with no route remembered.
std::vector<double> fresh_proba(const Vfdt& t, const HoeffdingTreeConfig& c, std::span<const double> x) {
  ByteWriter w;
  t.encode(w);
  ByteReader r(w.data());
  Vfdt copy;
  EXPECT_TRUE(copy.decode(r, c).is_ok());
  std::vector<double> p(kClasses);
  copy.predict_proba(x, p);
  return p;
}

TEST(VfdtRoute, RoutingTogetherChangesNoPrediction) {
  for (int variant = 0; variant < 3; ++variant) {
    const HoeffdingTreeConfig c = config(variant);
    std::vector<Vfdt> trees;
    for (std::uint64_t s = 0; s < 5; ++s) trees.emplace_back(c, Task::kClassification, kClasses, kFeatures, s < 2 ? 0 : 2, 100 + s);
    Xorshift64 rng(7 + variant);
    double x[kFeatures];
    std::vector<const Vfdt*> ptrs;
    for (const Vfdt& t : trees) ptrs.push_back(&t);
    std::size_t splits = 0, checked = 0;
    for (int i = 0; i < 3000; ++i) {
      const double y = next(rng, x);
      const std::span<const double> xs(x, kFeatures);
      const std::vector<std::span<const double>> all(trees.size(), xs);
      if (i % 3 != 2) Vfdt::route_together(ptrs, all);  // some steps unrouted
      for (std::size_t t = 0; t < trees.size(); ++t) {
        const std::size_t nodes = trees[t].n_nodes();
        std::vector<double> p(kClasses);
        trees[t].predict_proba(xs, p);
        if (i % 50 == 0) {
          EXPECT_EQ(p, fresh_proba(trees[t], c, xs)) << "variant " << variant << " step " << i << " tree " << t;
          ++checked;
        }
        // Learn the routed sample (several times at once: a split can
        // follow), then ask again: the old route must not be reused.
        const double before = trees[t].learn_one(xs, y, 1.0 + static_cast<double>(i % 4));
        // What learn_one says it predicted (from the remembered route) is
        // what predict_proba answered.
        EXPECT_EQ(before, static_cast<double>(std::max_element(p.begin(), p.end()) - p.begin()));
        if (trees[t].n_nodes() != nodes) {
          ++splits;
          trees[t].predict_proba(xs, p);
          EXPECT_EQ(p, fresh_proba(trees[t], c, xs)) << "after a split: variant " << variant << " step " << i;
        }
      }
    }
    EXPECT_GT(splits, 10u) << "variant " << variant;
    EXPECT_GT(checked, 100u);
  }
}

// Trees of different widths (an ensemble of subspaces) and a tree given an
// x of the wrong width (skipped, not walked).
TEST(VfdtRoute, MixedWidthsAndMismatchedInputs) {
  const HoeffdingTreeConfig c = config(0);
  Vfdt wide(c, Task::kClassification, kClasses, kFeatures, 0, 1), narrow(c, Task::kClassification, kClasses, 2, 0, 2);
  Xorshift64 rng(3);
  double x[kFeatures];
  for (int i = 0; i < 2000; ++i) {
    const double y = next(rng, x);
    const std::span<const double> xw(x, kFeatures), xn(x, 2);
    const Vfdt* ptrs[] = {&wide, &narrow, &narrow};
    const std::span<const double> xs[] = {xw, xn, xw};  // the third is the wrong width
    Vfdt::route_together(ptrs, xs);
    std::vector<double> p(kClasses);
    wide.predict_proba(xw, p);
    if (i % 100 == 0) {
      EXPECT_EQ(p, fresh_proba(wide, c, xw));
    }
    narrow.predict_proba(xn, p);
    if (i % 100 == 0) {
      EXPECT_EQ(p, fresh_proba(narrow, c, xn));
    }
    wide.learn_one(xw, y, 1.0);
    narrow.learn_one(xn, y, 1.0);
  }
  EXPECT_GT(wide.n_nodes(), 1u);
  EXPECT_GT(narrow.n_nodes(), 1u);
}

}  // namespace
}  // namespace irithyll
