// Hand-computed values for the drifting-stream metrics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/eval/stream_metrics.hpp"

namespace irithyll {
namespace {

TEST(BaselineKappa, HandComputed) {
  // truth 0 0 1 1 0, predicted 0 1 1 1 0: accuracy 4/5.
  // No-change predicts the previous truth: -, 0 ok, 0 x, 1 ok, 1 x -> 2/5.
  // Prequential majority: -, 0 ok, 0 x, 0 x (2:1), 0 ok (2:2 tie -> 0) -> 2/5.
  BaselineKappa k;
  const std::size_t truth[] = {0, 0, 1, 1, 0}, pred[] = {0, 1, 1, 1, 0};
  for (int i = 0; i < 5; ++i) k.update(truth[i], pred[i]);
  EXPECT_DOUBLE_EQ(k.accuracy(), 0.8);
  EXPECT_DOUBLE_EQ(k.no_change_accuracy(), 0.4);
  EXPECT_DOUBLE_EQ(k.majority_accuracy(), 0.4);
  EXPECT_NEAR(k.kappa_t(), 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(k.kappa_m(), 2.0 / 3.0, 1e-15);
}

TEST(BaselineKappa, NoChangeWinsOnPersistentLabels) {
  // Long runs of one label: no-change is almost always right, so a model
  // with 90% accuracy has a negative kappa_t while its kappa_m is positive.
  BaselineKappa k;
  for (int i = 0; i < 1000; ++i) {
    const std::size_t y = (i / 100) % 2;  // runs of 100
    k.update(y, i % 10 == 0 ? 1 - y : y);
  }
  EXPECT_DOUBLE_EQ(k.accuracy(), 0.9);
  EXPECT_DOUBLE_EQ(k.no_change_accuracy(), 990.0 / 1000.0);
  EXPECT_LT(k.kappa_t(), 0.0);
  EXPECT_GT(k.kappa_m(), 0.0);
  k.reset();
  EXPECT_EQ(k.count(), 0u);
  EXPECT_EQ(k.kappa_t(), 0.0);
}

TEST(BalancedAccuracy, HandComputed) {
  BalancedAccuracy b;
  const std::size_t truth[] = {0, 0, 0, 1}, pred[] = {0, 1, 0, 1};
  for (int i = 0; i < 4; ++i) b.update(truth[i], pred[i]);
  EXPECT_NEAR(b.value(), (2.0 / 3.0 + 1.0) / 2.0, 1e-15);
  // A class that is only ever predicted does not enter the mean.
  b.update(0, 5);
  EXPECT_NEAR(b.value(), (2.0 / 4.0 + 1.0) / 2.0, 1e-15);
}

TEST(RocAuc, HandComputedWithTies) {
  // Positives at 0.9 and 0.4, negatives at 0.4 and 0.1: U = 2 + (1 + 1/2).
  RocAuc r;
  EXPECT_EQ(r.auc(), 0.5);
  r.update(true, 0.9);
  r.update(false, 0.4);
  r.update(true, 0.4);
  r.update(false, 0.1);
  EXPECT_DOUBLE_EQ(r.auc(), 3.5 / 4.0);
  r.update(true, std::nan(""));  // ignored
  EXPECT_EQ(r.count(), 4u);
}

TEST(RocAuc, MatchesPairCountOnRandomScores) {
  Xorshift64 rng(3);
  RocAuc r;
  std::vector<std::pair<bool, double>> seen;
  for (int i = 0; i < 400; ++i) {
    const bool pos = rng.uniform() < 0.3;
    const double s = std::round((rng.uniform() + (pos ? 0.3 : 0.0)) * 20.0) / 20.0;  // many ties
    r.update(pos, s);
    seen.emplace_back(pos, s);
  }
  double u = 0.0, np = 0.0, nn = 0.0;
  for (const auto& [pa, sa] : seen) {
    if (!pa) { nn += 1; continue; }
    np += 1;
    for (const auto& [pb, sb] : seen)
      if (!pb) u += sa > sb ? 1.0 : (sa == sb ? 0.5 : 0.0);
  }
  EXPECT_NEAR(r.auc(), u / (np * nn), 1e-12);
}

TEST(RocAuc, ExactAcrossManyMerges) {
  // Enough samples for several merges of the buffer into the run, with ties
  // that span merges; checked against U from one sort of everything.
  Xorshift64 rng(9);
  RocAuc r;
  std::vector<std::pair<double, bool>> seen;
  for (int i = 0; i < 50000; ++i) {
    const bool pos = rng.uniform() < 0.4;
    double s = rng.uniform() + (pos ? 0.2 : 0.0);
    if (i % 3 == 0) s = std::round(s * 100.0) / 100.0;  // ties
    if (i % 1000 == 0) s = -0.0;                         // one threshold with +0
    r.update(pos, s);
    seen.emplace_back(s == 0.0 ? 0.0 : s, pos);
  }
  std::sort(seen.begin(), seen.end());
  double u = 0.0, neg_below = 0.0, np = 0.0, nn = 0.0;
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < seen.size();) {
    double p = 0.0, n = 0.0;
    std::size_t j = i;
    for (; j < seen.size() && seen[j].first == seen[i].first; ++j) (seen[j].second ? p : n) += 1.0;
    u += p * (neg_below + 0.5 * n);
    neg_below += n;
    np += p;
    nn += n;
    ++distinct;
    i = j;
  }
  EXPECT_EQ(r.count(), seen.size());
  EXPECT_EQ(r.distinct_scores(), distinct);
  EXPECT_NEAR(r.auc(), u / (np * nn), 1e-12);
  r.reset();
  EXPECT_EQ(r.count(), 0u);
  EXPECT_EQ(r.distinct_scores(), 0u);
  EXPECT_EQ(r.auc(), 0.5);
}

TEST(Mape, HandComputedSkipsZeroTargets) {
  Mape m;
  m.update(2.0, 1.0);
  m.update(4.0, 5.0);
  m.update(0.0, 3.0);
  EXPECT_DOUBLE_EQ(m.value(), 37.5);
  EXPECT_EQ(m.skipped(), 1u);
}

TEST(Smape, HandComputed) {
  Smape s;
  s.update(2.0, 1.0);
  s.update(0.0, 0.0);
  EXPECT_NEAR(s.value(), 100.0 / 3.0, 1e-12);
}

}  // namespace
}  // namespace irithyll
