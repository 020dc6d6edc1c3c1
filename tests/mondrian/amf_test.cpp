// The aggregated Mondrian forest as a learner (irithyll/mondrian/amf.hpp):
// settings, checkpoints against hostile bytes, missing values, the memory
// cap, and prequential accuracy on streams with a known answer.
#include "irithyll/mondrian/amf.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

std::unique_ptr<MondrianForestLearner> make_forest(Task task, std::size_t width, AmfConfig config = {},
                                                   std::uint64_t seed = 42) {
  LearnerContext ctx{task, task == Task::kClassification ? std::size_t{2} : 0, width, seed};
  auto m = MondrianForestLearner::make(config, ctx);
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return m.is_ok() ? std::move(m).value() : nullptr;
}

// Inside or outside the circle of squared radius r2 around (0.5, 0.5),
// features uniform in [0, 1)^2, `noise` of the labels flipped. r2 = 0.16:
// the classes are balanced (inside: pi * 0.16 = 0.503).
struct Circle {
  Xorshift64 rng;
  double noise;
  double r2 = 0.16;
  double next(std::vector<double>& x) {
    x = {rng.uniform(), rng.uniform()};
    const double dx = x[0] - 0.5, dy = x[1] - 0.5;
    double y = dx * dx + dy * dy < r2 ? 1.0 : 0.0;
    if (rng.uniform() < noise) y = 1.0 - y;
    return y;
  }
};

// Prequential accuracy over n samples.
double prequential_accuracy(Learner& m, Circle stream, int n) {
  std::vector<double> x;
  int right = 0;
  for (int i = 0; i < n; ++i) {
    const double y = stream.next(x);
    right += m.predict_one(x) == y;
    m.learn_one(x, y);
  }
  return static_cast<double>(right) / n;
}

TEST(MondrianForest, RefusesBadSettingsAndContexts) {
  AmfConfig bad;
  bad.dirichlet = 0.0;
  EXPECT_FALSE(MondrianForestLearner::make(bad, {Task::kClassification, 2, 2, 1}).is_ok());
  bad = {};
  bad.max_nodes = 2;
  EXPECT_FALSE(MondrianForestLearner::make(bad, {Task::kRegression, 0, 2, 1}).is_ok());
  EXPECT_FALSE(MondrianForestLearner::make({}, {Task::kClassification, 1, 2, 1}).is_ok());
}

// The roots alone (n-estimators * (2 * features + classes) values) are capped
// at 2^23, so no setting asks for memory by the gigabyte before the first
// sample; forests far larger than useful stay accepted.
TEST(MondrianForest, RefusesForestsWhoseRootsAloneExceedTheCap) {
  AmfConfig big;
  big.n_estimators = 100;
  EXPECT_FALSE(MondrianForestLearner::make(big, {Task::kClassification, std::size_t{1} << 20, 2, 1}).is_ok());
  EXPECT_FALSE(MondrianForestLearner::make(big, {Task::kRegression, 0, std::size_t{1} << 16, 1}).is_ok());
  EXPECT_TRUE(MondrianForestLearner::make(big, {Task::kRegression, 0, 1000, 1}).is_ok());
  EXPECT_TRUE(MondrianForestLearner::make(big, {Task::kClassification, 1000, 1000, 1}).is_ok());
  // A stream whose rows are too wide for the cap is skipped, not grown.
  auto m = MondrianForestLearner::make(big, {Task::kRegression, 0, 0, 1});
  ASSERT_TRUE(m.is_ok());
  const std::vector<double> wide(std::size_t{1} << 16, 0.5);
  (*m)->learn_one(wide, 1.0, 1.0);
  EXPECT_EQ((*m)->tree_size(0), 0u);
  EXPECT_EQ((*m)->n_skipped(), 1u);
}

// A smooth non-axis-aligned boundary with 10 % label noise: the Bayes rate
// is 90 %. Over 10 seeds, default settings, the mean prequential accuracy
// on 5000 samples is above 0.83 and each seed's above 0.78 (measured: mean
// 0.858, lowest 0.824; a seed's accuracy has a binomial spread of about
// 0.005 around its expectation, so the thresholds sit > 5 spreads below the
// measured values: false-failure rate below 1e-6).
TEST(MondrianForest, LearnsACircleToNearTheBayesRate) {
  double total = 0.0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    auto m = make_forest(Task::kClassification, 2, {}, seed);
    const double acc = prequential_accuracy(*m, Circle{Xorshift64(seed * 7919), 0.1}, 5000);
    EXPECT_GT(acc, 0.78) << "seed " << seed;
    total += acc;
  }
  EXPECT_GT(total / 10.0, 0.83);
}

// Split-pure off lets a node that was pure while its box grew absorb a
// region for good (amf.hpp). An unbalanced circle (inside: 28 %) opens some
// streams with a long run of the outside class; split-pure on keeps every
// seed near the Bayes rate (measured: 0.830 to 0.862 on these 10 seeds,
// while split-pure off gives 0.673 on seed 4, the majority rate). Threshold
// 0.80: > 5 binomial spreads below the lowest, false-failure rate < 1e-6.
TEST(MondrianForest, SplitPureKeepsAnOpeningRunOfOneClassFromFreezingARegion) {
  AmfConfig config;
  config.split_pure = true;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    auto m = make_forest(Task::kClassification, 2, config, seed);
    Circle stream{Xorshift64(seed * 7919), 0.1};
    stream.r2 = 0.09;
    EXPECT_GT(prequential_accuracy(*m, stream, 5000), 0.80) << "seed " << seed;
  }
}

// Regression: y = sin(6 x0) + x1 with noise sd 0.1. The forest's prequential
// mean squared error over the last 2000 of 5000 samples is well below the
// target's variance (about 0.6): under 0.05 (measured about 0.02).
TEST(MondrianForest, RegressesASmoothFunction) {
  auto m = make_forest(Task::kRegression, 2);
  Xorshift64 rng(3);
  double sse = 0.0;
  for (int i = 0; i < 5000; ++i) {
    const std::vector<double> x = {rng.uniform(), rng.uniform()};
    const double y = std::sin(6.0 * x[0]) + x[1] + 0.1 * rng.normal();
    const double e = m->predict_one(x) - y;
    if (i >= 3000) sse += e * e;
    m->learn_one(x, y);
  }
  EXPECT_LT(sse / 2000.0, 0.05);
}

// Probabilities are a distribution; the point prediction is their arg-max.
TEST(MondrianForest, ProbabilitiesSumToOneAndAgreeWithThePrediction) {
  auto m = make_forest(Task::kClassification, 2);
  Circle stream{Xorshift64(5), 0.2};
  std::vector<double> x, proba(2);
  for (int i = 0; i < 2000; ++i) {
    const double y = stream.next(x);
    m->predict_proba_one(x, proba);
    EXPECT_NEAR(proba[0] + proba[1], 1.0, 1e-12);
    EXPECT_EQ(m->predict_one(x), proba[1] > proba[0] ? 1.0 : 0.0);
    m->learn_one(x, y);
  }
}

// max-nodes bounds every tree; the memory report follows (regression:
// when-full auto freezes a full tree).
TEST(MondrianForest, MaxNodesBoundsMemory) {
  AmfConfig config;
  config.max_nodes = 101;
  auto m = make_forest(Task::kRegression, 3, config);
  Xorshift64 rng(1);
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = {rng.uniform(), rng.uniform(), rng.uniform()};
    m->learn_one(x, x[0]);
  }
  const std::size_t full = m->memory_bytes();
  for (std::size_t t = 0; t < config.n_estimators; ++t) EXPECT_LE(m->tree_size(t), 101u);
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = {rng.uniform(), rng.uniform(), rng.uniform()};
    m->learn_one(x, x[0]);
  }
  EXPECT_EQ(m->memory_bytes(), full);
}

// max-nodes 0 (the default) is 4096 nodes per regression tree, so a tree
// keeps splitting past 1,024 nodes (about 500 samples) and freezes at 4096;
// 1024 per classification tree.
TEST(MondrianForest, AutoMaxNodesDependsOnTheTask) {
  AmfConfig config;
  config.n_estimators = 2;
  EXPECT_EQ(amf_max_nodes(config, Task::kRegression), 4096u);
  EXPECT_EQ(amf_max_nodes(config, Task::kClassification), 1024u);
  config.max_nodes = 50;
  EXPECT_EQ(amf_max_nodes(config, Task::kRegression), 50u);
  config.max_nodes = 0;
  auto m = make_forest(Task::kRegression, 3, config);
  Xorshift64 rng(4);
  for (int i = 0; i < 1500; ++i) {
    const std::vector<double> x = {rng.uniform(), rng.uniform(), rng.uniform()};
    m->learn_one(x, x[0] + x[1]);
  }
  for (std::size_t t = 0; t < 2; ++t) EXPECT_GT(m->tree_size(t), 1024u);
  for (int i = 0; i < 4000; ++i) {
    const std::vector<double> x = {rng.uniform(), rng.uniform(), rng.uniform()};
    m->learn_one(x, x[0] + x[1]);
  }
  for (std::size_t t = 0; t < 2; ++t) EXPECT_LE(m->tree_size(t), 4096u);
  config.max_nodes = 2;  // neither auto nor a usable cap
  EXPECT_FALSE(MondrianForestLearner::make(config, {Task::kRegression, 0, 3, 1}).is_ok());
}

// when-full restart (auto for classification): a full tree starts again,
// tree t at its own size, so memory stays flat and the trees' sizes differ.
TEST(MondrianForest, FullTreesRestartAtStaggeredSizes) {
  AmfConfig config;
  config.max_nodes = 200;
  config.split_pure = true;
  auto m = make_forest(Task::kClassification, 2, config);
  Circle stream{Xorshift64(2), 0.2};
  std::vector<double> x;
  std::size_t full = 0;
  for (int i = 0; i < 6000; ++i) {
    const double y = stream.next(x);
    m->learn_one(x, y);
    if (i == 2999) full = m->memory_bytes();
    for (std::size_t t = 0; t < config.n_estimators; ++t)
      ASSERT_LE(m->tree_size(t), 200 - t * (200 / 20)) << "tree " << t << " at sample " << i;
  }
  EXPECT_EQ(m->memory_bytes(), full);
  std::size_t distinct = 0;
  for (std::size_t t = 1; t < config.n_estimators; ++t) distinct += m->tree_size(t) != m->tree_size(0);
  EXPECT_GT(distinct, 5u);
}

// The width is taken from the first sample when the context has none, and
// the checkpoint carries it.
TEST(MondrianForest, WidthFromTheFirstSampleSurvivesACheckpoint) {
  auto m = make_forest(Task::kRegression, 0);
  EXPECT_EQ(m->n_features(), 0u);
  ByteWriter empty;
  m->encode(empty);
  MondrianForestLearner blank;
  ByteReader r0(empty.data());
  ASSERT_TRUE(blank.decode(r0).is_ok());
  m->learn_one(std::vector<double>{1.0, 2.0, 3.0}, 1.0);
  m->learn_one(std::vector<double>{2.0, 1.0, 0.0}, 2.0);
  EXPECT_EQ(m->n_features(), 3u);
  EXPECT_FALSE(m->check_sample(std::vector<double>{1.0, 2.0}, 1.0).is_ok());
  ByteWriter w;
  m->encode(w);
  ByteReader r(w.data());
  ASSERT_TRUE(blank.decode(r).is_ok());
  EXPECT_EQ(blank.n_features(), 3u);
  EXPECT_EQ(blank.predict_one(std::vector<double>{1.5, 1.5, 1.5}), m->predict_one(std::vector<double>{1.5, 1.5, 1.5}));
}

// Hostile bytes: every single-byte corruption of a real checkpoint either
// is refused or decodes into a model whose predictions stay finite; none
// crashes (the sanitizer build checks the reads), and cuts are refused.
TEST(MondrianForest, CorruptedCheckpointsAreRefusedOrHarmless) {
  AmfConfig config;
  config.n_estimators = 2;
  for (Task task : {Task::kClassification, Task::kRegression}) {
    auto m = make_forest(task, 2, config);
    Circle stream{Xorshift64(9), 0.1};
    std::vector<double> x;
    for (int i = 0; i < 60; ++i) {
      const double y = stream.next(x);
      m->learn_one(x, task == Task::kClassification ? y : y + x[0]);
    }
    ByteWriter w;
    m->encode(w);
    const std::vector<std::uint8_t> good = w.data();
    std::size_t refused = 0;
    for (std::size_t i = 0; i < good.size(); ++i) {
      for (std::uint8_t flip : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xFF}}) {
        std::vector<std::uint8_t> bytes = good;
        bytes[i] ^= flip;
        MondrianForestLearner c;
        ByteReader r(bytes);
        if (!c.decode(r).is_ok()) {
          ++refused;
          continue;
        }
        for (const std::vector<double>& probe : {std::vector<double>{0.5, 0.5}, std::vector<double>{-3.0, 9.0}})
          ASSERT_TRUE(std::isfinite(c.predict_one(probe))) << "byte " << i;
      }
    }
    EXPECT_GT(refused, good.size() / 4);  // links, counts, non-finite values and box order are caught
    for (std::size_t cut = 0; cut < good.size(); cut += 7) {
      MondrianForestLearner c;
      ByteReader r(std::span<const std::uint8_t>(good.data(), cut));
      EXPECT_FALSE(c.decode(r).is_ok()) << "cut at " << cut;
    }
  }
}

// NaN/inf features are missing values: learning goes on and predictions
// stay finite, including for a probe with every feature missing.
TEST(MondrianForest, MissingFeaturesKeepPredictionsFinite) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto m = make_forest(Task::kClassification, 2);
  Circle stream{Xorshift64(4), 0.0};
  std::vector<double> x;
  for (int i = 0; i < 1000; ++i) {
    const double y = stream.next(x);
    if (i % 3 == 0) x[i % 2] = i % 2 ? inf : nan;
    m->learn_one(x, y);
  }
  EXPECT_EQ(m->n_skipped(), 0u);
  std::vector<double> proba(2);
  for (const std::vector<double>& probe : {std::vector<double>{nan, nan}, std::vector<double>{-inf, 0.5}}) {
    m->predict_proba_one(probe, proba);
    EXPECT_TRUE(std::isfinite(proba[0]) && std::isfinite(proba[1]));
    EXPECT_NEAR(proba[0] + proba[1], 1.0, 1e-12);
  }
  // Clean samples afterwards still reach a sensible accuracy (measured 0.9).
  EXPECT_GT(prequential_accuracy(*m, Circle{Xorshift64(11), 0.0}, 2000), 0.8);
}

}  // namespace
}  // namespace irithyll
