// The SGD linear models' Tunable hooks: an adjustment is the model's new
// learning rates and l2 (a fresh model with those settings learns the same
// from there, a checkpoint resumes it), bad arguments change nothing, and a
// structural change is refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/linear/sgd_linear.hpp"
#include "linear_test_support.hpp"
#include "support/encoded.hpp"

namespace irithyll {
namespace {

using TuningSample = std::pair<std::vector<double>, double>;

std::vector<TuningSample> tuning_line(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<TuningSample> out;
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<double> x = {rng.normal(), rng.normal(), rng.normal()};
    out.emplace_back(x, 3.0 * x[0] - 2.0 * x[1] + 0.1 * rng.normal());
  }
  return out;
}

LearnerContext tuning_regression() {
  LearnerContext c;
  c.task = Task::kRegression;
  c.n_features = 3;
  return c;
}

TEST(SgdTuning, AdjustedBeforeLearningIsTheModelThoseSettingsBuild) {
  auto a = test::build<LinearRegressionLearner>({{"learning-rate", "0.02"}, {"l2", "0.25"}}, tuning_regression());
  ASSERT_TRUE(a->adjust_config(0.5, 0.5).is_ok());
  EXPECT_DOUBLE_EQ(a->config().learning_rate, 0.01);
  EXPECT_DOUBLE_EQ(a->config().intercept_lr, 0.005);
  EXPECT_EQ(a->config().l2, 0.75);
  auto b = test::build<LinearRegressionLearner>(
      {{"learning-rate", "0.01"}, {"intercept-lr", "0.005"}, {"l2", "0.75"}}, tuning_regression());
  for (const auto& [x, y] : tuning_line(2000, 1)) {
    a->learn_one(x, y);
    b->learn_one(x, y);
  }
  EXPECT_EQ(testing::encoded(*a), testing::encoded(*b));
}

TEST(SgdTuning, ResumesAfterAnAdjustment) {
  auto m = test::build<LogisticRegressionLearner>({{"optimizer", "adam"}}, {.task = Task::kClassification,
                                                                              .n_classes = 2,
                                                                              .n_features = 3});
  std::vector<TuningSample> first, second;
  for (auto& [x, y] : tuning_line(1500, 2)) (first.size() < 700 ? first : second).emplace_back(x, y > 0.0 ? 1.0 : 0.0);
  for (const auto& [x, y] : first) m->learn_one(x, y);
  ASSERT_TRUE(m->adjust_config(3.0, 0.01).is_ok());
  test::expect_resume_identical(*m, std::vector<TuningSample>{}, second);
}

TEST(SgdTuning, SignalsAndRefusals) {
  auto m = test::build<LinearRegressionLearner>({{"l1", "0.05"}}, tuning_regression());
  EXPECT_EQ(m->config_diagnostics().uncertainty, 1.0);
  for (const auto& [x, y] : tuning_line(3000, 3)) m->learn_one(x, y);
  const ConfigDiagnostics d = m->config_diagnostics();
  // x2 is noise: L1 holds its coefficient at exactly zero; x0, x1 and the
  // intercept stay.
  EXPECT_EQ(d.effective_dof, 3.0);
  EXPECT_NEAR(d.regularization_sensitivity, 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(d.uncertainty, 1.0 / 3001.0, 1e-15);
  EXPECT_EQ(d.depth_sufficiency, 0.0);

  const auto before = testing::encoded(*m);
  EXPECT_FALSE(m->adjust_config(0.0, 0.0).is_ok());
  EXPECT_FALSE(m->adjust_config(std::numeric_limits<double>::infinity(), 0.0).is_ok());
  EXPECT_FALSE(m->adjust_config(1.0, std::numeric_limits<double>::quiet_NaN()).is_ok());
  const Status structural = m->apply_structural_change(1, 0);
  EXPECT_FALSE(structural.is_ok());
  EXPECT_NE(structural.to_string().find("linear_regression"), std::string::npos) << structural.to_string();
  EXPECT_TRUE(m->apply_structural_change(0, 0).is_ok());
  EXPECT_EQ(testing::encoded(*m), before);
  ASSERT_TRUE(m->adjust_config(1e9, -5.0).is_ok());
  EXPECT_EQ(m->config().learning_rate, 100.0);
  EXPECT_EQ(m->config().l2, 0.0);
}

}  // namespace
}  // namespace irithyll
