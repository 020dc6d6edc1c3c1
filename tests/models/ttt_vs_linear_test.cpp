// "ttt" against the catalogue's linear_regression on Friedman #1, a
// nonlinear regression stream (sin(pi x1 x2) + 20 (x3 - 0.5)^2 + linear
// terms, N(0, 1) noise): prequential RMSE, both with their default settings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "support/prequential.hpp"

namespace irithyll {
namespace {

using testing::prequential_rmse;

// Five seeds, 20,000 samples each; TTT must win on every seed. Measured
// (seeds 1..5): ttt 2.60 2.48 2.50 2.66 2.30, linear 2.80 2.80 2.79 2.80
// 2.79. The smallest margin (0.14) is about 20 times the standard error of
// either RMSE over 20,000 samples (~0.007 at noise sd 1), so for a stream
// drawn at random the false-failure rate would be far below 1e-6; with these
// fixed seeds the test is deterministic and fails only if a change makes
// TTT worse than linear on one of them.
TEST(TttVsLinear, BeatsLinearRegressionOnFriedman) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const double ttt = prequential_rmse("ttt", "friedman", seed, 20000);
    const double lin = prequential_rmse("linear_regression", "friedman", seed, 20000);
    EXPECT_LT(ttt, lin) << "seed " << seed << ": ttt " << ttt << " vs linear " << lin;
    std::printf("seed %llu: ttt %.4f linear %.4f\n", static_cast<unsigned long long>(seed), ttt, lin);
  }
}

}  // namespace
}  // namespace irithyll
