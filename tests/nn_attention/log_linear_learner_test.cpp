#include "irithyll/nn/attention/log_linear_learner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/attention/log_linear_core.hpp"

namespace irithyll::nn {
namespace {

TEST(LogLinearCore, FitsRegressionTrainsLayerAndCheckpoints) {
  double rel_total = 0.0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    LogLinearLearnerConfig c;
    LogLinearCore m(c, LearnerContext{Task::kRegression, 0, 0, seed});
    Xorshift64 rng(seed + 50);
    std::vector<double> x(3);
    double se = 0.0, n = 0.0;
    for (int t = 0; t < 3000; ++t) {
      for (double& e : x) e = rng.normal();
      const double y = 2.0 * x[0] - x[1] + 0.1 * rng.normal();
      const double p = m.predict_one(x);
      EXPECT_EQ(p, m.predict_one(x));  // read-only
      if (t >= 2000) {
        se += (p - y) * (p - y);
        n += 1.0;
      }
      m.learn_one(x, y);
    }
    rel_total += se / n / 5.0 / 3.0;  // Var(y) = 5.01
    EXPECT_EQ(m.layer().train_steps(), 3000u);
    ByteWriter w;
    m.encode(w);
    LogLinearCore d;
    ByteReader r(w.data());
    ASSERT_TRUE(d.decode(r).is_ok());
    for (int t = 0; t < 20; ++t) {
      for (double& e : x) e = rng.normal();
      ASSERT_EQ(m.predict_one(x), d.predict_one(x));
      m.learn_one(x, x[0]);
      d.learn_one(x, x[0]);
    }
    for (std::size_t cut = 0; cut < w.data().size(); cut += 17) {
      LogLinearCore e;
      ByteReader tr(std::span<const std::uint8_t>(w.data()).first(cut));
      EXPECT_FALSE(e.decode(tr).is_ok());
    }
  }
  EXPECT_LT(rel_total, 0.05);
}

// The paper's forms train inside the learner too, and checkpoint with their form.
TEST(LogLinearCore, PaperFormsFitAndCheckpoint) {
  for (LogLinearForm form : {LogLinearForm::kMamba2, LogLinearForm::kGatedDeltaNet}) {
    LogLinearLearnerConfig c;
    c.layer.form = form;
    c.layer.max_levels = 8;
    LogLinearCore m(c, {});
    Xorshift64 rng(77);
    std::vector<double> x(3);
    double se = 0.0, n = 0.0;
    for (int t = 0; t < 2000; ++t) {
      for (double& e : x) e = rng.normal();
      const double y = 2.0 * x[0] - x[1] + 0.1 * rng.normal();
      const double p = m.predict_one(x);
      if (t >= 1000) {
        se += (p - y) * (p - y);
        n += 1.0;
      }
      m.learn_one(x, y);
    }
    EXPECT_LT(se / n / 5.0, 0.05) << static_cast<int>(form);
    EXPECT_EQ(m.layer().train_steps(), 2000u);
    ByteWriter w;
    m.encode(w);
    LogLinearCore d;
    ByteReader r(w.data());
    ASSERT_TRUE(d.decode(r).is_ok());
    EXPECT_EQ(d.layer().config().form, form);
    for (int t = 0; t < 20; ++t) {
      for (double& e : x) e = rng.normal();
      ASSERT_EQ(m.predict_one(x), d.predict_one(x));
      m.learn_one(x, x[0]);
      d.learn_one(x, x[0]);
    }
  }
}

TEST(LogLinearCore, ClassifiesWithBadInputs) {
  LogLinearLearnerConfig c;
  LearnerContext context{Task::kClassification, 2};
  LogLinearCore m(c, context);
  Xorshift64 rng(3);
  std::vector<double> x(2), proba(2);
  int correct = 0, n = 0;
  for (int t = 0; t < 2000; ++t) {
    const int cls = static_cast<int>(rng.below(2));
    x[0] = (cls ? 1.0 : -1.0) + 0.4 * rng.normal();
    x[1] = t % 53 == 0 ? INFINITY : rng.normal();
    if (t >= 1000) {
      correct += m.predict_one(x) == cls;
      ++n;
    }
    m.predict_proba_one(x, proba);
    ASSERT_NEAR(proba[0] + proba[1], 1.0, 1e-9);
    m.learn_one(x, t % 71 == 0 ? std::nan("") : cls);
  }
  EXPECT_GT(static_cast<double>(correct) / n, 0.9);
  m.reset();
  EXPECT_EQ(m.n_samples_seen(), 0u);
  EXPECT_EQ(m.layer().train_steps(), 0u);
  context.n_classes = 1;  // invalid: the checked factory reports it
  EXPECT_EQ(LogLinearLearner::make(c, context).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace irithyll::nn
