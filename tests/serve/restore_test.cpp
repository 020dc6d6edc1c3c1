// The premise of idempotent re-publication: a learner restored from its
// checkpoint predicts exactly what the uninterrupted learner would have, at any point.
#include <gtest/gtest.h>

#include "serve_test_util.hpp"

namespace irithyll::serve {
namespace {

TEST(ServeRestore, RestoredLearnerPredictsBitIdentically) {
  const LearnerContext ctx{Task::kRegression, 0, 10, 7};
  auto a = std::move(make_learner("sgbt", test::small_sgbt(), ctx)).value();
  const auto samples = test::generate("friedman", 7, 3000, 1);
  int differing = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (i % 37 == 0) {
      auto b = std::move(decode_learner(encode_learner(*a))).value();
      if (a->predict_one(samples[i].x) != b->predict_one(samples[i].x)) ++differing;
      a = std::move(b);
    }
    a->learn_one(samples[i].x, samples[i].y);
  }
  EXPECT_EQ(differing, 0);
}

}  // namespace
}  // namespace irithyll::serve
