// ROC AUC's radix sort of scores gives exactly std::sort's array: on
// probabilities (the common case, whose high digits are all alike), on
// values of both signs and every magnitude, on heavy ties and on sizes
// either side of the switch to the comparison sort.
#include "eval/score_sort.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::eval_detail {
namespace {

void expect_sorted_like_std(std::vector<double> values) {
  std::vector<double> want = values;
  sort_scores_ref(want);
  std::vector<std::uint64_t> scratch;
  sort_scores(values, scratch);
  ASSERT_EQ(values.size(), want.size());
  if (values.empty()) return;  // (memcmp's pointers must not be null)
  EXPECT_EQ(std::memcmp(values.data(), want.data(), values.size() * sizeof(double)), 0) << "n " << values.size();
}

TEST(ScoreSort, ProbabilitiesSortAsStdSortDoes) {
  Xorshift64 rng(7);
  for (std::size_t n : {0u, 1u, 2u, 1023u, 1024u, 1025u, 5000u, 100000u}) {
    std::vector<double> v(n);
    for (double& x : v) x = 1.0 / (1.0 + std::exp(-3.0 * rng.normal()));
    expect_sorted_like_std(v);
  }
}

TEST(ScoreSort, EverySignMagnitudeAndTie) {
  Xorshift64 rng(11);
  const double special[] = {0.0,     1.0,  -1.0, std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                            4.9e-324, -4.9e-324, 2.2e-308, -2.2e-308, 0.5, -0.5};
  for (std::size_t n : {1500u, 20000u}) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double u = rng.uniform();
      if (u < 0.3) v[i] = special[rng.next_u64() % (sizeof special / sizeof special[0])];
      else if (u < 0.6) v[i] = std::ldexp(rng.normal(), static_cast<int>(rng.next_u64() % 2000) - 1000);
      else v[i] = std::round(rng.normal() * 4.0) / 4.0;  // many ties
      if (v[i] == 0.0) v[i] = 0.0;  // the caller folds -0 into +0
    }
    expect_sorted_like_std(v);
  }
}

// The scratch is reused across calls of different sizes.
TEST(ScoreSort, ScratchIsReused) {
  Xorshift64 rng(3);
  std::vector<std::uint64_t> scratch;
  for (std::size_t n : {50000u, 2000u, 30000u}) {
    std::vector<double> v(n), want;
    for (double& x : v) x = rng.normal();
    want = v;
    sort_scores_ref(want);
    sort_scores(v, scratch);
    EXPECT_EQ(v, want);
  }
}

}  // namespace
}  // namespace irithyll::eval_detail
