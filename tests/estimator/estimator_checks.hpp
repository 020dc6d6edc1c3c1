// The generic estimator checks as functions of a subject (how to make the
// learner and its blank instance), so the same code runs over every catalogue
// row (estimator_checks_test.cpp) and over learners broken on purpose, one
// flaw per check (broken_learners_test.cpp), which shows each check can fail.
//
// Every check runs on a small deterministic stream (6 features in [0, 1);
// classes from x0 + x1, a regression target from x0, x1, x2), so every
// comparison is exact: "equal" means bit for bit, NaN equal to NaN.
//
//   reset           reset() then a replay predicts as a freshly made model.
//   checkpoint      encode, decode into a blank instance, and both continue
//                   bit-identically through more learning; a truncated record
//                   is refused.
//   same_seed       the same seed gives the same predictions.
//   predict_pure    predicting before each learn changes nothing learned.
//   zero_weight     a zero-weight sample changes nothing.
//   wrong_width     a sample of the wrong width is refused by check_sample()
//                   with a message naming the width, and learn_one skips it.
//   bad_values      NaN/inf features, NaN/inf targets, NaN/inf/negative
//                   weights never leave a non-finite prediction behind, and
//                   bad targets and weights are refused by check_sample().
//   memory          memory_bytes() grows sub-linearly on a long stable stream.
//   double_weight   weight 2 equals seeing the sample twice (only for models
//                   that promise it).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "irithyll/learner.hpp"

namespace irithyll::estimator_checks {

inline constexpr std::size_t kFeatures = 6;
inline constexpr std::size_t kClasses = 3;

struct Subject {
  Task task = Task::kRegression;
  std::function<std::unique_ptr<Learner>(std::uint64_t seed)> make;  // a fresh model, kFeatures wide
  std::function<std::unique_ptr<Learner>()> blank;                   // what a checkpoint decodes into
};

testing::AssertionResult check_reset(const Subject& s);
testing::AssertionResult check_checkpoint(const Subject& s);
testing::AssertionResult check_same_seed(const Subject& s);
testing::AssertionResult check_predict_pure(const Subject& s);
testing::AssertionResult check_zero_weight(const Subject& s);
testing::AssertionResult check_wrong_width(const Subject& s);
testing::AssertionResult check_bad_values(const Subject& s);
testing::AssertionResult check_memory(const Subject& s);
testing::AssertionResult check_double_weight(const Subject& s);

}  // namespace irithyll::estimator_checks
