#include "irithyll/tree/hoeffding_tree_learner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/tree/split_merit.hpp"
#include "tree/streams.hpp"
#include "support/prequential.hpp"

namespace irithyll {
namespace {

std::unique_ptr<HoeffdingTreeLearner> make_ht(HoeffdingTreeConfig c = {}, Task task = Task::kClassification,
                                              std::size_t k = 2, std::size_t d = 0, std::uint64_t seed = 1) {
  auto m = HoeffdingTreeLearner::make(c, {task, k, d, seed});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return std::move(*m);
}

// Prequential accuracy of `model` on n samples of the line stream.
using testing::prequential_accuracy;

TEST(SplitMerit, EntropyGiniAndHoeffdingBound) {
  const std::vector<double> even{5.0, 5.0}, pure{10.0, 0.0}, quarter{1.0, 3.0};
  EXPECT_DOUBLE_EQ(entropy_bits(even), 1.0);
  EXPECT_DOUBLE_EQ(entropy_bits(pure), 0.0);
  EXPECT_NEAR(entropy_bits(quarter), 0.8112781244591328, 1e-15);
  EXPECT_DOUBLE_EQ(gini_impurity(even), 0.5);
  EXPECT_DOUBLE_EQ(gini_impurity(quarter), 0.375);
  // Domingos & Hulten eq. 1: R = 1, delta = 1e-7, n = 200 -> sqrt(ln(1e7) / 400).
  EXPECT_NEAR(hoeffding_bound(1.0, 1e-7, 200.0), std::sqrt(std::log(1e7) / 400.0), 1e-15);
  EXPECT_NEAR(hoeffding_bound(2.0, 0.01, 50.0), std::sqrt(4.0 * std::log(100.0) / 100.0), 1e-15);
  // A perfect split of an even node gains its whole entropy.
  EXPECT_DOUBLE_EQ(entropy_bits(even) - 0.5 * entropy_bits(pure) - 0.5 * entropy_bits(pure), 1.0);
}

TEST(HoeffdingTreeLearner, LearnsTheLineFarAboveMajority) {
  for (const char* numeric : {"gaussian", "histogram"}) {
    HoeffdingTreeConfig c;
    ASSERT_TRUE(c.numeric == NumericEstimator::kGaussian);
    if (std::string(numeric) == "histogram") c.numeric = NumericEstimator::kHistogram;
    auto m = make_ht(c);
    test::LineStream s;
    // Majority class scores ~0.5; the Bayes rate is 0.95.
    EXPECT_GT(prequential_accuracy(*m, s, 20000), 0.85) << numeric;
    EXPECT_GT(m->tree()->n_nodes(), 1u) << numeric;
  }
}

TEST(HoeffdingTreeLearner, GiniAndMajorityLeavesAlsoLearn) {
  HoeffdingTreeConfig c;
  c.criterion = SplitCriterion::kGini;
  c.leaf_model = LeafModel::kMajority;
  auto m = make_ht(c);
  test::LineStream s;
  EXPECT_GT(prequential_accuracy(*m, s, 20000), 0.75);  // majority leaves on a diagonal boundary
}

TEST(HoeffdingTreeLearner, NaiveBayesLeafBeatsMajorityWithoutSplits) {
  // No split ever happens (huge grace period), so the root leaf alone
  // predicts: the majority class is a coin flip, naive Bayes over the
  // Gaussian estimators recovers most of the x0 + x1 rule.
  HoeffdingTreeConfig c;
  c.grace_period = 1000000000;
  double acc[3];
  int i = 0;
  for (LeafModel lm : {LeafModel::kMajority, LeafModel::kNaiveBayes, LeafModel::kNaiveBayesAdaptive}) {
    c.leaf_model = lm;
    auto m = make_ht(c);
    test::LineStream s;
    acc[i++] = prequential_accuracy(*m, s, 5000);
    EXPECT_EQ(m->tree()->n_nodes(), 1u);
  }
  EXPECT_LT(acc[0], 0.56);
  EXPECT_GT(acc[1], 0.8);
  EXPECT_GT(acc[2], 0.8);  // adaptive picks naive Bayes
}

TEST(HoeffdingTreeLearner, WeightTwoEqualsSeeingTwiceBeforeAnySplit) {
  // Class weights and Gaussian moments are weighted sums, so weight 2 is the
  // sample seen twice (up to rounding in the running means). Splits are
  // checked per learn_one call, so the promise holds between split attempts.
  for (LeafModel lm : {LeafModel::kMajority, LeafModel::kNaiveBayes}) {
    HoeffdingTreeConfig c;
    c.grace_period = 1000000000;
    c.leaf_model = lm;
    auto once = make_ht(c), twice = make_ht(c);
    test::LineStream s;
    for (int i = 0; i < 500; ++i) {
      const double y = s.next();
      once->learn_one(s.x, y, 2.0);
      twice->learn_one(s.x, y);
      twice->learn_one(s.x, y);
    }
    std::vector<double> p1(2), p2(2);
    for (int i = 0; i < 200; ++i) {
      s.next();
      once->predict_proba_one(s.x, p1);
      twice->predict_proba_one(s.x, p2);
      EXPECT_NEAR(p1[0], p2[0], 1e-9);
    }
  }
}

TEST(HoeffdingTreeLearner, RegressionTreeBeatsTheMean) {
  for (LeafModel lm : {LeafModel::kMean, LeafModel::kLinear}) {
    HoeffdingTreeConfig c;
    c.leaf_model = lm;
    auto m = make_ht(c, Task::kRegression, 0);
    test::FriedmanStream s;
    double se = 0.0;
    int n = 0;
    for (int i = 0; i < 30000; ++i) {
      const double y = s.next();
      if (i >= 20000) se += (m->predict_one(s.x) - y) * (m->predict_one(s.x) - y), ++n;
      m->learn_one(s.x, y);
    }
    // The target's sd is about 4.9; predicting the mean scores that.
    EXPECT_LT(std::sqrt(se / n), 3.6) << leaf_model_name(lm);
    EXPECT_GT(m->tree()->n_nodes(), 1u);
  }
}

TEST(HoeffdingTreeLearner, DeterministicAndResetRestarts) {
  auto a = make_ht(), b = make_ht();
  test::LineStream s1, s2;
  prequential_accuracy(*a, s1, 3000);
  prequential_accuracy(*b, s2, 3000);
  ByteWriter wa, wb;
  a->encode(wa);
  b->encode(wb);
  EXPECT_EQ(wa.data(), wb.data());
  a->reset();
  EXPECT_EQ(a->n_samples_seen(), 0u);
  test::LineStream s3;
  auto fresh = make_ht();
  prequential_accuracy(*a, s3, 100);
  test::LineStream s4;
  prequential_accuracy(*fresh, s4, 100);
  ByteWriter wc, wd;
  a->encode(wc);
  fresh->encode(wd);
  EXPECT_EQ(wc.data(), wd.data());
}

TEST(HoeffdingTreeLearner, BadSettingsNameTheParameter) {
  HoeffdingTreeConfig c;
  c.delta = 0.0;
  auto m = HoeffdingTreeLearner::make(c, {Task::kClassification, 2, 0, 1});
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("delta"), std::string::npos) << m.status().message();
  c = {};
  c.n_bins = 7;
  m = HoeffdingTreeLearner::make(c, {Task::kClassification, 2, 0, 1});
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("n-bins"), std::string::npos);
  c = {};
  c.leaf_model = LeafModel::kLinear;
  EXPECT_FALSE(HoeffdingTreeLearner::make(c, {Task::kClassification, 2, 0, 1}).is_ok());
  EXPECT_FALSE(HoeffdingTreeLearner::make({}, {Task::kClassification, 1, 0, 1}).is_ok());
  HoeffdingTreeConfig d;
  EXPECT_FALSE(apply_settings<HoeffdingTreeConfig>("hoeffding_tree", hoeffding_tree_config_fields(),
                                                   ModelSettings{{"tie-threshold", "2"}}, d)
                   .is_ok());
  EXPECT_TRUE(apply_settings<HoeffdingTreeConfig>("hoeffding_tree", hoeffding_tree_config_fields(),
                                                  ModelSettings{{"leaf-model", "nb"}, {"numeric", "histogram"}}, d)
                  .is_ok());
  EXPECT_EQ(d.leaf_model, LeafModel::kNaiveBayes);
}

TEST(HoeffdingTreeLearner, SkipsBadInputs) {
  auto m = make_ht();
  const std::vector<double> x{0.1, 0.2, 0.3, 0.4};
  m->learn_one(x, 1.0);
  m->learn_one(x, 2.0);                  // class out of range
  m->learn_one(x, std::nan(""));         // non-finite target
  m->learn_one(x, 1.0, 0.0);             // zero weight
  m->learn_one(std::vector<double>{1.0}, 1.0);  // wrong length
  EXPECT_EQ(m->n_samples_seen(), 1u);
  EXPECT_EQ(m->n_skipped(), 4u);
  const std::vector<double> with_nan{std::nan(""), 0.2, 0.3, 0.4};
  m->learn_one(with_nan, 0.0);
  EXPECT_EQ(m->n_samples_seen(), 2u);
  EXPECT_TRUE(std::isfinite(m->predict_one(with_nan)));
  EXPECT_GT(m->memory_bytes(), sizeof(HoeffdingTreeLearner));
}

}  // namespace
}  // namespace irithyll
