// Heap-allocation audit of the linear models and naive Bayes: once the
// width is known (the first sample), a prequential step (predict_one,
// predict_proba_one, learn_one) allocates nothing, including on samples
// with missing features.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/rng.hpp"
#include "support/alloc_counter.hpp"

namespace irithyll {
namespace {

TEST(LinearAlloc, PrequentialStepsAllocateNothing) {
  const struct {
    const char* model;
    Task task;
    ModelSettings settings;
  } rows[] = {
      {"linear_regression", Task::kRegression, {{"optimizer", "adam"}, {"l1", "0.01"}}},
      {"logistic_regression", Task::kClassification, {{"optimizer", "adagrad"}}},
      {"softmax_regression", Task::kClassification, {}},
      {"passive_aggressive", Task::kClassification, {}},
      {"passive_aggressive", Task::kRegression, {{"mode", "pa-ii"}}},
      {"perceptron", Task::kClassification, {}},
      {"alma", Task::kClassification, {{"p", "3"}}},
      {"rls", Task::kRegression, {}},
      {"krls", Task::kRegression, {{"budget", "20"}}},
      {"gaussian_nb", Task::kClassification, {}},
      {"multinomial_nb", Task::kClassification, {}},
      {"bernoulli_nb", Task::kClassification, {}},
  };
  constexpr std::size_t kFeatures = 10;
  for (const auto& r : rows) {
    SCOPED_TRACE(r.model);
    // n_features 0: the width comes from the first sample.
    auto made = make_learner(r.model, r.settings, {r.task, r.task == Task::kClassification ? 3u : 0u, 0, 1});
    ASSERT_TRUE(made.is_ok()) << made.status().to_string();
    Learner& m = **made;
    Xorshift64 rng(5);
    std::vector<double> x(kFeatures), proba(m.n_classes());
    const auto step = [&](std::size_t i) {
      for (double& v : x) v = std::fabs(rng.normal());
      if (i % 7 == 0) x[i % kFeatures] = std::nan("");
      const double y = r.task == Task::kClassification ? static_cast<double>(i % 3) : x[0] - x[1];
      m.predict_one(x);
      if (!proba.empty()) m.predict_proba_one(x, proba);
      m.learn_one(x, y);
    };
    for (std::size_t i = 0; i < 50; ++i) step(i);
    const long before = test::allocation_count();
    for (std::size_t i = 50; i < 2050; ++i) step(i);
    EXPECT_EQ(test::allocation_count() - before, 0);
  }
}

}  // namespace
}  // namespace irithyll
