// Short version of the 10M-step soak (bench/ssm_soak.cpp): every SSM and
// recurrent model and learner stays finite over a heavy-tailed, drifting
// stream with +-50 outliers (and NaN features for the learners).
#include <gtest/gtest.h>

#include "../../bench/soak_models.hpp"

namespace {

TEST(Soak, EveryModelStaysFinite) {
  for (const auto& name : irithyll::soak::model_names()) {
    const std::uint64_t steps = name.rfind("learner_", 0) == 0 ? 20000 : 200000;
    const auto r = irithyll::soak::run(name, steps, 7);
    EXPECT_TRUE(r.finite) << name << " first bad step " << r.first_bad_step;
    EXPECT_EQ(r.steps, steps) << name;
    EXPECT_LT(r.max_abs_output, 1e6) << name;
  }
}

TEST(Soak, UnknownModelIsReported) {
  const auto r = irithyll::soak::run("nope", 10, 1);
  EXPECT_FALSE(r.finite);
  EXPECT_EQ(r.steps, 0u);
}

}  // namespace
