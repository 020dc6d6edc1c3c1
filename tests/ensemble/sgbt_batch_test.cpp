// predict_batch (tree-major for one committee, per row otherwise) returns
// exactly predict_one's values; predict_with_confidence grows with evidence.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "support/sgbt_direct.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kD = 4;

void train(SGBTLearner& m, std::size_t classes, int n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  double x[kD];
  for (int i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    const double s = x[0] + 0.5 * x[1] - x[2] + 0.1 * rng.normal();
    const double y = classes == 0 ? 3.0 * s : classes == 2 ? (s > 0.25 ? 1.0 : 0.0) : std::floor(std::clamp(s + 0.5, 0.0, 1.999) * 1.5);
    m.learn_one(x, y);
  }
}

void expect_batch_equals_rows(const SGBTLearner& m, std::vector<double> rows) {
  const std::size_t n = rows.size() / kD;
  std::vector<double> out(n, -7.0);
  m.predict_batch(rows, kD, out);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(out[i]),
              std::bit_cast<std::uint64_t>(m.predict_one(std::span<const double>(rows).subspan(i * kD, kD))))
        << "row " << i;
}

std::vector<double> random_rows(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<double> rows(n * kD);
  for (double& v : rows) v = rng.uniform(-0.2, 1.2);
  return rows;
}

TEST(SGBTBatch, EqualsPredictOneForEveryTask) {
  for (std::size_t classes : {0u, 2u, 3u}) {
    SGBTConfig c;
    c.n_steps = 20;
    SGBTLearner m = testing::sgbt_learner(c, classes == 0 ? Task::kRegression : Task::kClassification, classes);
    expect_batch_equals_rows(m, random_rows(10, 1));  // untrained
    train(m, classes, 5000, 2);
    expect_batch_equals_rows(m, random_rows(257, 3));
  }
}

TEST(SGBTBatch, NonFiniteRowsTakeTheSanitizedPath) {
  SGBTConfig c;
  c.n_steps = 20;
  SGBTLearner m = testing::sgbt_learner(c, Task::kRegression);
  train(m, 0, 5000, 4);
  std::vector<double> rows = random_rows(64, 5);
  rows[5] = std::numeric_limits<double>::infinity();
  rows[17] = std::numeric_limits<double>::quiet_NaN();
  expect_batch_equals_rows(m, rows);
}

TEST(SGBTConfidence, ZeroUntrainedThenOneOverTheLeafWeightsSpread) {
  SGBTConfig c;
  c.n_steps = 20;
  c.tree.grace_period = 1000000;  // every tree stays one leaf: H = samples trained
  c.drift.kind = DriftKind::kNone;
  SGBTLearner m = testing::sgbt_learner(c, Task::kRegression);
  const double x[kD] = {0.5, 0.5, 0.5, 0.5};
  EXPECT_EQ(m.predict_with_confidence(x).second, 0.0);
  for (int n : {500, 5500}) {
    train(m, 0, n == 500 ? 500 : 5000, static_cast<std::uint64_t>(n));
    const auto [p, conf] = m.predict_with_confidence(x);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(p), std::bit_cast<std::uint64_t>(m.predict_one(x)));
    // Squared loss: h = 1 per sample, so each leaf has H = n.
    const double expected = 1.0 / std::sqrt(20 * 0.1 * 0.1 / (n + c.tree.lambda));
    EXPECT_NEAR(conf, expected, 1e-9 * expected) << n;
  }
}

}  // namespace
}  // namespace irithyll
