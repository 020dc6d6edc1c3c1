// TargetGuard: clips an outlying target, leaves ordinary ones alone and
// follows a real shift in level (tests/estimator/target_typo_test.cpp runs
// it through the prequential loop on every catalogue regressor).
#include <gtest/gtest.h>

#include "irithyll/eval/target_guard.hpp"

namespace irithyll {
namespace {

TEST(TargetGuard, ClipsAnOutlierKeepsOrdinaryTargetsAndFollowsAShift) {
  TargetGuard g;
  for (int i = 0; i < 200; ++i) EXPECT_EQ(g.admit(10.0 + (i % 7) * 0.5), 10.0 + (i % 7) * 0.5);
  EXPECT_EQ(g.n_clipped(), 0u);
  const double clipped = g.admit(1e6);
  EXPECT_LT(clipped, 100.0);
  EXPECT_GT(clipped, 10.0);
  EXPECT_EQ(g.n_clipped(), 1u);
  EXPECT_LT(g.admit(-1e308), 0.0 + 10.0);
  // A real level shift: after half a window the new level is learned as given.
  for (int i = 0; i < 400; ++i) g.admit(1000.0 + (i % 5));
  EXPECT_EQ(g.admit(1002.0), 1002.0);
}

TEST(TargetGuard, ConstantTargetsGiveNoBand) {
  TargetGuard g;
  for (int i = 0; i < 100; ++i) g.admit(3.0);
  EXPECT_EQ(g.admit(7.0), 7.0);  // nothing to judge a spread by: learned as given
}

}  // namespace
}  // namespace irithyll
