// nb-threshold: a naive Bayes leaf answers by majority class until it holds
// that much weight (River's nb_threshold).
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/tree/vfdt.hpp"

namespace irithyll {
namespace {

Vfdt tree_with(LeafModel lm, double nb_threshold) {
  HoeffdingTreeConfig c;
  c.leaf_model = lm;
  c.nb_threshold = nb_threshold;
  c.grace_period = 1000000;  // one leaf throughout
  return Vfdt(c, Task::kClassification, 2, 2, 0, 7);
}

TEST(VfdtNbThreshold, MajorityClassUntilTheLeafHoldsThatWeight) {
  // Class 1 is the majority, but x0 says which class a sample is: naive
  // Bayes and the majority class disagree on x0 < 0.5.
  Vfdt gated = tree_with(LeafModel::kNaiveBayes, 50.0);
  Vfdt nb = tree_with(LeafModel::kNaiveBayes, 0.0);
  Vfdt mc = tree_with(LeafModel::kMajority, 0.0);
  Xorshift64 rng(5);
  std::vector<double> x(2);
  const std::vector<double> probe{0.1, 0.5};
  int disagreements = 0;
  for (int i = 0; i < 200; ++i) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    const double y = x[0] < 0.3 ? 0.0 : 1.0;
    gated.learn_one(x, y, 1.0);
    nb.learn_one(x, y, 1.0);
    mc.learn_one(x, y, 1.0);
    const Vfdt& expected = i + 1 < 50 ? mc : nb;  // the leaf's weight after this sample is i + 1
    ASSERT_EQ(gated.predict_one(probe), expected.predict_one(probe)) << "after " << i + 1 << " samples";
    disagreements += nb.predict_one(probe) != mc.predict_one(probe);
  }
  EXPECT_GT(disagreements, 100);  // the probe tells the two rules apart
}

}  // namespace
}  // namespace irithyll
