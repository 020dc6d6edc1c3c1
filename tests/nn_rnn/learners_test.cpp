#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/rnn/lstm_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"

namespace irithyll::nn {
namespace {

// 0 slstm, 1 mgrade, 2 lstm.
constexpr int kRecurrentKinds = 3;

std::unique_ptr<Learner> make(int kind, Task task, std::size_t n_classes, std::size_t nf, std::uint64_t seed) {
  const LearnerContext context{task, n_classes, nf, seed};
  if (kind == 0) {
    SlstmLearnerConfig c;
    c.d_hidden = 16;
    return std::make_unique<SlstmLearner>(c, context);
  }
  if (kind == 2) {
    LstmLearnerConfig c;
    c.d_hidden = 16;
    return std::make_unique<LstmLearner>(c, context);
  }
  MgradeLearnerConfig c;
  c.d_hidden = 16;
  return std::make_unique<MgradeLearner>(c, context);
}

std::unique_ptr<Learner> blank(int kind) {
  if (kind == 0) return std::make_unique<SlstmLearner>();
  if (kind == 2) return std::make_unique<LstmLearner>();
  return std::make_unique<MgradeLearner>();
}

TEST(RecurrentLearners, LearnOneStepSineOverSeeds) {
  // Best AR(1) (a model with no memory) gets ~0.21 here; budget 0.08 per seed.
  for (int kind = 0; kind < kRecurrentKinds; ++kind)
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      auto m = make(kind, Task::kRegression, 0, 1, seed);
      Xorshift64 rng(seed);
      const double phase = rng.uniform(0.0, 6.28);
      double se = 0.0;
      int n = 0;
      for (int t = 0; t < 2000; ++t) {
        const double x[1] = {std::sin(0.3 * t + phase) + 0.05 * rng.normal()};
        const double y = std::sin(0.3 * (t + 1) + phase);
        const double p = m->predict_one(x);
        if (t >= 1000) se += (p - y) * (p - y), ++n;
        m->learn_one(x, y);
      }
      EXPECT_LT(std::sqrt(se / n), 0.08) << m->name() << " seed " << seed;
    }
}

TEST(RecurrentLearners, ClassificationProbabilities) {
  for (int kind = 0; kind < kRecurrentKinds; ++kind) {
    auto m = make(kind, Task::kClassification, 3, 2, 1);
    Xorshift64 rng(5);
    int correct = 0;
    std::vector<double> p(3);
    for (int t = 0; t < 3000; ++t) {
      const int cls = static_cast<int>(rng.below(3));
      const double x[2] = {cls == 1 ? 1.0 : 0.0, cls == 2 ? 1.0 : 0.0};
      m->predict_proba_one(x, p);
      double s = 0.0;
      for (double v : p) s += v;
      ASSERT_NEAR(s, 1.0, 1e-12);
      if (t > 2000) correct += m->predict_one(x) == cls;
      m->learn_one(x, cls);
    }
    EXPECT_GT(correct, 950) << m->name();
  }
}

TEST(RecurrentLearners, BadInputAndRoundTrip) {
  for (int kind = 0; kind < kRecurrentKinds; ++kind) {
    auto a = make(kind, Task::kRegression, 0, 2, 3);
    Xorshift64 rng(8);
    const double nan = std::nan("");
    for (int t = 0; t < 60; ++t) {
      const double x[2] = {rng.normal(), rng.normal()};
      a->learn_one(x, x[0] + x[1]);
      const double bad[2] = {nan, -INFINITY};
      a->learn_one(bad, 1.0);
      a->learn_one(x, nan);
      const double wrong[3] = {1, 2, 3};
      a->learn_one(wrong, 1.0);
      ASSERT_TRUE(std::isfinite(a->predict_one(x)));
    }
    ByteWriter w;
    a->encode(w);
    auto b = blank(kind);
    ByteReader r(w.data());
    ASSERT_TRUE(b->decode(r).is_ok());
    for (int t = 0; t < 30; ++t) {
      const double x[2] = {rng.normal(), rng.normal()};
      ASSERT_EQ(a->predict_one(x), b->predict_one(x));
      a->learn_one(x, x[1]);
      b->learn_one(x, x[1]);
    }
    for (std::size_t cut = 0; cut < w.size(); cut += 17) {
      ByteReader rt(std::span(w.data()).first(cut));
      auto bad = blank(kind);
      EXPECT_FALSE(bad->decode(rt).is_ok());
    }
    Xorshift64 frng(2);
    for (int i = 0; i < 200; ++i) {
      auto mutated = w.data();
      mutated[frng.below(mutated.size())] ^= static_cast<std::uint8_t>(1u << frng.below(8));
      ByteReader rm(mutated);
      auto m = blank(kind);
      if (m->decode(rm).is_ok()) {
        const double x[2] = {0.1, 0.2};
        (void)m->predict_one(x);
      }
    }
  }
}

TEST(RecurrentLearners, PredictIsReadOnlyAndResetDeterministic) {
  for (int kind = 0; kind < kRecurrentKinds; ++kind) {
    auto a = make(kind, Task::kRegression, 0, 0, 4), b = make(kind, Task::kRegression, 0, 0, 4);
    Xorshift64 rng(1);
    for (int t = 0; t < 100; ++t) {
      const double x[2] = {rng.normal(), rng.normal()};
      (void)a->predict_one(x);
      a->learn_one(x, x[0]);
      b->learn_one(x, x[0]);
    }
    EXPECT_EQ(a->n_features(), 2u);
    const double x[2] = {0.5, 0.5};
    EXPECT_EQ(a->predict_one(x), b->predict_one(x));
    a->reset();
    b->reset();
    a->learn_one(x, 1.0);
    b->learn_one(x, 1.0);
    EXPECT_EQ(a->predict_one(x), b->predict_one(x));
    EXPECT_EQ(a->n_samples_seen(), 1u);
  }
}

}  // namespace
}  // namespace irithyll::nn
