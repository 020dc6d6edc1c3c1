// softmax-leaf-bound: the leaves of a 3+-class model's committees stay in
// [-b, b]. Without it, on a stream whose classes move (Random RBF, 4 classes,
// moving centroids), Newton steps on vanishing hessians grow the leaves far
// past any useful logit and the model falls apart; with it the model stays
// accurate. Binary and regression models are untouched, checkpoints written
// before the setting read it as off, and the plain training path's clamp is
// the general path's to the bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_diagnostics.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/stream/generators.hpp"
#include "support/encoded.hpp"
#include "support/sgbt_direct.hpp"
#include "tree/gradient_tree.hpp"

namespace irithyll {
namespace {

struct BoundOutcome {
  double accuracy = 0.0;
  double largest_leaf = 0.0;  // over every committee's active trees
};

// The CLI's `eval --stream rbf4 --seed 2 --model sgbt [--softmax-leaf-bound B]`
// over its first 20,000 rows, scored on rows 5,000-20,000.
BoundOutcome run_rbf4(const char* bound) {
  const std::uint64_t seed = 2;
  auto stream = make_generator("rbf4", seed, 20000);
  EXPECT_TRUE(stream.is_ok());
  ModelSettings settings;
  if (bound != nullptr) settings.set("softmax-leaf-bound", bound);
  auto made = make_learner("sgbt", settings, {.task = Task::kClassification, .n_classes = 4, .seed = seed});
  EXPECT_TRUE(made.is_ok()) << made.status().to_string();
  Learner& m = **made;
  std::vector<double> x((*stream)->schema().feature_names.size());
  double y = 0.0;
  std::size_t t = 0, correct = 0;
  while ((*stream)->next(x, y)) {
    if (t++ >= 5000) correct += m.predict_one(x) == y;
    m.learn_one(x, y);
  }
  BoundOutcome out{static_cast<double>(correct) / 15000.0, 0.0};
  const auto& d = dynamic_cast<const Diagnosable&>(m);
  for (std::size_t k = 0; k < d.n_diagnosed_ensembles(); ++k)
    for (const auto& tree : d.ensemble_diagnostics(k).trees)
      out.largest_leaf = std::max({out.largest_leaf, std::abs(tree.leaf_min), std::abs(tree.leaf_max)});
  return out;
}

TEST(SoftmaxLeafBound, KeepsAMovingFourClassStreamAccurate) {
  // Without the bound this run's rolling accuracy is about 0.5 from the
  // first 10,000 rows on (0.40 over 100k); with it, 0.87-0.90.
  const BoundOutcome bounded = run_rbf4(nullptr);  // the default, 10
  const BoundOutcome unbounded = run_rbf4("0");
  EXPECT_LE(bounded.largest_leaf, 10.0);
  EXPECT_GT(unbounded.largest_leaf, 100.0);
  EXPECT_GT(bounded.accuracy, 0.84);
  EXPECT_GT(bounded.accuracy, unbounded.accuracy + 0.2);
}

TEST(SoftmaxLeafBound, BinaryAndRegressionAreUntouched) {
  for (const auto& [task, classes] : {std::pair{Task::kClassification, std::size_t{2}}, std::pair{Task::kRegression,
                                                                                                   std::size_t{0}}}) {
    SGBTConfig on, off;
    off.softmax_leaf_bound = 0.0;
    SGBTLearner a = testing::sgbt_learner(on, task, classes), b = testing::sgbt_learner(off, task, classes);
    Xorshift64 rng(3);
    double x[3];
    for (int i = 0; i < 3000; ++i) {
      for (double& v : x) v = rng.uniform();
      // A separable label (and a steep target): leaves beyond 10 are allowed.
      const double y = task == Task::kRegression ? 400.0 * x[0] : (x[0] > 0.5 ? 1.0 : 0.0);
      ASSERT_EQ(a.predict_one(x), b.predict_one(x)) << i;
      a.learn_one(x, y);
      b.learn_one(x, y);
    }
  }
}

TEST(SoftmaxLeafBound, SmallerMaxLeafOutputWinsAndOldRecordsReadOff) {
  SGBTConfig c;
  c.tree.max_leaf_output = 2.0;
  SGBTLearner m = testing::sgbt_learner(c, Task::kClassification, 3);
  EXPECT_EQ(m.committee(0).config().tree.max_leaf_output, 2.0);
  c.tree.max_leaf_output = 50.0;
  EXPECT_EQ(testing::sgbt_learner(c, Task::kClassification, 3).committee(0).config().tree.max_leaf_output, 10.0);
  // The learner's own settings keep what was given; a record without the
  // row (written before it existed) decodes with the bound off.
  EXPECT_EQ(m.config().tree.max_leaf_output, 2.0);
  EXPECT_EQ(m.config().softmax_leaf_bound, 10.0);
  const CatalogueEntry* e = find_model("sgbt");
  ASSERT_NE(e, nullptr);
  bool listed = false;
  for (const FieldInfo& f : e->fields()) listed = listed || (f.name == "softmax-leaf-bound" && f.absent_value == "0");
  EXPECT_TRUE(listed);
}

TEST(SoftmaxLeafBound, PlainPathClampIsTheGeneralPathsToTheBit) {
  // The same bounded tree twice: once on the plain path (the bound is its
  // only option), once forced onto the general path by an option that
  // changes nothing here (a minimum hessian sum no leaf is below).
  GradientTreeConfig plain;
  plain.max_leaf_output = 0.3;
  plain.grace_period = 30;
  plain.lambda = 0.01;
  GradientTreeConfig general = plain;
  general.min_hessian_sum = 1e-300;
  GradientTree a(plain), b(general);
  Xorshift64 rng(9);
  double x[2];
  for (int i = 0; i < 4000; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    const double g = x[0] > 0.5 ? -1.0 : 0.4;
    a.learn_one(x, g, 1e-3);
    b.learn_one(x, g, 1e-3);
    ASSERT_EQ(a.predict(x), b.predict(x)) << i;
    ASSERT_LE(std::abs(a.predict(x)), 0.3);
  }
}

}  // namespace
}  // namespace irithyll
