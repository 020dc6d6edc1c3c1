// Reservoir subsampling: k distinct indices of n, ascending, the same for a
// seed and different across seeds, every index equally likely (a chi-square
// test), and the stream decorator delivering exactly those rows of its inner
// stream in order, after --skip and within --max-samples, passing an inner
// error through with its message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/stream/generators.hpp"
#include "irithyll/stream/reservoir.hpp"

namespace irithyll {
namespace {

TEST(Reservoir, KOfNAscendingDistinctAndSeeded) {
  for (const std::size_t n : {0u, 1u, 7u, 100u, 1000u}) {
    for (const std::size_t k : {1u, 5u, 100u, 2000u}) {
      const auto a = reservoir_indices(n, k, 3);
      ASSERT_EQ(a.size(), std::min(n, k)) << n << " " << k;
      EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
      EXPECT_EQ(std::adjacent_find(a.begin(), a.end()), a.end());
      for (std::size_t i : a) EXPECT_LT(i, n);
      EXPECT_EQ(a, reservoir_indices(n, k, 3));
    }
  }
  EXPECT_NE(reservoir_indices(1000, 10, 1), reservoir_indices(1000, 10, 2));
  EXPECT_TRUE(reservoir_indices(10, 0, 1).empty());
}

TEST(Reservoir, EveryIndexEquallyLikely) {
  // 20,000 samples of 5 of 20 (seeds 1..20000): each index is expected
  // 5,000 times. Chi-square with 19 degrees of freedom against 63.68, its
  // 1e-6 upper quantile: a correct sampler fails one seed set in a million
  // (these seeds are fixed, so the test itself is deterministic). Pairs are
  // checked too (190 of them, each expected 20000 x C(18,3)/C(20,5) = 1,052.6
  // times): a sampler that favours neighbours fails that.
  const std::size_t n = 20, k = 5, draws = 20000;
  std::vector<double> hits(n, 0.0);
  std::vector<double> pair(n * n, 0.0);
  for (std::size_t s = 1; s <= draws; ++s) {
    const auto got = reservoir_indices(n, k, s);
    for (std::size_t i : got) hits[i] += 1.0;
    for (std::size_t a = 0; a < got.size(); ++a)
      for (std::size_t b = a + 1; b < got.size(); ++b) pair[got[a] * n + got[b]] += 1.0;
  }
  const double expected = static_cast<double>(draws * k) / static_cast<double>(n);
  double chi2 = 0.0;
  for (double h : hits) chi2 += (h - expected) * (h - expected) / expected;
  EXPECT_LT(chi2, 63.68);
  const double pair_expected = static_cast<double>(draws) * (5.0 * 4.0) / (20.0 * 19.0);
  double worst = 0.0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      worst = std::max(worst, std::abs(pair[a * n + b] - pair_expected) / std::sqrt(pair_expected));
  // 190 pair counts, each about normal: |z| > 6 has probability ~4e-7 over all.
  EXPECT_LT(worst, 6.0);
}

std::vector<std::pair<std::vector<double>, double>> rows_of(Stream& s) {
  std::vector<std::pair<std::vector<double>, double>> out;
  std::vector<double> x(s.schema().n_features());
  double y = 0.0;
  while (s.next(x, y)) out.emplace_back(x, y);
  return out;
}

TEST(Reservoir, StreamDeliversTheChosenRowsInOrder) {
  auto all = make_generator("sea", 4, 1000);
  ASSERT_TRUE(all.is_ok());
  const auto every = rows_of(**all);
  ASSERT_EQ(every.size(), 1000u);
  // Skip 100, read at most 600 of the rest, keep 50 of those.
  auto inner = make_generator("sea", 4, 1000);
  ASSERT_TRUE(inner.is_ok());
  auto sampled = reservoir_sample(std::move(*inner), 50, 9, 100, 600);
  EXPECT_EQ(sampled->schema().feature_names, (*all)->schema().feature_names);
  EXPECT_EQ(sampled->size_hint(), 50u);
  const auto got = rows_of(*sampled);
  EXPECT_TRUE(sampled->status().is_ok());
  const auto chosen = reservoir_indices(600, 50, 9);
  ASSERT_EQ(got.size(), chosen.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].first, every[100 + chosen[i]].first) << i;
    EXPECT_EQ(got[i].second, every[100 + chosen[i]].second) << i;
  }
  // More than there is: every row, in order.
  auto small = make_generator("sea", 4, 30);
  ASSERT_TRUE(small.is_ok());
  auto whole = reservoir_sample(std::move(*small), 100, 9);
  const auto all30 = rows_of(*whole);
  ASSERT_EQ(all30.size(), 30u);
  for (std::size_t i = 0; i < 30; ++i) EXPECT_EQ(all30[i].first, every[i].first);
}

// A stream that fails at row `bad` with a message naming it.
class FailingStream final : public Stream {
 public:
  explicit FailingStream(std::size_t bad) : bad_(bad) { schema_.feature_names = {"a"}; }
  const Schema& schema() const override { return schema_; }
  const Status& status() const override { return status_; }
  bool next(std::span<double> x, double& y) override {
    if (row_ == bad_) {
      status_ = Status::invalid_argument("rows.csv:" + std::to_string(row_ + 2) + ": not a number");
      return false;
    }
    x[0] = static_cast<double>(row_);
    y = static_cast<double>(row_++);
    return true;
  }

 private:
  std::size_t bad_, row_ = 0;
  Schema schema_;
  Status status_ = Status::ok();
};

TEST(Reservoir, AnInnerErrorEndsTheStreamWithItsMessage) {
  auto s = reservoir_sample(std::make_unique<FailingStream>(40), 10, 1);
  std::vector<double> x(1);
  double y = 0.0;
  EXPECT_FALSE(s->next(x, y));
  EXPECT_EQ(s->status().message(), "rows.csv:42: not a number");
  EXPECT_FALSE(s->next(x, y));
}

}  // namespace
}  // namespace irithyll
