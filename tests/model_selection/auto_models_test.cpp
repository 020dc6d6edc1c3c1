// `auto` over real catalogue models: same seed same race, a checkpoint
// resumes the race bit-identically, entries for absent models are skipped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/selection/auto_learner.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll {
namespace {

const ModelSettings kSmallPool = {
    {"pool", "sgbt:n-steps=10;hoeffding_tree;sgbt:n-steps=10,learning-rate=0.05;no_such_model;mean"},
    {"race-every", "50"},
    {"window", "500"},
    {"revive-after", "800"}};

std::unique_ptr<Learner> make_auto(std::uint64_t seed) {
  auto m = make_learner("auto", kSmallPool, LearnerContext{Task::kClassification, 2, 3, seed});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return m.is_ok() ? std::move(m).value() : nullptr;
}

// Feeds `n` SEA samples from `stream`, returning the predictions.
std::vector<double> feed(Learner& m, Stream& stream, std::uint64_t n) {
  std::vector<double> x(3), out;
  double y = 0.0;
  for (std::uint64_t i = 0; i < n && stream.next(x, y); ++i) {
    out.push_back(m.predict_one(x));
    m.learn_one(x, y);
  }
  return out;
}

TEST(AutoModels, AbsentAndWrongTaskEntriesAreSkipped) {
  auto m = make_auto(1);
  ASSERT_TRUE(m);
  const auto& a = dynamic_cast<const AutoLearner&>(*m);
  EXPECT_EQ(a.n_entries(), 3u);  // no_such_model and mean (regression only) are skipped
}

TEST(AutoModels, SameSeedSameRaceAndCheckpointResumes) {
  auto a = make_auto(7), b = make_auto(7);
  ASSERT_TRUE(a && b);
  auto sa = make_generator("sea", 3, 8000), sb = make_generator("sea", 3, 8000);
  ASSERT_TRUE(sa.is_ok() && sb.is_ok());
  EXPECT_EQ(feed(*a, **sa, 3000), feed(*b, **sb, 3000));
  ByteWriter w;
  a->encode(w);
  auto c = make_blank_learner("auto");
  ByteReader r(w.data());
  ASSERT_TRUE(c->decode(r).is_ok());
  auto sc = make_generator("sea", 3, 8000);
  ASSERT_TRUE(sc.is_ok());
  feed(*c, **sc, 0);
  std::vector<double> x(3);
  double y = 0.0;
  for (int i = 0; i < 3000; ++i) (*sc)->next(x, y);  // the stream to where the checkpoint was taken
  const auto pa = feed(*a, **sa, 5000);
  const auto pc = feed(*c, **sc, 5000);
  EXPECT_EQ(pa, pc);
  const auto& aa = dynamic_cast<const AutoLearner&>(*a);
  const auto& ac = dynamic_cast<const AutoLearner&>(*c);
  EXPECT_EQ(aa.report_json(), ac.report_json());
  EXPECT_EQ(aa.report_text(), ac.report_text());
}

TEST(AutoModels, StackModeMixesProbabilities) {
  ModelSettings s = kSmallPool;
  s.set("mode", "stack");
  auto m = make_learner("auto", s, LearnerContext{Task::kClassification, 2, 3, 2});
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  auto sea = make_generator("sea", 2, 3000);
  ASSERT_TRUE(sea.is_ok());
  feed(**m, **sea, 3000);
  std::vector<double> p(2), x = {5.0, 5.0, 5.0};
  (*m)->predict_proba_one(x, p);
  EXPECT_NEAR(p[0] + p[1], 1.0, 1e-9);
}

}  // namespace
}  // namespace irithyll
