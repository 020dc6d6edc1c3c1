#include "irithyll/nn/attention/attention_learner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "nn/attention/multi_head.hpp"

namespace irithyll::nn {
namespace {

AttentionLearnerConfig regression(AttentionKind kind) {
  AttentionLearnerConfig c;
  c.attention.mode.kind = kind;
  c.attention.mode.max_levels = 16;
  return c;
}

// The context of `seed` (the layer's and the input projection's draws).
LearnerContext seeded(std::uint64_t seed) { return LearnerContext{Task::kRegression, 0, 0, seed}; }

// y_t = c x_t[0] + x_{t-1}[0]: the lag part needs memory of the previous
// sample. Prequential MSE over the last 1000 of 2500 samples, relative to
// Var(y) = 1 + c^2.
double lag_task_relative_mse(AttentionLearner& m, std::uint64_t seed, double c) {
  Xorshift64 rng(seed);
  std::vector<double> x(4), prev(4, 0.0);
  double se = 0.0;
  int n = 0;
  for (int t = 0; t < 2500; ++t) {
    for (double& e : x) e = rng.normal();
    const double y = c * x[0] + prev[0];
    const double p = m.predict_one(x);
    if (t >= 1500) {
      se += (p - y) * (p - y);
      ++n;
    }
    m.learn_one(x, y);
    prev = x;
  }
  return se / n / (1.0 + c * c);
}

// Every mode fits the instantaneous part (c = 2: the best memoryless
// predictor has relative MSE 0.2). The pure lag (c = 0) needs linear memory:
// a fixed random linear-attention layer's features are bilinear in (q_t, k_s),
// so only Hawk (vector state h = sum of gated v) recovers it well; the others'
// figures are printed, and Hawk is held to a budget. Means over 3 seeds.
TEST(AttentionLearner, EveryModeFitsAndHawkRemembersAcrossSeeds) {
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    const auto kind = static_cast<AttentionKind>(k);
    double mixed = 0.0, lag = 0.0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      AttentionLearner a(regression(kind), seeded(seed)), b(regression(kind), seeded(seed));
      mixed += lag_task_relative_mse(a, 100 + seed, 2.0) / 3.0;
      lag += lag_task_relative_mse(b, 200 + seed, 0.0) / 3.0;
    }
    std::printf("attention learner %-14s relative MSE: current+lag %.3f, lag only %.3f\n",
                std::string(attention_kind_name(kind)).c_str(), mixed, lag);
    EXPECT_LT(mixed, 0.3) << attention_kind_name(kind);
    if (kind == AttentionKind::kHawk) {
      EXPECT_LT(lag, 0.6);
    }
  }
}

// The checkpoint holds the settings by name and the layer's weights and state
// alone: the layer's configuration (the mode's constants) is derived from the
// settings again on decode. Every mode resumes bit-identically.
template <class L>
void expect_mode_resumes(std::string_view mode) {
  typename L::Config c;
  for (const auto& f : L::config_fields()) {
    if (f.info.name == "mode") {
      ASSERT_TRUE(f.set(c, mode).is_ok()) << mode;
    }
  }
  L a(c, seeded(7));
  Xorshift64 rng(3);
  std::vector<double> x(3);
  for (int t = 0; t < 120; ++t) {
    for (double& e : x) e = rng.normal();
    a.learn_one(x, x[0] - x[2]);
  }
  ByteWriter w;
  a.encode(w);
  L b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok()) << mode;
  EXPECT_TRUE(r.at_end()) << mode;
  for (int t = 0; t < 40; ++t) {
    for (double& e : x) e = rng.normal();
    ASSERT_EQ(a.predict_one(x), b.predict_one(x)) << mode << " at " << t;
    a.learn_one(x, x[1]);
    b.learn_one(x, x[1]);
  }
}

TEST(AttentionLearner, EveryModeResumesFromSettingsDerivedLayers) {
  for (std::string_view mode : {"retnet", "hawk", "gla", "gla_vector", "deltanet", "gated_deltanet", "rwkv", "mlstm",
                                "deltaproduct", "rwkv7", "rwkv7:upstream", "hgrn2", "loglinear", "loglinear:deltanet",
                                "loglinear_mamba2", "loglinear_gated_deltanet"})
    expect_mode_resumes<AttentionLearner>(mode);
  for (std::string_view mode : {"gla", "deltanet", "loglinear_mamba2", "loglinear_gated_deltanet"})
    expect_mode_resumes<LogLinearLearner>(mode);
}

TEST(AttentionLearner, PredictIsReadOnlyAndCheckpointsContinue) {
  AttentionLearner a(regression(AttentionKind::kDeltaNet), seeded(4)), b(regression(AttentionKind::kDeltaNet), seeded(4));
  Xorshift64 rng(5);
  std::vector<double> x(3);
  for (int t = 0; t < 200; ++t) {
    for (double& e : x) e = rng.normal();
    const double p1 = a.predict_one(x);
    EXPECT_EQ(p1, a.predict_one(x));
    a.learn_one(x, x[1]);
    b.learn_one(x, x[1]);  // b never predicts
  }
  for (double& e : x) e = rng.normal();
  EXPECT_EQ(a.predict_one(x), b.predict_one(x));
  ByteWriter w;
  a.encode(w);
  AttentionLearner c;
  ByteReader r(w.data());
  ASSERT_TRUE(c.decode(r).is_ok());
  for (int t = 0; t < 50; ++t) {
    for (double& e : x) e = rng.normal();
    ASSERT_EQ(a.predict_one(x), c.predict_one(x));
    a.learn_one(x, x[0]);
    c.learn_one(x, x[0]);
  }
  for (std::size_t cut = 0; cut < w.data().size(); cut += 13) {
    AttentionLearner d;
    ByteReader tr(std::span<const std::uint8_t>(w.data()).first(cut));
    EXPECT_FALSE(d.decode(tr).is_ok());
  }
  EXPECT_EQ(a.n_samples_seen(), 250u);
  a.reset();
  EXPECT_EQ(a.n_samples_seen(), 0u);
}

TEST(AttentionLearner, ClassifiesAndSurvivesBadInput) {
  AttentionLearnerConfig c;
  c.attention.mode.kind = AttentionKind::kGatedDeltaNet;
  AttentionLearner m(c, LearnerContext{Task::kClassification, 3});
  Xorshift64 rng(9);
  std::vector<double> x(2), proba(3);
  int correct = 0, n = 0;
  for (int t = 0; t < 3000; ++t) {
    const int cls = static_cast<int>(rng.below(3));
    x[0] = cls + 0.3 * rng.normal();
    x[1] = (cls == 1 ? 1.0 : -1.0) + 0.3 * rng.normal();
    if (t % 97 == 0) x[1] = std::nan("");
    if (t >= 2000) {
      correct += m.predict_one(x) == cls;
      ++n;
    }
    m.predict_proba_one(x, proba);
    double s = 0.0;
    for (double p : proba) {
      ASSERT_TRUE(std::isfinite(p));
      s += p;
    }
    ASSERT_NEAR(s, 1.0, 1e-9);
    m.learn_one(x, cls, t % 50 == 0 ? std::nan("") : 1.0);
  }
  EXPECT_GT(static_cast<double>(correct) / n, 0.85);
  m.learn_one(std::vector<double>(5, 1.0), 0.0);  // wrong width: ignored
  // Every 50th sample has a NaN weight: a sample with no usable weight is not
  // seen at all (a recurrent state must not advance on it), nor is the wrong width.
  EXPECT_EQ(m.n_samples_seen(), 2940u);
  EXPECT_EQ(m.n_classes(), 3u);
}

TEST(AttentionLearner, RejectsBadConfig) {
  AttentionLearnerConfig c;
  LearnerContext context{Task::kClassification, 1};
  EXPECT_FALSE(AttentionLearner::validate(c, context).is_ok());
  context.n_classes = 2;
  c.rls.forgetting_factor = 1.5;
  EXPECT_FALSE(AttentionLearner::validate(c, context).is_ok());
  c.rls.forgetting_factor = 0.99;
  c.attention.d_model = 0;
  EXPECT_FALSE(AttentionLearner::validate(c, context).is_ok());
  // The checked factory reports the same Status instead of building.
  EXPECT_EQ(AttentionLearner::make(c, context).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(MultiHeadAttention::make(c.attention).is_ok());
  c.attention.d_model = 32;
  EXPECT_TRUE(AttentionLearner::make(c, context).is_ok());
  EXPECT_TRUE(MultiHeadAttention::make(c.attention).is_ok());
}

}  // namespace
}  // namespace irithyll::nn
