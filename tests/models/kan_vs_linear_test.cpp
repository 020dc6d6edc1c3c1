// The KAN against linear regression, both from the catalogue with their
// default settings, on Friedman #1 (10 features, y = 10 sin(pi x1 x2) +
// 20 (x3 - 0.5)^2 + 10 x4 + 5 x5 + N(0, 1)): the sine and the square are out
// of a linear model's reach, and a KAN's edge splines can fit them.
// Prequential RMSE over 20,000 samples.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/prequential.hpp"

namespace irithyll {
namespace {

using testing::prequential_rmse;

// Measured on seeds 1-5 (default settings): kan 2.17-2.61, linear_regression
// 2.79-2.80 (the noise floor is 1.0). Streams and models are seeded, so the
// test is deterministic: it cannot fail at random, only if the learning
// changes. The smallest per-seed margin is 0.19 (7%), the mean ratio 0.84
// against the 0.9 asked for.
TEST(KanAccuracy, BeatsLinearRegressionOnFriedman) {
  double kan = 0.0, lin = 0.0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const double k = prequential_rmse("kan", "friedman", seed, 20000);
    const double l = prequential_rmse("linear_regression", "friedman", seed, 20000);
    EXPECT_LT(k, l) << "seed " << seed << ": kan " << k << ", linear_regression " << l;
    kan += k / 5.0;
    lin += l / 5.0;
  }
  EXPECT_LT(kan, 0.9 * lin) << "mean RMSE: kan " << kan << ", linear_regression " << lin;
}

}  // namespace
}  // namespace irithyll
