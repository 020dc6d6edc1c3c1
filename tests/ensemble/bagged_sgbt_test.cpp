#include "irithyll/ensemble/bagged_sgbt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tree/streams.hpp"
#include "support/encoded.hpp"

namespace irithyll {
namespace {

BaggedSGBTConfig small_config() {
  BaggedSGBTConfig c;
  c.n_bags = 4;
  c.sgbt.n_steps = 10;
  c.sgbt.learning_rate = 0.1;
  c.sgbt.tree.grace_period = 50;
  return c;
}

using testing::encoded;

TEST(BaggedSGBT, ClassifiesTheLineFarAboveMajority) {
  auto m = BaggedSGBT::make(small_config(), {.task = Task::kClassification, .n_classes = 2, .seed = 3}).value();
  test::LineStream s;
  int correct = 0;
  const int n = 6000;
  for (int i = 0; i < n; ++i) {
    const double y = s.next();
    correct += m->predict_one(s.x) == y;
    m->learn_one(s.x, y);
  }
  EXPECT_GT(static_cast<double>(correct) / n, 0.8);  // majority class: ~0.5
  std::vector<double> p(2);
  m->predict_proba_one(s.x, p);
  EXPECT_NEAR(p[0] + p[1], 1.0, 1e-12);
}

TEST(BaggedSGBT, RegressionBeatsTheMean) {
  auto m = BaggedSGBT::make(small_config(), {.task = Task::kRegression, .seed = 3}).value();
  test::FriedmanStream s;
  double se = 0.0;
  int n = 0;
  for (int i = 0; i < 6000; ++i) {
    const double y = s.next();
    const double p = m->predict_one(s.x);
    if (i >= 4000) se += (p - y) * (p - y), ++n;
    m->learn_one(s.x, y);
  }
  EXPECT_LT(std::sqrt(se / n), 4.0);  // target sd ~4.9
}

TEST(BaggedSGBT, ResumeIsBitIdenticalAndHostileBytesGiveStatus) {
  auto a = BaggedSGBT::make(small_config(), {.task = Task::kClassification, .n_classes = 2, .seed = 9}).value();
  test::LineStream s;
  for (int i = 0; i < 1500; ++i) {
    const double y = s.next();
    a->learn_one(s.x, y);
  }
  const auto bytes = encoded(*a);
  BaggedSGBT b;
  ByteReader in(bytes);
  ASSERT_TRUE(b.decode(in).is_ok());
  EXPECT_EQ(encoded(b), bytes);
  test::LineStream s2 = s;
  for (int i = 0; i < 1500; ++i) {
    const double y = s.next();
    s2.next();
    ASSERT_EQ(a->predict_one(s.x), b.predict_one(s2.x));
    a->learn_one(s.x, y);
    b.learn_one(s2.x, y);
  }
  EXPECT_EQ(encoded(*a), encoded(b));
  for (std::size_t cut = 0; cut < bytes.size(); cut += bytes.size() / 50 + 1) {
    BaggedSGBT c;
    ByteReader r(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(c.decode(r).is_ok()) << "cut " << cut;
  }
}

TEST(BaggedSGBT, DeterministicAndBagsDiffer) {
  auto a = BaggedSGBT::make(small_config(), {.task = Task::kRegression, .seed = 5}).value();
  auto b = BaggedSGBT::make(small_config(), {.task = Task::kRegression, .seed = 5}).value();
  test::FriedmanStream s1, s2;
  for (int i = 0; i < 800; ++i) {
    const double y1 = s1.next(), y2 = s2.next();
    a->learn_one(s1.x, y1);
    b->learn_one(s2.x, y2);
  }
  EXPECT_EQ(encoded(*a), encoded(*b));
  EXPECT_NE(a->config().sgbt.seed, 0u);
}

TEST(BaggedSGBT, SettingsTableCoversBaggingAndSGBT) {
  BaggedSGBTConfig c;
  ASSERT_TRUE(apply_settings<BaggedSGBTConfig>("bagged_sgbt", bagged_sgbt_config_fields(),
                                               ModelSettings{{"n-bags", "3"}, {"n-steps", "7"}, {"learning-rate", "0.2"}}, c)
                  .is_ok());
  EXPECT_EQ(c.n_bags, 3u);
  EXPECT_EQ(c.sgbt.n_steps, 7u);
  EXPECT_EQ(c.sgbt.learning_rate, 0.2);
  EXPECT_EQ(bagged_sgbt_config_fields().size(), 2 + sgbt_config_fields().size());
  BaggedSGBTConfig bad;
  bad.lambda = 0.0;
  auto m = BaggedSGBT::make(bad, {.task = Task::kRegression, .seed = 1});
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("bag-lambda"), std::string::npos);
  // Every name in the table is distinct (SGBT has its own "lambda").
  const auto rows = bagged_sgbt_config_fields();
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = i + 1; j < rows.size(); ++j) EXPECT_NE(rows[i].info.name, rows[j].info.name);
}

}  // namespace
}  // namespace irithyll

namespace irithyll {
namespace {

// Regression: a bag that drew k = 0 for every sample so far has no feature
// width yet; its checkpoint once failed to decode ("bags disagree on the
// feature count") and the learner reported width 0 when bag 0 was such a bag.
TEST(BaggedSGBT, BagsThatHaveSeenNothingYetStillDecode) {
  BaggedSGBTConfig c = small_config();
  c.n_bags = 8;
  c.lambda = 0.2;  // P(k = 0) = 0.82 per bag and sample
  auto m = BaggedSGBT::make(c, {.task = Task::kRegression, .seed = 3}).value();
  const std::vector<double> x{0.1, 0.2, 0.3};
  bool mixed = false;
  for (int i = 0; i < 40 && !mixed; ++i) {
    m->learn_one(x, 1.0 + i);
    std::size_t seen = 0;
    for (std::size_t b = 0; b < m->n_bags(); ++b) seen += m->bag(b).n_features() != 0 ? 1 : 0;
    mixed = seen > 0 && seen < m->n_bags();
  }
  ASSERT_TRUE(mixed) << "every bag saw a sample at once; pick another seed";
  EXPECT_EQ(m->n_features(), 3u);
  ByteWriter w;
  m->encode(w);
  BaggedSGBT back;
  ByteReader r(w.data());
  ASSERT_TRUE(back.decode(r).is_ok());
  EXPECT_EQ(back.predict_one(x), m->predict_one(x));
}

// The bags split over threads learn exactly what they learn on one: the
// Poisson counts are drawn in bag order before any bag learns. Three threads
// over four bags (uneven groups), a decoded copy given threads after loading
// (Threaded), and the bytes at the end all agree.
TEST(BaggedSGBT, ThreadsGiveTheSameModelAsOneThread) {
  BaggedSGBTConfig one = small_config(), three = small_config();
  three.sgbt.threads = 3;
  auto a = BaggedSGBT::make(one, {.task = Task::kClassification, .n_classes = 2, .seed = 8}).value();
  auto b = BaggedSGBT::make(three, {.task = Task::kClassification, .n_classes = 2, .seed = 8}).value();
  EXPECT_EQ(b->threads(), 3u);
  test::LineStream s;
  std::unique_ptr<BaggedSGBT> c;
  for (int i = 0; i < 4000; ++i) {
    const double y = s.next();
    ASSERT_EQ(a->predict_one(s.x), b->predict_one(s.x)) << "sample " << i;
    a->learn_one(s.x, y);
    b->learn_one(s.x, y);
    if (c) c->learn_one(s.x, y);
    if (i == 1500) {
      c = std::make_unique<BaggedSGBT>();
      const std::vector<std::uint8_t> bytes = encoded(*a);
      ByteReader in(bytes);
      ASSERT_TRUE(c->decode(in).is_ok());
      ASSERT_TRUE(c->set_threads(2).is_ok());
    }
  }
  EXPECT_EQ(encoded(*a), encoded(*b));
  EXPECT_EQ(encoded(*a), encoded(*c));
  EXPECT_FALSE(a->set_threads(0).is_ok());
}

}  // namespace
}  // namespace irithyll
