// Pipelines from text (pipeline_spec.hpp): the parser's grammar and refusals,
// building across width-changing steps with names, and checkpoints of such
// pipelines resuming bit-identically.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/pipeline.hpp"
#include "irithyll/pipeline_spec.hpp"

namespace irithyll {
namespace {

TEST(PipelineSpec, ParsesStepsAndSettings) {
  auto p = parse_pipeline_spec(" one_hot(columns=colour,day; max-categories = 8) | standard_scaler|logistic_regression(l2=0.01)");
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  ASSERT_EQ(p->size(), 3u);
  EXPECT_EQ((*p)[0].name, "one_hot");
  ASSERT_EQ((*p)[0].settings.items().size(), 2u);
  EXPECT_EQ((*p)[0].settings.items()[0], (std::pair<std::string, std::string>{"columns", "colour,day"}));
  EXPECT_EQ((*p)[0].settings.items()[1], (std::pair<std::string, std::string>{"max-categories", "8"}));
  EXPECT_EQ((*p)[1].name, "standard_scaler");
  EXPECT_TRUE((*p)[1].settings.empty());
  EXPECT_EQ((*p)[2].settings.items()[0].second, "0.01");
  EXPECT_TRUE(is_pipeline_spec("a|b"));
  EXPECT_FALSE(is_pipeline_spec("stacked(bases=a)"));
  EXPECT_FALSE(is_pipeline_spec("x(columns=a|b)"));
}

TEST(PipelineSpec, RefusesMalformedText) {
  for (const char* bad : {"", "|", "a||b", "a(|b", "a)|b", "a(k)|b", "a(=1)|b", "a(k=1)x|b", "a b|c", "a((k=1))|b",
                          "a(k=1|b"}) {
    auto p = parse_pipeline_spec(bad);
    EXPECT_FALSE(p.is_ok()) << "'" << bad << "'";
  }
  std::string many;
  for (int i = 0; i < 40; ++i) many += "standard_scaler|";
  EXPECT_FALSE(parse_pipeline_spec(many + "sgbt").is_ok());
}

LearnerContext context(std::size_t d) {
  LearnerContext c{Task::kClassification, 2, d, 7};
  for (std::size_t i = 0; i < d; ++i) c.feature_names.push_back(i == 0 ? "colour" : "x" + std::to_string(i));
  return c;
}

TEST(PipelineSpec, BuildsAcrossWidthChangesAndNamesWrongSteps) {
  const std::uint32_t cats[1] = {0};
  auto p = make_pipeline("one_hot(max-categories=4)|polynomial(interaction-only=on)|standard_scaler|logistic_regression",
                         {}, context(3), cats);
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_EQ((*p)->n_features(), 3u);  // the input width
  // 2 kept + 5 slots = 7 -> 7 + 21 products = 28 for the learner.
  EXPECT_EQ(static_cast<const Pipeline&>(**p).learner().n_features(), 28u);
  // A later step finds an earlier step's output by the name it printed.
  EXPECT_TRUE(make_pipeline("one_hot|min_max|feature_hasher(columns=x1)|logistic_regression", {}, context(3), cats).is_ok());
  auto wrong = make_pipeline("standard_scaler|logistic_regression|sgbt", {}, context(3), cats);
  ASSERT_FALSE(wrong.is_ok());
  EXPECT_NE(wrong.status().message().find("is a learner"), std::string::npos) << wrong.status().message();
  auto last = make_pipeline("standard_scaler|min_max", {}, context(3), cats);
  ASSERT_FALSE(last.is_ok());
  EXPECT_NE(last.status().message().find("end with a learner"), std::string::npos) << last.status().message();
  auto unknown = make_pipeline("scaler|logistic_regression", {}, context(3), cats);
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.status().message().find("unknown transformer 'scaler'"), std::string::npos);
  auto setting = make_pipeline("min_max(lo=2)|logistic_regression", {}, context(3), cats);
  EXPECT_FALSE(setting.is_ok());
  // Extra settings reach the learner.
  EXPECT_FALSE(make_pipeline("min_max|logistic_regression", {{"no-such", "1"}}, context(3), cats).is_ok());
}

TEST(PipelineSpec, CheckpointResumesBitIdenticallyAndRefusesWrongWidths) {
  const std::uint32_t cats[1] = {0};
  const char* spec =
      "one_hot|target_encoder(columns=colour=1)|ccipca(n-components=3)|feature_selector(warmup=20)|"
      "min_max|logistic_regression";
  auto made = make_pipeline(spec, {}, context(4), cats);
  ASSERT_TRUE(made.is_ok()) << made.status().message();
  Learner& a = **made;
  Xorshift64 rng(3);
  std::vector<double> x(4);
  auto draw = [&] {
    x = {std::floor(rng.uniform() * 6.0), rng.normal(), rng.normal(), rng.normal()};
    if (rng.uniform() < 0.05) x[1 + static_cast<std::size_t>(rng.uniform() * 3.0)] = std::numeric_limits<double>::quiet_NaN();
    return (x[0] < 3.0) != (x[1] > 0.5) ? 1.0 : 0.0;
  };
  for (int i = 0; i < 1500; ++i) a.learn_one(x, draw());
  auto b = decode_learner(encode_learner(a));
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  std::vector<double> pa(2), pb(2);
  for (int i = 0; i < 1000; ++i) {
    const double y = draw();
    a.predict_proba_one(x, pa);
    (*b)->predict_proba_one(x, pb);
    ASSERT_EQ(pa, pb) << i;
    ASSERT_TRUE(std::isfinite(pa[0])) << i;
    a.learn_one(x, y);
    (*b)->learn_one(x, y);
  }
  EXPECT_EQ(encode_learner(a), encode_learner(**b));
  const double narrow[2] = {1.0, 2.0};
  EXPECT_FALSE(a.check_sample(narrow, 0.0).is_ok());
  const std::uint64_t seen = a.n_samples_seen();
  a.learn_one(narrow, 0.0);
  EXPECT_EQ(a.n_samples_seen(), seen);
  EXPECT_GE(a.n_skipped(), 1u);
}

}  // namespace
}  // namespace irithyll
