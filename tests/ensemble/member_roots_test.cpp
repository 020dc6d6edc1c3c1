// ARF, SRP and leveraging bagging refuse an ensemble whose members' root
// statistics alone (members x classes x features) would pass 2^22 cells, and
// accept the sizes people use.
#include <gtest/gtest.h>

#include <string>

#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/srp.hpp"

namespace irithyll {
namespace {

template <class L>
void expect_roots_bounded() {
  typename L::Config c;
  const auto huge = L::make(c, {Task::kClassification, 65536, std::size_t{1} << 20, 1});
  ASSERT_FALSE(huge.is_ok());
  EXPECT_NE(huge.status().message().find("2^22"), std::string::npos) << huge.status().message();
  EXPECT_TRUE(L::make(c, {Task::kClassification, 100, 1000, 1}).is_ok());
}

TEST(MemberRoots, HugeEnsemblesAreRefusedUsualOnesAccepted) {
  expect_roots_bounded<AdaptiveRandomForest>();
  expect_roots_bounded<StreamingRandomPatches>();
  expect_roots_bounded<LeveragingBagging>();
}

}  // namespace
}  // namespace irithyll
