// Page-Hinkley specifics (inventory section 11 and checklist item 50).
#include <gtest/gtest.h>

#include "irithyll/core/rng.hpp"
#include "irithyll/drift/page_hinkley.hpp"

namespace irithyll {
namespace {

TEST(PageHinkley, StepUpDriftsWithin500) {
  PageHinkley d;  // delta 0.005, lambda 50
  for (int i = 0; i < 500; ++i) ASSERT_EQ(d.update(1.0), DriftSignal::kStable);
  int at = -1;
  for (int i = 0; i < 500 && at < 0; ++i)
    if (d.update(10.0) == DriftSignal::kDrift) at = i;
  ASSERT_GE(at, 0);
  EXPECT_LT(at, 20);  // each sample adds ~9 minus the creeping mean
}

TEST(PageHinkley, StepDownDriftsToo) {
  PageHinkley d;
  for (int i = 0; i < 500; ++i) d.update(10.0);
  int at = -1;
  for (int i = 0; i < 500 && at < 0; ++i)
    if (d.update(1.0) == DriftSignal::kDrift) at = i;
  EXPECT_GE(at, 0);
}

TEST(PageHinkley, ConstantStreamNeverSignals) {
  PageHinkley d;
  for (int i = 0; i < 100000; ++i) ASSERT_EQ(d.update(3.0), DriftSignal::kStable);
}

TEST(PageHinkley, WarningAtHalfLambda) {
  // Mean 0 for a long time, then values of +1: the up statistic climbs by
  // about 1 per sample (the mean barely moves), crossing lambda/2 = 5 first.
  PageHinkley d(0.005, 10.0);
  for (int i = 0; i < 100000; ++i) d.update(0.0);
  std::vector<DriftSignal> s;
  for (int i = 0; i < 12; ++i) s.push_back(d.update(1.0));
  // up statistic after k ones ~ k (1 - delta); warning once > 5, drift once > 10.
  EXPECT_EQ(s[4], DriftSignal::kStable);   // ~4.98
  EXPECT_EQ(s[5], DriftSignal::kWarning);  // ~5.97
  EXPECT_EQ(s[9], DriftSignal::kWarning);  // ~9.95
  EXPECT_EQ(s[10], DriftSignal::kDrift);   // ~10.9
}

TEST(PageHinkley, DriftResetsSumsButKeepsMean) {
  PageHinkley d;
  for (int i = 0; i < 500; ++i) d.update(1.0);
  DriftSignal s = DriftSignal::kStable;
  while (s != DriftSignal::kDrift) s = d.update(10.0);
  EXPECT_EQ(d.up_statistic(), 0.0);
  EXPECT_EQ(d.down_statistic(), 0.0);
  EXPECT_GT(d.count(), 500u);
  EXPECT_GT(d.estimated_mean(), 1.0);  // mean carries the samples seen so far
  EXPECT_LT(d.estimated_mean(), 10.0);
}

}  // namespace
}  // namespace irithyll
