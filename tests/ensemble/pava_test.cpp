// Pool-adjacent-violators: worked examples by hand, weights, and the
// defining properties (output non-decreasing; already-sorted input unchanged;
// the weighted mean preserved) on random inputs.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/pava.hpp"

namespace irithyll {
namespace {

std::vector<double> pava(std::vector<double> v, std::vector<double> w = {}) {
  pava_non_decreasing(v, w);
  return v;
}

TEST(Pava, WorkedExamples) {
  EXPECT_EQ(pava({3, 1, 2}), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(pava({5, 4, 3, 2, 1}), (std::vector<double>{3, 3, 3, 3, 3}));
  EXPECT_EQ(pava({1, 5, 3, 4, 6}), (std::vector<double>{1, 4, 4, 4, 6}));
  EXPECT_EQ(pava({}), std::vector<double>{});
  EXPECT_EQ(pava({7}), std::vector<double>{7});
}

TEST(Pava, WeightsPullThePooledMean) {
  // 4 (weight 3) and 0 (weight 1) pool to (12 + 0) / 4 = 3.
  EXPECT_EQ(pava({4, 0}, {3, 1}), (std::vector<double>{3, 3}));
}

TEST(Pava, PropertiesOnRandomInputs) {
  Xorshift64 rng(99);
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = 1 + trial % 40;  // also past the 32-block stack
    std::vector<double> v(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = rng.uniform() * 10.0 - 5.0;
      w[i] = 0.1 + rng.uniform();
    }
    const std::vector<double> out = pava(v, w);
    for (std::size_t i = 1; i < n; ++i) ASSERT_LE(out[i - 1], out[i] + 1e-12);
    double before = 0, after = 0;
    for (std::size_t i = 0; i < n; ++i) {
      before += w[i] * v[i];
      after += w[i] * out[i];
    }
    EXPECT_NEAR(before, after, 1e-9);
    std::vector<double> sorted = out;
    EXPECT_EQ(pava(sorted, w), out);  // a fixed point
  }
}

}  // namespace
}  // namespace irithyll
