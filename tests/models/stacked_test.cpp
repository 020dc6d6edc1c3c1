// Stacking: the model-list syntax, passthrough, bit-identical resume through
// checkpoints, and refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/model_file.hpp"
#include "irithyll/stacked.hpp"
#include "irithyll/stream/generators/sea.hpp"

namespace irithyll {
namespace {

TEST(Stacked, ParsesModelSpecs) {
  auto specs = parse_model_specs("sgbt(learning-rate=0.1; n-steps=5), mamba ,esn(neurons=20)");
  ASSERT_TRUE(specs.is_ok()) << specs.status().to_string();
  ASSERT_EQ(specs->size(), 3u);
  EXPECT_EQ((*specs)[0].name, "sgbt");
  ASSERT_EQ((*specs)[0].settings.items().size(), 2u);
  EXPECT_EQ((*specs)[0].settings.items()[1].first, "n-steps");
  EXPECT_EQ((*specs)[0].settings.items()[1].second, "5");
  EXPECT_EQ((*specs)[1].name, "mamba");
  EXPECT_EQ((*specs)[2].settings.items()[0].second, "20");
  for (const char* bad : {"", "sgbt,,mamba", "sgbt(a=1", "sgbt)", "sgbt(novalue)", "sgbt(=3)"})
    EXPECT_FALSE(parse_model_specs(bad).is_ok()) << bad;
}

StackedConfig small() {
  StackedConfig c;
  c.bases = "sgbt(n-steps=5;grace-period=20),sgbt(n-steps=3;learning-rate=0.1;grace-period=20)";
  c.meta = "sgbt(n-steps=3;grace-period=20;learning-rate=0.2)";
  return c;
}

TEST(Stacked, ResumesBitIdenticallyAndTakesPassthrough) {
  for (bool passthrough : {false, true}) {
    StackedConfig c = small();
    c.passthrough = passthrough;
    auto a = StackedLearner::make(c, LearnerContext{Task::kClassification, 2, 3, 5});
    ASSERT_TRUE(a.is_ok()) << a.status().to_string();
    SeaGenerator s(SeaConfig{}, 5);
    std::vector<double> x(3), p(2);
    double y = 0;
    for (int i = 0; i < 600 && s.next(x, y); ++i) (*a)->learn_one(x, y);
    auto b = decode_learner(encode_learner(**a));
    ASSERT_TRUE(b.is_ok()) << b.status().to_string();
    std::vector<double> pb(2);
    for (int i = 0; i < 400 && s.next(x, y); ++i) {
      (*a)->predict_proba_one(x, p);
      (*b)->predict_proba_one(x, pb);
      ASSERT_EQ(p, pb) << i;
      (*a)->learn_one(x, y);
      (*b)->learn_one(x, y);
    }
    EXPECT_EQ(encode_learner(**a), encode_learner(**b));
    EXPECT_EQ((*a)->base(0).n_samples_seen(), 1000u);
  }
}

TEST(Stacked, RefusesBadStacks) {
  StackedConfig c = small();
  c.bases = "stacked";
  EXPECT_FALSE(StackedLearner::make(c, LearnerContext{Task::kRegression, 0, 3, 1}).is_ok());
  c.bases = "quantile_sgbt";  // regression only
  auto cls = StackedLearner::make(c, LearnerContext{Task::kClassification, 2, 3, 1});
  ASSERT_FALSE(cls.is_ok());
  EXPECT_NE(cls.status().message().find("base 0"), std::string::npos) << cls.status().message();
  c = small();
  c.meta = "sgbt,sgbt";
  EXPECT_FALSE(StackedLearner::make(c, LearnerContext{Task::kRegression, 0, 3, 1}).is_ok());
}

}  // namespace
}  // namespace irithyll
