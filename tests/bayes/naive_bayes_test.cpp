// Naive Bayes: the likelihoods are the textbook ones (checked by hand on a
// tiny stream), probabilities sum to 1, a class never seen gets 0, weights
// are repetitions, negative counts read as 0, missing features drop out of
// the likelihood, and checkpoints resume bit-identically.
#include "irithyll/bayes/naive_bayes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "linear/linear_test_support.hpp"

namespace irithyll {
namespace {

using Stream = std::vector<std::pair<std::vector<double>, double>>;

Stream gaussian_stream(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  Stream out;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = static_cast<double>(rng.next_u64() % 3);
    out.push_back({{rng.normal(2.0 * y, 1.0), rng.normal(-y, 0.5), rng.normal()}, y});
  }
  return out;
}

Stream count_stream(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  Stream out;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = static_cast<double>(rng.next_u64() % 3);
    std::vector<double> x(4);
    for (std::size_t j = 0; j < 4; ++j)
      x[j] = std::floor(rng.uniform() * (j == static_cast<std::size_t>(y) ? 6.0 : 2.0));
    out.emplace_back(x, y);
  }
  return out;
}

LearnerContext cls(std::size_t k, std::size_t d) { return {Task::kClassification, k, d, 1}; }

template <class T>
double accuracy(T& m, const Stream& train, const Stream& test) {
  for (const auto& [x, y] : train) m.learn_one(x, y);
  double hits = 0;
  for (const auto& [x, y] : test) hits += m.predict_one(x) == y;
  return hits / static_cast<double>(test.size());
}

TEST(GaussianNb, LikelihoodIsTheNormalDensityWithSmoothedVariance) {
  auto m = test::build<GaussianNbLearner>({{"var-smoothing", "0.01"}}, cls(2, 1));
  for (double v : {1.0, 3.0}) m->learn_one(std::vector<double>{v}, 0.0);
  for (double v : {10.0, 14.0, 12.0}) m->learn_one(std::vector<double>{v}, 1.0);
  // Class variances 1 and 8/3; pooled variance of {1,3,10,14,12} = 26.
  const double eps = 0.01 * 26.0;
  std::vector<double> jll(2);
  m->joint_log_likelihood(std::vector<double>{5.0}, jll);
  const auto normal = [](double x, double mu, double var) {
    return -0.5 * std::log(2.0 * std::numbers::pi * var) - 0.5 * (x - mu) * (x - mu) / var;
  };
  EXPECT_NEAR(jll[0], std::log(0.4) + normal(5.0, 2.0, 1.0 + eps), 1e-12);
  EXPECT_NEAR(jll[1], std::log(0.6) + normal(5.0, 12.0, 8.0 / 3.0 + eps), 1e-12);
}

TEST(GaussianNb, SeparatesClassesAndProbabilitiesSumToOne) {
  auto m = test::build<GaussianNbLearner>({}, cls(3, 3));
  EXPECT_GT(accuracy(*m, gaussian_stream(3000, 1), gaussian_stream(1000, 2)), 0.85);
  std::vector<double> proba(3);
  m->predict_proba_one(gaussian_stream(1, 3)[0].first, proba);
  EXPECT_NEAR(proba[0] + proba[1] + proba[2], 1.0, 1e-12);
}

TEST(GaussianNb, AClassNeverSeenHasProbabilityZero) {
  auto m = test::build<GaussianNbLearner>({}, cls(3, 3));
  for (const auto& [x, y] : gaussian_stream(300, 4))
    if (y != 2.0) m->learn_one(x, y);
  std::vector<double> proba(3);
  m->predict_proba_one(std::vector<double>{4.0, -2.0, 0.0}, proba);
  EXPECT_EQ(proba[2], 0.0);
  auto fresh = test::build<GaussianNbLearner>({}, cls(3, 3));
  fresh->predict_proba_one(std::vector<double>{4.0, -2.0, 0.0}, proba);
  EXPECT_EQ(proba[0], 1.0 / 3.0);
  EXPECT_EQ(fresh->predict_one(std::vector<double>{1, 2, 3}), 0.0);
}

TEST(GaussianNb, AMissingFeatureDropsOutOfTheLikelihood) {
  auto full = test::build<GaussianNbLearner>({}, cls(3, 3));
  auto two = test::build<GaussianNbLearner>({}, cls(3, 2));
  for (const auto& [x, y] : gaussian_stream(500, 5)) {
    full->learn_one(std::vector<double>{x[0], x[1], std::nan("")}, y);
    two->learn_one(std::vector<double>{x[0], x[1]}, y);
  }
  std::vector<double> a(3), b(3);
  full->joint_log_likelihood(std::vector<double>{1.0, -1.0, std::numeric_limits<double>::infinity()}, a);
  two->joint_log_likelihood(std::vector<double>{1.0, -1.0}, b);
  for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(a[c], b[c], 1e-9);
  EXPECT_EQ(full->n_skipped(), 0u);
}

TEST(MultinomialNb, LikelihoodIsTheSmoothedMultinomial) {
  auto m = test::build<MultinomialNbLearner>({{"alpha", "0.5"}}, cls(2, 3));
  m->learn_one(std::vector<double>{2, 0, 1}, 0.0);
  m->learn_one(std::vector<double>{0, 3, 1}, 1.0);
  m->learn_one(std::vector<double>{1, 1, 0}, 1.0);
  std::vector<double> jll(2);
  m->joint_log_likelihood(std::vector<double>{1, 2, 0}, jll);
  // Class 0: counts (2, 0, 1), total 3; class 1: (1, 4, 1), total 6; d = 3.
  EXPECT_NEAR(jll[0], std::log(1.0 / 3.0) + 1 * std::log(2.5 / 4.5) + 2 * std::log(0.5 / 4.5), 1e-12);
  EXPECT_NEAR(jll[1], std::log(2.0 / 3.0) + 1 * std::log(1.5 / 7.5) + 2 * std::log(4.5 / 7.5), 1e-12);
}

TEST(MultinomialNb, NegativeValuesReadAsZeroAndCountsSeparate) {
  auto a = test::build<MultinomialNbLearner>({}, cls(3, 4));
  auto b = test::build<MultinomialNbLearner>({}, cls(3, 4));
  for (const auto& [x, y] : count_stream(500, 6)) {
    a->learn_one(x, y);
    auto neg = x;
    neg[3] = neg[3] == 0.0 ? -7.0 : neg[3];
    b->learn_one(neg, y);
  }
  std::vector<double> pa(3), pb(3);
  a->predict_proba_one(std::vector<double>{0, 4, 1, 0}, pa);
  b->predict_proba_one(std::vector<double>{0, 4, 1, -3}, pb);
  for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(pa[c], pb[c]);
  EXPECT_GT(accuracy(*a, count_stream(3000, 7), count_stream(1000, 8)), 0.7);
}

TEST(BernoulliNb, LikelihoodCountsPresenceAndAbsence) {
  auto m = test::build<BernoulliNbLearner>({{"binarize", "0.5"}}, cls(2, 2));
  m->learn_one(std::vector<double>{1.0, 0.0}, 0.0);
  m->learn_one(std::vector<double>{0.7, 0.9}, 0.0);
  m->learn_one(std::vector<double>{0.2, 0.6}, 1.0);
  std::vector<double> jll(2);
  m->joint_log_likelihood(std::vector<double>{0.9, 0.1}, jll);
  // Class 0: present (2, 1) of 2; class 1: present (0, 1) of 1; alpha 1.
  EXPECT_NEAR(jll[0], std::log(2.0 / 3.0) + std::log(3.0 / 4.0) + std::log(1.0 - 2.0 / 4.0), 1e-12);
  EXPECT_NEAR(jll[1], std::log(1.0 / 3.0) + std::log(1.0 / 3.0) + std::log(1.0 - 2.0 / 3.0), 1e-12);
}

TEST(BernoulliNb, LearnsPresencePatterns) {
  auto m = test::build<BernoulliNbLearner>({{"binarize", "1"}}, cls(3, 4));
  EXPECT_GT(accuracy(*m, count_stream(3000, 9), count_stream(1000, 10)), 0.6);
}

TEST(NaiveBayes, WeightTwoIsTwoCopiesAndCheckpointsResume) {
  auto s = gaussian_stream(600, 11);
  for (std::size_t i = 0; i < s.size(); i += 9) s[i].first[1] = std::nan("");
  for (auto& [x, y] : s) x[2] = std::fabs(x[2]);
  const Stream first(s.begin(), s.begin() + 300), second(s.begin() + 300, s.end());
  auto g = test::build<GaussianNbLearner>({}, cls(3, 0));
  test::expect_resume_identical(*g, first, second);
  auto mn = test::build<MultinomialNbLearner>({}, cls(3, 0));
  test::expect_resume_identical(*mn, first, second);
  auto bn = test::build<BernoulliNbLearner>({}, cls(3, 0));
  test::expect_resume_identical(*bn, first, second);

  auto a = test::build<MultinomialNbLearner>({}, cls(3, 4));
  auto b = test::build<MultinomialNbLearner>({}, cls(3, 4));
  for (const auto& [x, y] : count_stream(300, 12)) {
    a->learn_one(x, y, 2.0);
    b->learn_one(x, y);
    b->learn_one(x, y);
  }
  std::vector<double> pa(3), pb(3);
  for (const auto& [x, y] : count_stream(20, 13)) {
    a->predict_proba_one(x, pa);
    b->predict_proba_one(x, pb);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(pa[c], pb[c], 1e-12);
  }
  a->reset();
  EXPECT_EQ(a->n_samples_seen(), 0u);
  a->predict_proba_one(std::vector<double>{1, 0, 0, 0}, pa);
  EXPECT_EQ(pa[0], 1.0 / 3.0);
}

}  // namespace
}  // namespace irithyll
