// Generic estimator checks (estimator_checks.hpp) over every listed catalogue
// row, for every task it supports: each learner must keep the contract of
// learner.hpp. Rows are read from the catalogue when the binary starts, so a
// row added later is checked without touching this file, and a row that
// breaks a check fails CI. broken_learners_test.cpp shows that each check
// fails on a learner with the flaw it looks for.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "estimator/estimator_checks.hpp"
#include "irithyll/catalogue.hpp"

namespace irithyll {
namespace {

using namespace estimator_checks;

// Rows whose learn_one(x, y, 2) is, by design, learn_one twice: counts and
// sums with no order effect.
const std::set<std::string, std::less<>> kWeightIsRepetition = {"bernoulli_nb", "gaussian_nb", "majority", "mean",
                                                                "multinomial_nb"};

struct Case {
  std::string model;
  Task task;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return info.param.model + (info.param.task == Task::kClassification ? "_classification" : "_regression");
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const CatalogueEntry& e : catalogue()) {
    if (!e.listed) continue;
    if (e.regression) out.push_back({std::string(e.name), Task::kRegression});
    if (e.classification) out.push_back({std::string(e.name), Task::kClassification});
  }
  return out;
}

class EstimatorChecks : public testing::TestWithParam<Case> {
 protected:
  // The row's model with its default settings, kFeatures wide.
  static Subject subject() {
    const Case c = GetParam();
    Subject s;
    s.task = c.task;
    s.make = [c](std::uint64_t seed) -> std::unique_ptr<Learner> {
      LearnerContext ctx{c.task, c.task == Task::kClassification ? kClasses : 0, kFeatures, seed};
      auto m = make_learner(c.model, {}, ctx);
      EXPECT_TRUE(m.is_ok()) << m.status().to_string();
      return m.is_ok() ? std::move(m).value() : nullptr;
    };
    s.blank = [c] { return make_blank_learner(c.model); };
    return s;
  }
};

TEST_P(EstimatorChecks, ResetEqualsAFreshModel) { EXPECT_TRUE(check_reset(subject())); }
TEST_P(EstimatorChecks, CheckpointContinuesBitIdentically) { EXPECT_TRUE(check_checkpoint(subject())); }
TEST_P(EstimatorChecks, SameSeedSamePredictions) { EXPECT_TRUE(check_same_seed(subject())); }
TEST_P(EstimatorChecks, PredictionDoesNotChangeLearning) { EXPECT_TRUE(check_predict_pure(subject())); }
TEST_P(EstimatorChecks, ZeroWeightChangesNothing) { EXPECT_TRUE(check_zero_weight(subject())); }
TEST_P(EstimatorChecks, WrongWidthIsRefusedAndSkipped) { EXPECT_TRUE(check_wrong_width(subject())); }
TEST_P(EstimatorChecks, BadValuesNeverCorruptTheModel) { EXPECT_TRUE(check_bad_values(subject())); }
TEST_P(EstimatorChecks, MemoryGrowsSublinearlyOnAStableStream) { EXPECT_TRUE(check_memory(subject())); }

// Only the rows that promise it: a weight is a repetition for counting
// models, a step size for gradient models.
class WeightChecks : public EstimatorChecks {};

TEST_P(WeightChecks, DoubleWeightEqualsTwoSamples) { EXPECT_TRUE(check_double_weight(subject())); }

INSTANTIATE_TEST_SUITE_P(EveryRow, EstimatorChecks, testing::ValuesIn(all_cases()), case_name);

std::vector<Case> repetition_cases() {
  std::vector<Case> out;
  for (const Case& c : all_cases())
    if (kWeightIsRepetition.contains(c.model)) out.push_back(c);
  return out;
}
INSTANTIATE_TEST_SUITE_P(RepetitionRows, WeightChecks, testing::ValuesIn(repetition_cases()), case_name);

}  // namespace
}  // namespace irithyll
