// Leveraging bagging with a base model other than trees (base-model, River's
// model=): members built from a catalogue name or pipeline, checkpoints that
// carry each member's kind and continue bit-identically, and refusals.
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/stream/generators/sea.hpp"

namespace irithyll {
namespace {

Result<std::unique_ptr<Learner>> make_lb(const std::string& base, std::size_t n_features = 3) {
  ModelSettings s{{"n-models", "3"}, {"base-model", base}};
  return make_learner("leveraging_bagging", s, LearnerContext{Task::kClassification, 2, n_features, 7});
}

TEST(LeveragingBaggingBaseModel, MembersAreTheNamedModelAndResumeBitIdentically) {
  for (const char* base : {"logistic_regression", "standard_scaler|logistic_regression(l2=0)",
                           "gaussian_nb"}) {
    auto a = make_lb(base);
    ASSERT_TRUE(a.is_ok()) << base << ": " << a.status().to_string();
    SeaGenerator s(SeaConfig{}, 5);
    std::vector<double> x(3), p(2), pb(2);
    double y = 0;
    int right = 0;
    for (int i = 0; i < 2000 && s.next(x, y); ++i) {
      right += (*a)->predict_one(x) == y;
      (*a)->learn_one(x, y);
    }
    // SEA is a linear concept with 10% label noise: every one of these base
    // models scores well above the majority class (~0.6) after 2,000 rows.
    EXPECT_GT(right, 1500) << base;
    const auto* lb = dynamic_cast<const LeveragingBagging*>(a->get());
    ASSERT_NE(lb, nullptr);
    ASSERT_NE(lb->base_model(0), nullptr) << base;
    EXPECT_FALSE(lb->tree_ensemble().is_ok());

    auto b = decode_learner(encode_learner(**a));
    ASSERT_TRUE(b.is_ok()) << base << ": " << b.status().to_string();
    const auto* lb2 = dynamic_cast<const LeveragingBagging*>(b->get());
    ASSERT_NE(lb2, nullptr);
    ASSERT_NE(lb2->base_model(2), nullptr);
    EXPECT_EQ(lb2->base_model(2)->name(), lb->base_model(2)->name());
    for (int i = 0; i < 500 && s.next(x, y); ++i) {
      (*a)->predict_proba_one(x, p);
      (*b)->predict_proba_one(x, pb);
      ASSERT_EQ(p, pb) << base << " " << i;
      (*a)->learn_one(x, y);
      (*b)->learn_one(x, y);
    }
    EXPECT_EQ(encode_learner(**a), encode_learner(**b)) << base;
  }
}

// Each member's detector reads its error on a sample just after learning it
// (as MOA and River do). With no_change members (they predict the last label
// they learned), that error is 0 whenever a member learned the sample (its
// Poisson draw k > 0, 99.75% of draws), while the error just before learning
// jumps from 0 to 1 when constant labels turn to alternating ones: a
// detector fed that one would cut and reset members.
TEST(LeveragingBaggingBaseModel, DetectorsReadTheErrorAfterLearning) {
  auto a = make_lb("no_change");
  ASSERT_TRUE(a.is_ok()) << a.status().to_string();
  const std::vector<double> x = {0.1, 0.2, 0.3};
  for (int i = 0; i < 3000; ++i) (*a)->learn_one(x, i < 1000 ? 0.0 : static_cast<double>(i % 2));
  const auto* lb = dynamic_cast<const LeveragingBagging*>(a->get());
  ASSERT_NE(lb, nullptr);
  EXPECT_EQ(lb->n_resets(), 0u);
}

TEST(LeveragingBaggingBaseModel, WidthKnownOnlyAtTheFirstSample) {
  auto a = make_lb("standard_scaler|logistic_regression", 0);
  ASSERT_TRUE(a.is_ok()) << a.status().to_string();
  const std::vector<double> x = {0.5, 1.0, 2.0, 3.0};
  (*a)->learn_one(x, 1.0);
  EXPECT_EQ((*a)->n_features(), 4u);
  EXPECT_EQ((*a)->n_skipped(), 0u);
}

TEST(LeveragingBaggingBaseModel, RefusesWhatIsNotAClassifier) {
  for (const char* bad : {"no_such_model", "linear_regression", "leveraging_bagging(base-model=x)",
                          "standard_scaler", "logistic_regression(nope=1)", "a|"}) {
    auto m = make_lb(bad);
    EXPECT_FALSE(m.is_ok()) << bad;
    if (!m.is_ok()) {
      EXPECT_NE(m.status().message().find("leveraging_bagging"), std::string::npos) << m.status().message();
    }
  }
}

TEST(LeveragingBaggingBaseModel, DefaultMembersAreStillTrees) {
  auto a = make_lb("");
  ASSERT_TRUE(a.is_ok()) << a.status().to_string();
  const std::vector<double> x = {0.5, 1.0, 2.0};
  (*a)->learn_one(x, 1.0);
  const auto* lb = dynamic_cast<const LeveragingBagging*>(a->get());
  ASSERT_NE(lb, nullptr);
  EXPECT_EQ(lb->base_model(0), nullptr);
  EXPECT_TRUE(lb->tree_ensemble().is_ok());
}

}  // namespace
}  // namespace irithyll
