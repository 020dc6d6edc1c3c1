#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/eval/classification_metrics.hpp"
#include "irithyll/eval/regression_metrics.hpp"

namespace irithyll {
namespace {

constexpr double kTight = 1e-12;    // closed forms evaluated in a different order
constexpr double kRolling = 1e-9;   // incremental add/remove sums vs. recomputation

TEST(ConfusionMatrix, HandComputed) {
  // truth/pred pairs: (0,0) x3, (0,1) x1, (1,1) x2, (1,0) x2, (2,2) x1, (2,0) x1
  ConfusionMatrix cm(3);
  const int pairs[][2] = {{0, 0}, {0, 0}, {0, 0}, {0, 1}, {1, 1}, {1, 1}, {1, 0}, {1, 0}, {2, 2}, {2, 0}};
  for (const auto& p : pairs) cm.add(p[0], p[1]);
  EXPECT_EQ(cm.total(), 10u);
  EXPECT_DOUBLE_EQ(cm.accuracy(), 0.6);
  // rows 4,4,2; cols 6,3,1 -> pe = (24 + 12 + 2) / 100 = 0.38; kappa = 0.22 / 0.62.
  EXPECT_NEAR(cm.kappa(), 0.22 / 0.62, kTight);
  // F1: class0 2*3/(4+6) = 0.6; class1 2*2/(4+3) = 4/7; class2 2*1/(2+1) = 2/3.
  EXPECT_NEAR(cm.macro_f1(), (0.6 + 4.0 / 7.0 + 2.0 / 3.0) / 3.0, kTight);
  cm.remove(2, 0);
  EXPECT_DOUBLE_EQ(cm.accuracy(), 6.0 / 9.0);
}

TEST(ConfusionMatrix, EdgeCases) {
  ConfusionMatrix cm(3);
  EXPECT_TRUE(std::isnan(cm.accuracy()));
  EXPECT_TRUE(std::isnan(cm.kappa()));
  EXPECT_TRUE(std::isnan(cm.macro_f1()));
  cm.add(1, 1);
  cm.add(1, 1);
  EXPECT_EQ(cm.kappa(), 0.0);        // p_e = 1: defined as 0
  EXPECT_EQ(cm.macro_f1(), 1.0);     // only class 1 seen
}

TEST(ClassificationMetrics, LogLossClipAndNaN) {
  EXPECT_NEAR(clipped_log_loss(0.0), -std::log(1e-15), 1e-9);
  EXPECT_NEAR(clipped_log_loss(std::nan("")), -std::log(1e-15), 1e-9);
  EXPECT_NEAR(clipped_log_loss(1.0), -std::log(1.0 - 1e-15), 1e-18);
  EXPECT_NEAR(clipped_log_loss(0.25), std::log(4.0), kTight);
  const double p[] = {0.2, 0.5, 0.3};
  EXPECT_EQ(argmax_class(p), 1u);
  const double tie[] = {0.5, 0.5};
  EXPECT_EQ(argmax_class(tie), 0u);
  const double with_nan[] = {std::nan(""), 0.1};
  EXPECT_EQ(argmax_class(with_nan), 1u);

  ClassificationMetrics m(2);
  const double a[] = {0.8, 0.2};
  const double b[] = {0.4, 0.6};
  m.update_proba(0, a);  // right, -ln 0.8
  m.update_proba(0, b);  // wrong, -ln 0.4
  const MetricValues v = m.values();
  EXPECT_DOUBLE_EQ(v.accuracy, 0.5);
  EXPECT_NEAR(v.log_loss, (-std::log(0.8) - std::log(0.4)) / 2.0, kTight);
  EXPECT_TRUE(std::isnan(v.mae));
}

// Brute force: rebuild the metrics of the last W samples from scratch.
TEST(RollingClassificationMetrics, MatchesRecomputationOnRandomSequences) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Xorshift64 rng(seed);
    const std::size_t k = 2 + rng.below(4);
    const std::size_t w = 1 + rng.below(50);
    RollingClassificationMetrics rolling(k, w);
    ClassificationMetrics total(k);
    std::deque<std::array<double, 3>> window;
    for (int i = 0; i < 500; ++i) {
      const std::size_t t = rng.below(k);
      const std::size_t p = rng.uniform() < 0.6 ? t : rng.below(k);
      const double pt = rng.uniform();
      rolling.update(t, p, pt);
      total.update(t, p, pt);
      window.push_back({double(t), double(p), pt});
      if (window.size() > w) window.pop_front();
      ClassificationMetrics fresh(k);
      for (const auto& e : window) fresh.update(std::size_t(e[0]), std::size_t(e[1]), e[2]);
      const MetricValues a = rolling.values(), b = fresh.values();
      ASSERT_NEAR(a.accuracy, b.accuracy, kTight) << seed << " " << i;
      ASSERT_NEAR(a.kappa, b.kappa, kTight) << seed << " " << i;
      ASSERT_NEAR(a.macro_f1, b.macro_f1, kTight) << seed << " " << i;
      ASSERT_NEAR(a.balanced_accuracy, b.balanced_accuracy, kTight) << seed << " " << i;
      ASSERT_NEAR(a.log_loss, b.log_loss, kRolling) << seed << " " << i;
    }
    EXPECT_EQ(total.count(), 500u);
    EXPECT_EQ(rolling.count(), std::min<std::size_t>(w, 500));
  }
}

TEST(RegressionMetrics, HandComputed) {
  RegressionMetrics m;
  EXPECT_TRUE(std::isnan(m.values().mae));
  // y = 1,2,3,4; predictions 1.5,2,2,5 -> errors -0.5,0,1,-1
  const double y[] = {1, 2, 3, 4}, p[] = {1.5, 2, 2, 5};
  for (int i = 0; i < 4; ++i) m.update(y[i], p[i]);
  const MetricValues v = m.values();
  EXPECT_NEAR(v.mae, 2.5 / 4, kTight);
  EXPECT_NEAR(v.rmse, std::sqrt(2.25 / 4), kTight);
  EXPECT_NEAR(v.r2, 1.0 - 2.25 / 5.0, kTight);  // SS_tot = 5
  EXPECT_TRUE(std::isnan(v.accuracy));
}

TEST(RegressionMetrics, ConstantTargetR2Rule) {
  RegressionMetrics perfect, off;
  for (int i = 0; i < 3; ++i) {
    perfect.update(2.0, 2.0);
    off.update(2.0, 1.0);
  }
  EXPECT_EQ(perfect.values().r2, 1.0);
  EXPECT_EQ(off.values().r2, 0.0);
}

TEST(RegressionMetrics, LargeOffsetKeepsR2) {
  // y = 1e9 + {0,1,0,1,...}, always predicting the level: R^2 = 1 - 0.5/0.25... per sample
  RegressionMetrics m;
  RollingRegressionMetrics r(100);
  for (int i = 0; i < 1000; ++i) {
    const double y = 1e9 + (i % 2);
    m.update(y, 1e9 + 0.5);
    r.update(y, 1e9 + 0.5);
  }
  EXPECT_NEAR(m.values().r2, 0.0, 1e-6);
  EXPECT_NEAR(r.values().r2, 0.0, 1e-6);
}

TEST(RollingRegressionMetrics, MatchesRecomputationOnRandomSequences) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Xorshift64 rng(seed);
    const std::size_t w = 1 + rng.below(64);
    const double level = rng.uniform(-1e4, 1e4);
    RollingRegressionMetrics rolling(w);
    std::deque<std::array<double, 2>> window;
    for (int i = 0; i < 400; ++i) {
      const double y = level + rng.normal() * 3.0 + 0.01 * i;
      const double p = y + rng.normal();
      rolling.update(y, p);
      window.push_back({y, p});
      if (window.size() > w) window.pop_front();
      RegressionMetrics fresh;
      for (const auto& e : window) fresh.update(e[0], e[1]);
      const MetricValues a = rolling.values(), b = fresh.values();
      ASSERT_NEAR(a.mae, b.mae, kRolling) << seed << " " << i;
      ASSERT_NEAR(a.rmse, b.rmse, kRolling) << seed << " " << i;
      if (window.size() >= 2) {
        ASSERT_NEAR(a.r2, b.r2, 1e-6 * std::max(1.0, std::fabs(b.r2))) << seed << " " << i;
      }
    }
  }
}

TEST(RollingRegressionMetrics, NonFinitePredictionLeavesWithTheWindow) {
  RollingRegressionMetrics r(3);
  r.update(1.0, std::nan(""));
  EXPECT_TRUE(std::isnan(r.values().mae));
  for (int i = 0; i < 3; ++i) r.update(1.0, 2.0);
  EXPECT_DOUBLE_EQ(r.values().mae, 1.0);
}

}  // namespace
}  // namespace irithyll
