// rls and krls: RLS with forgetting 1 is least squares (checked against the
// normal equations), weights are repetitions, forgetting tracks a change;
// KRLS fits a nonlinear function, keeps its budget, and its ALD threshold
// controls the dictionary. Both resume bit-identically from a checkpoint.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/linear/krls.hpp"
#include "irithyll/linear/rls_learner.hpp"
#include "linear_test_support.hpp"

namespace irithyll {
namespace {

using Stream = std::vector<std::pair<std::vector<double>, double>>;

Stream linear_stream(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  Stream out;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> x = {rng.normal(), rng.uniform(), rng.normal(3.0, 2.0)};
    out.emplace_back(x, 1.5 + x[0] - 2.0 * x[1] + 0.3 * x[2] + 0.2 * rng.normal());
  }
  return out;
}

// Solves A b = r by Gaussian elimination with partial pivoting (A is small, SPD).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> r) {
  const std::size_t n = r.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t i = c + 1; i < n; ++i)
      if (std::fabs(a[i][c]) > std::fabs(a[p][c])) p = i;
    std::swap(a[c], a[p]);
    std::swap(r[c], r[p]);
    for (std::size_t i = c + 1; i < n; ++i) {
      const double f = a[i][c] / a[c][c];
      for (std::size_t j = c; j < n; ++j) a[i][j] -= f * a[c][j];
      r[i] -= f * r[c];
    }
  }
  std::vector<double> b(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = r[i];
    for (std::size_t j = i + 1; j < n; ++j) s -= a[i][j] * b[j];
    b[i] = s / a[i][i];
  }
  return b;
}

TEST(Rls, ForgettingOneIsExactRidgeLeastSquares) {
  const double delta = 1e4;
  auto m = test::build<RlsLearner>(
      {{"forgetting-factor", "1"}, {"delta", "10000"}, {"standardize", "off"}}, {Task::kRegression, 0, 3, 1});
  const auto s = linear_stream(500, 1);
  // Normal equations of ridge regression with penalty 1/delta on (x, 1).
  std::vector<std::vector<double>> a(4, std::vector<double>(4, 0.0));
  std::vector<double> r(4, 0.0);
  for (std::size_t i = 0; i < 4; ++i) a[i][i] = 1.0 / delta;
  for (const auto& [x, y] : s) {
    m->learn_one(x, y);
    const double u[4] = {x[0], x[1], x[2], 1.0};
    for (std::size_t i = 0; i < 4; ++i) {
      r[i] += u[i] * y;
      for (std::size_t j = 0; j < 4; ++j) a[i][j] += u[i] * u[j];
    }
  }
  const auto b = solve(a, r);
  const auto w = m->coefficients();
  ASSERT_EQ(w.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(w[i], b[i], 1e-8 * (1.0 + std::fabs(b[i]))) << i;
}

TEST(Rls, WeightTwoIsTwoCopiesWithoutForgetting) {
  // Unstandardised: the running statistics would see the copies one by one.
  const ModelSettings s = {{"forgetting-factor", "1"}, {"standardize", "off"}};
  auto a = test::build<RlsLearner>(s, {Task::kRegression, 0, 3, 1});
  auto b = test::build<RlsLearner>(s, {Task::kRegression, 0, 3, 1});
  for (const auto& [x, y] : linear_stream(300, 2)) {
    a->learn_one(x, y, 2.0);
    b->learn_one(x, y);
    b->learn_one(x, y);
  }
  for (const auto& [x, y] : linear_stream(20, 3)) EXPECT_NEAR(a->predict_one(x), b->predict_one(x), 1e-9);
}

TEST(Rls, ForgettingTracksAChangedConcept) {
  auto m = test::build<RlsLearner>({{"forgetting-factor", "0.99"}}, {Task::kRegression, 0, 3, 1});
  for (const auto& [x, y] : linear_stream(2000, 4)) m->learn_one(x, y);
  for (const auto& [x, y] : linear_stream(2000, 5)) m->learn_one(x, -y);  // the sign flips
  double se = 0;
  for (const auto& [x, y] : linear_stream(200, 6)) se += std::pow(m->predict_one(x) + y, 2);
  EXPECT_LT(se / 200.0, 0.1);  // noise variance 0.04
}

TEST(Rls, MissingFeaturesAndCheckpoints) {
  auto s = linear_stream(600, 7);
  for (std::size_t i = 0; i < s.size(); i += 7) s[i].first[0] = std::numeric_limits<double>::infinity();
  auto m = test::build<RlsLearner>({}, {Task::kRegression, 0, 0, 1});
  test::expect_resume_identical(*m, Stream(s.begin(), s.begin() + 300), Stream(s.begin() + 300, s.end()));
  EXPECT_EQ(m->n_skipped(), 0u);
  EXPECT_TRUE(std::isfinite(m->predict_one(s[0].first)));
}

Stream sine_stream(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  Stream out;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = rng.uniform(-3.0, 3.0);
    out.push_back({{x}, std::sin(x) + 0.05 * rng.normal()});
  }
  return out;
}

TEST(Krls, FitsASineWithinTheBudget) {
  auto m = test::build<KrlsLearner>({{"budget", "30"}, {"gamma", "1"}, {"standardize", "off"}},
                                    {Task::kRegression, 0, 1, 1});
  for (const auto& [x, y] : sine_stream(3000, 1)) m->learn_one(x, y);
  EXPECT_LE(m->dictionary_size(), 30u);
  EXPECT_GT(m->dictionary_size(), 3u);
  double se = 0;
  for (const auto& [x, y] : sine_stream(500, 2)) se += std::pow(m->predict_one(x) - std::sin(x[0]), 2);
  EXPECT_LT(se / 500.0, 0.005);
}

TEST(Krls, TheBudgetIsNeverExceededAndTheAldThresholdControlsGrowth) {
  auto tight = test::build<KrlsLearner>({{"budget", "5"}, {"ald-threshold", "1e-06"}}, {Task::kRegression, 0, 3, 1});
  for (const auto& [x, y] : linear_stream(2000, 3)) {
    tight->learn_one(x, y);
    ASSERT_LE(tight->dictionary_size(), 5u);
  }
  EXPECT_EQ(tight->dictionary_size(), 5u);
  auto loose = test::build<KrlsLearner>({{"ald-threshold", "0.5"}}, {Task::kRegression, 0, 3, 1});
  auto fine = test::build<KrlsLearner>({{"ald-threshold", "0.01"}}, {Task::kRegression, 0, 3, 1});
  for (const auto& [x, y] : linear_stream(2000, 3)) loose->learn_one(x, y), fine->learn_one(x, y);
  EXPECT_LT(loose->dictionary_size(), fine->dictionary_size());
}

// Far from every dictionary point the RBF expansion is 0: the model answers
// the running mean of the target there, not 0. A level of 50 under the sine,
// then inputs the standardiser maps well outside the trained range.
TEST(Krls, FarFromTheDictionaryItPredictsTheTargetMean) {
  auto m = test::build<KrlsLearner>({{"budget", "30"}}, {Task::kRegression, 0, 1, 1});
  double mean = 0.0;
  const auto s = sine_stream(3000, 3);
  for (const auto& [x, y] : s) m->learn_one(x, 50.0 + y), mean += (50.0 + y) / static_cast<double>(s.size());
  EXPECT_NEAR(m->predict_one(std::vector<double>{1.0}), 50.0 + std::sin(1.0), 0.1);
  EXPECT_NEAR(m->predict_one(std::vector<double>{400.0}), mean, 1e-9);
}

TEST(Krls, MissingFeaturesAndCheckpoints) {
  auto s = linear_stream(600, 8);
  for (std::size_t i = 0; i < s.size(); i += 7) s[i].first[1] = std::nan("");
  auto m = test::build<KrlsLearner>({{"budget", "40"}, {"forgetting-factor", "0.99"}}, {Task::kRegression, 0, 0, 1});
  test::expect_resume_identical(*m, Stream(s.begin(), s.begin() + 300), Stream(s.begin() + 300, s.end()));
  EXPECT_EQ(m->n_skipped(), 0u);
  for (const auto& [x, y] : s) EXPECT_TRUE(std::isfinite(m->predict_one(x)));
}

}  // namespace
}  // namespace irithyll
