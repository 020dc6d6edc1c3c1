// Passive-aggressive, perceptron and ALMA: the defining properties of each
// update (PA leaves zero loss on the sample just learned, PA-I caps the step
// at C, ALMA keeps |w| <= 1), learning on separable data, checkpoints.
#include "irithyll/linear/margin_linear.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "linear_test_support.hpp"

namespace irithyll {
namespace {

using Stream = std::vector<std::pair<std::vector<double>, double>>;

// Linearly separable with a margin: class 1 iff x0 + 2 x1 - x2 > 0.3.
Stream separable(std::size_t n, std::uint64_t seed, std::size_t k = 2) {
  Xorshift64 rng(seed);
  Stream out;
  while (out.size() < n) {
    std::vector<double> x = {rng.normal(), rng.normal(), rng.normal()};
    const double s = x[0] + 2.0 * x[1] - x[2] - 0.3;
    if (std::fabs(s) < 0.2) continue;
    double y = s > 0 ? 1.0 : 0.0;
    if (k == 3) y = s > 1.5 ? 2.0 : y;
    if (k == 3 && std::fabs(s - 1.5) < 0.2) continue;
    out.emplace_back(x, y);
  }
  return out;
}

template <class T>
double accuracy(T& m, const Stream& train, const Stream& test) {
  for (const auto& [x, y] : train) m.learn_one(x, y);
  double hits = 0;
  for (const auto& [x, y] : test) hits += m.predict_one(x) == y;
  return hits / static_cast<double>(test.size());
}

LearnerContext cls(std::size_t k) { return {Task::kClassification, k, 3, 1}; }
const LearnerContext kReg{Task::kRegression, 0, 3, 1};

double dot(std::span<const double> w, const std::vector<double>& x) {
  if (w.empty()) return 0.0;  // nothing learned yet: all zero
  double s = w[x.size()];
  for (std::size_t j = 0; j < x.size(); ++j) s += w[j] * x[j];
  return s;
}

TEST(PassiveAggressive, PaLeavesZeroHingeLossOnTheSampleJustLearned) {
  auto m = test::build<PassiveAggressiveLearner>({{"mode", "pa"}, {"intercept", "off"}, {"standardize", "off"}},
                                                 cls(2));
  for (const auto& [x, y] : separable(300, 1)) {
    const double label = y > 0.5 ? 1.0 : -1.0;
    const double before = label * dot(m->coefficients(0), x);
    m->learn_one(x, y);
    const double after = label * dot(m->coefficients(0), x);
    if (before < 1.0) {
      EXPECT_NEAR(after, 1.0, 1e-9);  // exactly on the margin: hinge loss 0
    } else {
      EXPECT_EQ(after, before);       // passive: no loss, no change
    }
  }
}

TEST(PassiveAggressive, PaOnRegressionLandsOnTheEpsilonTube) {
  auto m = test::build<PassiveAggressiveLearner>(
      {{"mode", "pa"}, {"intercept", "off"}, {"standardize", "off"}, {"epsilon", "0.1"}}, kReg);
  Xorshift64 rng(2);
  for (int i = 0; i < 300; ++i) {
    std::vector<double> x = {rng.normal(), rng.normal(), rng.normal()};
    const double y = 2.0 * x[0] - x[1] + 0.5 * rng.normal();
    const double before = std::fabs(y - dot(m->coefficients(0), x));
    m->learn_one(x, y);
    const double after = std::fabs(y - dot(m->coefficients(0), x));
    if (before > 0.1) {
      EXPECT_NEAR(after, 0.1, 1e-9);
    }
  }
}

TEST(PassiveAggressive, PaOneCapsTheStepAtC) {
  auto m = test::build<PassiveAggressiveLearner>(
      {{"mode", "pa-i"}, {"c", "0.01"}, {"intercept", "off"}, {"standardize", "off"}}, cls(2));
  std::vector<double> x = {1.0, 2.0, 2.0};  // |x|^2 = 9
  m->learn_one(x, 1.0);                     // loss 1: unbounded PA would step 1/9
  const auto w = m->coefficients(0);
  EXPECT_NEAR(w[0], 0.01, 1e-15);
  EXPECT_NEAR(w[1], 0.02, 1e-15);
}

TEST(PassiveAggressive, EveryModeLearnsSeparableData) {
  for (const char* mode : {"pa", "pa-i", "pa-ii"}) {
    auto two = test::build<PassiveAggressiveLearner>({{"mode", mode}}, cls(2));
    EXPECT_GT(accuracy(*two, separable(5000, 3), separable(1000, 4)), 0.95) << mode;
    auto three = test::build<PassiveAggressiveLearner>({{"mode", mode}}, cls(3));
    EXPECT_GT(accuracy(*three, separable(5000, 3, 3), separable(1000, 4, 3)), 0.8) << mode;
  }
}

TEST(Perceptron, StopsMakingMistakesOnSeparableData) {
  auto m = test::build<PerceptronLearner>({}, cls(2));
  const auto s = separable(2000, 5);
  for (int epoch = 0; epoch < 20; ++epoch)
    for (const auto& [x, y] : s) m->learn_one(x, y);
  double mistakes = 0;
  for (const auto& [x, y] : s) mistakes += m->predict_one(x) != y;
  EXPECT_LE(mistakes, 10);
}

TEST(Alma, LearnsSeparableDataAndKeepsTheWeightsInTheUnitBall) {
  auto m = test::build<AlmaLearner>({}, cls(2));
  EXPECT_GT(accuracy(*m, separable(5000, 6), separable(1000, 7)), 0.95);
  double norm = 0;
  for (double v : m->coefficients(0)) norm += v * v;
  EXPECT_LE(norm, 1.0 + 1e-12);
  auto p3 = test::build<AlmaLearner>({{"p", "3"}}, cls(3));
  EXPECT_GT(accuracy(*p3, separable(5000, 6, 3), separable(1000, 7, 3)), 0.7);
}

TEST(MarginLinear, MissingFeaturesAreToleratedAndCheckpointsResume) {
  auto s = separable(600, 8, 3);
  for (std::size_t i = 0; i < s.size(); i += 5) s[i].first[2] = std::nan("");
  const Stream first(s.begin(), s.begin() + 300), second(s.begin() + 300, s.end());
  auto pa = test::build<PassiveAggressiveLearner>({}, cls(3));
  test::expect_resume_identical(*pa, first, second);
  EXPECT_EQ(pa->n_skipped(), 0u);
  auto par = test::build<PassiveAggressiveLearner>({{"mode", "pa-ii"}}, kReg);
  test::expect_resume_identical(*par, first, second);
  auto pe = test::build<PerceptronLearner>({}, cls(3));
  test::expect_resume_identical(*pe, first, second);
  auto al = test::build<AlmaLearner>({{"p", "2.5"}}, cls(3));
  test::expect_resume_identical(*al, first, second);
  std::vector<double> proba(3);
  al->predict_proba_one(s[0].first, proba);
  for (double p : proba) EXPECT_TRUE(std::isfinite(p));
}

}  // namespace
}  // namespace irithyll
