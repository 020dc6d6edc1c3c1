// SGTLearner ("sgt"): the leaf value is the lambda-shrunk Newton step from
// init_pred (for squared loss, the shrunk mean residual, exactly); binary and
// multiclass classification learn a threshold concept; infinite features are
// missing; checkpoints refuse truncated records.
#include "irithyll/tree/sgt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "streams.hpp"

namespace irithyll {
namespace {

std::unique_ptr<SGTLearner> make(Task task, std::size_t classes, SGTConfig c = {}) {
  auto m = SGTLearner::make(c, LearnerContext{task, classes, 0, 9});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return std::move(m).value();
}

TEST(SGT, RegressionLeafIsTheShrunkMeanResidual) {
  SGTConfig c;
  c.init_pred = 2.0;
  c.lambda_value = 0.5;
  auto m = make(Task::kRegression, 0, c);
  // One constant feature: nothing to split on, so the root is the only leaf.
  const std::vector<double> x = {1.0};
  double sum = 0.0;
  for (int i = 0; i < 500; ++i) {
    const double y = static_cast<double>(i % 7);
    m->learn_one(x, y);
    sum += y - c.init_pred;
    ASSERT_NEAR(m->predict_one(x), c.init_pred + sum / (i + 1 + c.lambda_value), 1e-9) << i;
  }
  EXPECT_EQ(m->n_nodes(0), 1u);
}

// Prequential accuracy on x0 + x1 (4 uniform features, no noise): 2 classes
// split at 1, 3 classes at 2/3 and 4/3.
double accuracy(SGTLearner& m, std::size_t classes, int n) {
  test::LineStream s;
  s.noise = 0.0;
  int right = 0;
  for (int i = 0; i < n; ++i) {
    s.next();  // draws x; the label is the concept's below
    const double t = s.x[0] + s.x[1];
    const double y = classes == 2 ? (t > 1.0 ? 1.0 : 0.0) : std::min(std::floor(t / 2.0 * 3.0), 2.0);
    right += m.predict_one(s.x) == y;
    m.learn_one(s.x, y);
  }
  return static_cast<double>(right) / n;
}

TEST(SGT, ClassifiesBinaryAndMulticlass) {
  SGTConfig c;
  c.grace_period = 50;
  auto binary = make(Task::kClassification, 2, c);
  EXPECT_GT(accuracy(*binary, 2, 8000), 0.85);
  EXPECT_EQ(binary->n_trees(), 1u);
  auto three = make(Task::kClassification, 3, c);
  EXPECT_GT(accuracy(*three, 3, 8000), 0.75);
  EXPECT_EQ(three->n_trees(), 3u);
  std::vector<double> p(3);
  const std::vector<double> x = {0.9, 0.9, 0.5, 0.5};
  three->predict_proba_one(x, p);
  EXPECT_NEAR(p[0] + p[1] + p[2], 1.0, 1e-12);
  EXPECT_GT(p[2], p[0]);
}

TEST(SGT, InfiniteFeaturesAreMissingAndRecordsAreChecked) {
  SGTConfig c;
  c.grace_period = 30;
  auto m = make(Task::kRegression, 0, c);
  test::FriedmanStream s;
  for (int i = 0; i < 600; ++i) {
    const double y = s.next();
    if (i % 5 == 0) s.x[i % 10] = (i % 2 == 0 ? 1.0 : -1.0) * std::numeric_limits<double>::infinity();
    m->learn_one(s.x, y);
  }
  EXPECT_EQ(m->n_skipped(), 0u);
  s.x[0] = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isfinite(m->predict_one(s.x)));
  ByteWriter w;
  m->encode(w);
  SGTLearner back;
  ByteReader r(w.data());
  ASSERT_TRUE(back.decode(r).is_ok());
  EXPECT_EQ(back.predict_one(s.x), m->predict_one(s.x));
  for (std::size_t cut = 0; cut < w.data().size(); cut += 53) {
    SGTLearner t;
    ByteReader rc(std::span<const std::uint8_t>(w.data().data(), cut));
    EXPECT_FALSE(t.decode(rc).is_ok()) << cut;
  }
  // A settings value out of range is refused by make().
  SGTConfig bad;
  bad.max_depth = 31;
  EXPECT_FALSE(SGTLearner::make(bad, LearnerContext{Task::kRegression, 0, 0, 1}).is_ok());
}

}  // namespace
}  // namespace irithyll
