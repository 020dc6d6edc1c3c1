// kNN: the window, the tie rule, missing features, standardisation and the
// zero-distance vote, on hand-made samples.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/neighbors/knn.hpp"

namespace irithyll {
namespace {

std::unique_ptr<KnnLearner> make(KnnConfig c, Task task = Task::kRegression, std::size_t classes = 0) {
  auto made = KnnLearner::make(c, LearnerContext{task, classes, 0, 1});
  EXPECT_TRUE(made.is_ok()) << made.status().message();
  return std::move(made).value();
}

TEST(Knn, WindowForgetsTheOldest) {
  KnnConfig c;
  c.n_neighbors = 1, c.window_size = 2, c.standardize = false;
  auto m = make(c);
  m->learn_one(std::vector<double>{0.0}, 10.0);
  m->learn_one(std::vector<double>{5.0}, 20.0);
  EXPECT_EQ(m->predict_one(std::vector<double>{0.1}), 10.0);
  m->learn_one(std::vector<double>{6.0}, 30.0);  // evicts x = 0
  EXPECT_EQ(m->stored(), 2u);
  EXPECT_EQ(m->predict_one(std::vector<double>{0.1}), 20.0);
}

TEST(Knn, EqualDistancesRankTheOlderFirst) {
  KnnConfig c;
  c.n_neighbors = 1, c.standardize = false, c.weighting = KnnWeighting::kUniform;
  auto m = make(c);
  m->learn_one(std::vector<double>{-1.0}, 1.0);
  m->learn_one(std::vector<double>{1.0}, 2.0);
  EXPECT_EQ(m->predict_one(std::vector<double>{0.0}), 1.0);
}

TEST(Knn, MissingFeaturesAreLeftOutOfTheDistance) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  KnnConfig c;
  c.n_neighbors = 1, c.standardize = false;
  auto m = make(c);
  m->learn_one(std::vector<double>{0.0, 100.0}, 1.0);
  m->learn_one(std::vector<double>{10.0, 0.0}, 2.0);
  // Feature 1 missing in the query: only feature 0 counts.
  EXPECT_EQ(m->predict_one(std::vector<double>{1.0, nan}), 1.0);
  // A stored sample missing feature 0 is compared on feature 1 alone.
  m->learn_one(std::vector<double>{nan, 50.0}, 3.0);
  EXPECT_EQ(m->predict_one(std::vector<double>{nan, 49.0}), 3.0);
  EXPECT_EQ(m->n_skipped(), 0u);
}

TEST(Knn, StandardisationEqualisesScales) {
  KnnConfig c;
  c.n_neighbors = 1;
  auto on = make(c);
  c.standardize = false;
  auto off = make(c);
  // Feature 0 spreads over [0, 3] (sd 1.5), feature 1 over [0, 1000] (sd 414.6).
  const std::vector<std::vector<double>> xs = {{0, 500}, {3, 0}, {0, 1000}, {3, 1000}};
  for (std::size_t i = 0; i < xs.size(); ++i) {
    on->learn_one(xs[i], static_cast<double>(i + 1));
    off->learn_one(xs[i], static_cast<double>(i + 1));
  }
  const std::vector<double> q = {0, 0};
  EXPECT_EQ(off->predict_one(q), 2.0);  // raw: 3 < 500
  EXPECT_EQ(on->predict_one(q), 1.0);   // scaled: 500 / 414.6 = 1.21 < 3 / 1.5 = 2
}

TEST(Knn, ZeroDistanceNeighboursAloneVote) {
  KnnConfig c;
  c.n_neighbors = 3, c.standardize = false, c.weighting = KnnWeighting::kDistance;
  auto m = make(c, Task::kClassification, 3);
  m->learn_one(std::vector<double>{0.0}, 2.0);
  m->learn_one(std::vector<double>{0.5}, 1.0);
  m->learn_one(std::vector<double>{0.6}, 1.0);
  std::vector<double> proba(3);
  m->predict_proba_one(std::vector<double>{0.0}, proba);
  EXPECT_EQ(proba[2], 1.0);
  EXPECT_EQ(m->predict_one(std::vector<double>{0.0}), 2.0);
  // Away from it, 1/d weights: class 1 has two near neighbours.
  m->predict_proba_one(std::vector<double>{0.45}, proba);
  EXPECT_GT(proba[1], proba[2]);
  EXPECT_NEAR(proba[0] + proba[1] + proba[2], 1.0, 1e-15);
}

TEST(Knn, SettingsAreChecked) {
  KnnConfig c;
  c.n_neighbors = 0;
  EXPECT_FALSE(KnnLearner::make(c, LearnerContext{}).is_ok());
  c = KnnConfig{};
  c.p = 0.5;
  EXPECT_FALSE(KnnLearner::make(c, LearnerContext{}).is_ok());
  c = KnnConfig{};
  EXPECT_FALSE(KnnLearner::make(c, LearnerContext{Task::kClassification, 1, 0, 1}).is_ok());
}

}  // namespace
}  // namespace irithyll
