// ROC AUC and average precision on hand-computed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/anomaly/ranking.hpp"

namespace irithyll {
namespace {

TEST(Ranking, RocAucCountsPairsAndHalfTies) {
  const std::vector<std::uint8_t> y = {0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(roc_auc(std::vector<double>{0.1, 0.4, 0.35, 0.8}, y), 0.75);  // scikit-learn's docs example
  EXPECT_DOUBLE_EQ(roc_auc(std::vector<double>{0.5, 0.5, 0.5, 0.5}, y), 0.5);
  EXPECT_DOUBLE_EQ(roc_auc(std::vector<double>{1, 2, 3, 4}, y), 1.0);
  EXPECT_TRUE(std::isnan(roc_auc(std::vector<double>{1, 2}, std::vector<std::uint8_t>{1, 1})));
}

TEST(Ranking, AveragePrecisionIsTheStepSum) {
  const std::vector<std::uint8_t> y = {0, 0, 1, 1};
  // scikit-learn: average_precision_score([0,0,1,1], [0.1,0.4,0.35,0.8]) = 0.8333...
  EXPECT_NEAR(average_precision(std::vector<double>{0.1, 0.4, 0.35, 0.8}, y), 5.0 / 6.0, 1e-15);
  EXPECT_DOUBLE_EQ(average_precision(std::vector<double>{1, 2, 3, 4}, y), 1.0);
  // All tied: one threshold, precision 1/2 at recall 1.
  EXPECT_DOUBLE_EQ(average_precision(std::vector<double>{7, 7, 7, 7}, y), 0.5);
  EXPECT_TRUE(std::isnan(average_precision(std::vector<double>{1, 2}, std::vector<std::uint8_t>{0, 0})));
}

}  // namespace
}  // namespace irithyll
