// DDM specifics, and regression tests named after the pitfalls of a literal
// DDM (ddm.hpp says what each one is and what we do instead).
#include <gtest/gtest.h>

#include "drift/drift_streams.hpp"
#include "irithyll/drift/ddm.hpp"

namespace irithyll {
namespace {

// Pitfall 1: the population std of the errors does not shrink with n, so a
// 0/1 error rate moving from 0.2 to 0.5 would never fire.
// Budget: >= 95% of 50 seeded streams detect within 1000 samples.
TEST(DdmRegression, DetectsBernoulli02To05) {
  int detected = 0;
  for (int seed = 1; seed <= 50; ++seed) {
    Xorshift64 rng(static_cast<std::uint64_t>(seed) * 31337u);
    Ddm d;
    auto out = testing::run_stream(d, rng, testing::bernoulli_shift(0.2, 0.5), 2000, 3000);
    if (out.delay >= 0 && out.delay < 1000) ++detected;
  }
  EXPECT_GE(detected, 48);
}

// Pitfall 2: when the first 30 errors are all 0, recording s_min = 0 means
// p + s >= p_min + 3 s_min holds at once: drift, reset (minimum kept), and
// again ~31 samples later, forever.
TEST(DdmRegression, ThirtyZerosRecordNoZeroMinimum) {
  Ddm d;
  for (int i = 0; i < 30; ++i) ASSERT_EQ(d.update(0.0), DriftSignal::kStable);
  for (int i = 0; i < 10000; ++i) ASSERT_NE(d.update(0.0), DriftSignal::kDrift) << "at " << i;
  EXPECT_FALSE(d.has_minimum());
}

TEST(DdmRegression, ThirtyZerosThenRareErrorsStayQuiet) {
  // All-zero start, then a stationary 5% error rate. A DDM recording s_min = 0
  // would drift ~645 times per 20000-sample stream. Ours may drift once for the genuine
  // 0 -> 0.05 change, plus DDM's stationary rate (see the false-alarm
  // budgets in drift_statistics_test.cpp); budget: 1.5 per stream on average
  // over 50 streams (measured ~0.6).
  int drifts = 0;
  for (int seed = 1; seed <= 50; ++seed) {
    Xorshift64 rng(static_cast<std::uint64_t>(seed) * 7777u);
    Ddm d;
    for (int i = 0; i < 30; ++i) d.update(0.0);
    for (int i = 0; i < 20000; ++i) drifts += d.update(rng.uniform() < 0.05 ? 1.0 : 0.0) == DriftSignal::kDrift;
  }
  EXPECT_LE(drifts, 75);
}

TEST(Ddm, SilentForMinInstances) {
  Ddm d(2.0, 3.0, 30);
  // Wildly moving errors, but nothing may be signalled within 30 samples.
  for (int i = 0; i < 30; ++i) EXPECT_EQ(d.update(i < 20 ? 0.0 : 5.0), DriftSignal::kStable);
  EXPECT_FALSE(d.has_minimum());
}

TEST(Ddm, BinaryModeFollowsTheData) {
  Ddm d;
  for (int i = 0; i < 100; ++i) d.update(i % 4 == 0 ? 1.0 : 0.0);
  EXPECT_TRUE(d.binary());
  EXPECT_NEAR(d.std_of_mean(), std::sqrt(0.25 * 0.75 / 100.0), 1e-12);
  d.update(0.5);
  EXPECT_FALSE(d.binary());
}

TEST(Ddm, ContinuousUsesStdOfTheMean) {
  Ddm d;
  // 0.4 and 0.6 alternating: sample variance 0.01 * n/(n-1).
  for (int i = 0; i < 400; ++i) d.update(i % 2 == 0 ? 0.4 : 0.6);
  EXPECT_NEAR(d.estimated_mean(), 0.5, 1e-12);
  EXPECT_NEAR(d.std_of_mean(), std::sqrt(0.01 * 400.0 / 399.0 / 400.0), 1e-12);
}

TEST(Ddm, WarningPrecedesDriftAndDriftRestarts) {
  Ddm d;
  for (int i = 0; i < 2000; ++i) d.update(i % 2 == 0 ? 0.4 : 0.6);
  ASSERT_TRUE(d.has_minimum());
  int first_warning = -1, first_drift = -1;
  for (int i = 0; i < 2000 && first_drift < 0; ++i) {
    const DriftSignal s = d.update(0.8);
    if (s == DriftSignal::kWarning && first_warning < 0) first_warning = i;
    if (s == DriftSignal::kDrift) first_drift = i;
  }
  ASSERT_GE(first_warning, 0);
  ASSERT_GT(first_drift, first_warning);
  // Every statistic restarts on drift, the minimum included.
  EXPECT_EQ(d.count(), 0u);
  EXPECT_FALSE(d.has_minimum());
  EXPECT_EQ(d.estimated_mean(), 0.0);
}

TEST(Ddm, ThresholdsFollowTheLevels) {
  // p + s at the step: a lower drift level must fire no later.
  auto first_drift = [](double warning, double drift) {
    Ddm d(warning, drift, 30);
    for (int i = 0; i < 2000; ++i) d.update(i % 2 == 0 ? 0.4 : 0.6);
    for (int i = 0; i < 5000; ++i)
      if (d.update(0.7) == DriftSignal::kDrift) return i;
    return -1;
  };
  const int at3 = first_drift(2.0, 3.0), at6 = first_drift(2.0, 6.0), at2 = first_drift(1.0, 2.0);
  ASSERT_GE(at2, 0);
  EXPECT_LT(at2, at3);
  EXPECT_LT(at3, at6);
}

}  // namespace
}  // namespace irithyll
