#include "irithyll/core/poisson.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace irithyll {
namespace {

// Mean and variance of Poisson(lambda) are both lambda. With n = 200000
// draws the standard error of the mean is sqrt(lambda / n) (0.0055 at 6) and
// of the variance about lambda * sqrt(2 / n) (0.019 at 6): 6 sigma bounds
// give a false-failure rate below 1e-8 per check.
void check_moments(double lambda) {
  Xorshift64 rng(12345);
  const int n = 200000;
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double k = sample_poisson(rng, lambda);
    sum += k;
    sum2 += k * k;
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  EXPECT_NEAR(mean, lambda, 6.0 * std::sqrt(lambda / n)) << "lambda " << lambda;
  EXPECT_NEAR(var, lambda, 6.0 * lambda * std::sqrt(2.0 / n) + 6.0 * std::sqrt(lambda / n)) << "lambda " << lambda;
}

TEST(Poisson, MeanAndVarianceMatchLambda) {
  check_moments(1.0);
  check_moments(6.0);
  check_moments(0.5);
}

TEST(Poisson, ZeroProbabilityIsExpMinusLambda) {
  Xorshift64 rng(7);
  const int n = 200000;
  int zeros = 0;
  for (int i = 0; i < n; ++i) zeros += sample_poisson(rng, 1.0) == 0;
  EXPECT_NEAR(static_cast<double>(zeros) / n, std::exp(-1.0), 6.0 * std::sqrt(0.25 / n));
}

TEST(Poisson, DeterministicGivenSeed) {
  Xorshift64 a(99), b(99);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(sample_poisson(a, 6.0), sample_poisson(b, 6.0));
}

}  // namespace
}  // namespace irithyll
