// The vectorised distance kernel against the row-major reference: the same
// bits (both sum the features in order from 0, without contraction), for
// every count around the vector width and a stride larger than the count.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cluster/centre_table.hpp"
#include "cluster/distance_kernels.hpp"
#include "cluster/tail_quantile.hpp"
#include "irithyll/interval.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll::cluster_detail {
namespace {

TEST(DistanceKernels, SquaredDistancesEqualTheReferenceBitForBit) {
  Xorshift64 rng(3);
  for (std::size_t d : {1u, 2u, 3u, 10u, 17u})
    for (std::size_t n = 0; n <= 40; ++n) {
      const std::size_t stride = n + 5;
      std::vector<double> rows(n * d), cols(stride * d, 99.0), x(d), out(n + 1, -1.0);
      for (double& v : rows) v = rng.normal() * 1e3;
      for (double& v : x) v = rng.normal() * 1e3;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t f = 0; f < d; ++f) cols[f * stride + i] = rows[i * d + f];
      squared_distances(x.data(), cols.data(), stride, n, d, out.data());
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], squared_distance(x.data(), &rows[i * d], d)) << "d " << d << " n " << n << " i " << i;
      EXPECT_EQ(out[n], -1.0) << "wrote past n";
    }
}

TEST(DistanceKernels, WithinRadiusFindsExactlyTheCentresInsideWithTheReferenceBits) {
  Xorshift64 rng(4);
  for (std::size_t d : {1u, 3u, 10u})
    for (std::size_t n = 0; n <= 45; ++n) {
      const std::size_t stride = n + 3;
      std::vector<double> rows(n * d), cols(stride * d, 99.0), x(d, 0.0);
      for (double& v : rows) v = rng.normal();
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t f = 0; f < d; ++f) cols[f * stride + i] = rows[i * d + f];
      // About half the centres inside, and one exactly on the radius (<= counts).
      const double r2 = static_cast<double>(d);
      if (n > 7) {
        for (std::size_t f = 0; f < d; ++f) rows[7 * d + f] = cols[f * stride + 7] = 1.0;
        ASSERT_EQ(squared_distance(x.data(), &rows[7 * d], d), r2);
      }
      std::vector<std::size_t> idx(n + 1, 777);
      std::vector<double> dist(n + 1, -1.0);
      const std::size_t found = within_radius(x.data(), cols.data(), stride, n, d, r2, idx.data(), dist.data());
      std::size_t expect = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const double s = squared_distance(x.data(), &rows[i * d], d);
        if (s > r2) continue;
        ASSERT_LT(expect, found) << "d " << d << " n " << n << " missed centre " << i;
        EXPECT_EQ(idx[expect], i) << "d " << d << " n " << n;
        EXPECT_EQ(dist[expect], s) << "d " << d << " n " << n << " i " << i;
        ++expect;
      }
      EXPECT_EQ(found, expect) << "d " << d << " n " << n;
      EXPECT_EQ(idx[n], 777u) << "wrote past n";
    }
}

TEST(DistanceKernels, ClosePairsMatchTheReference) {
  Xorshift64 rng(8);
  for (std::size_t d : {1u, 3u, 10u})
    for (std::size_t n = 0; n <= 20; ++n)
      for (int trial = 0; trial < 10; ++trial) {
        const std::size_t stride = n + 3 + static_cast<std::size_t>(trial % 2);
        // Padding a copy of point 0: lanes past n must not count.
        std::vector<double> cols(stride * d, 0.0);
        for (std::size_t f = 0; f < d; ++f)
          for (std::size_t i = 0; i < n; ++i) cols[f * stride + i] = static_cast<double>(rng.below(4));
        for (std::size_t f = 0; f < d && n > 0; ++f)
          for (std::size_t i = n; i < stride; ++i) cols[f * stride + i] = cols[f * stride];
        // r2 on a grid value: some pairs exactly at r2 (not close).
        const double r2 = static_cast<double>(d) * 0.5 + static_cast<double>(trial % 3);
        std::vector<std::int64_t> got(n + 3, 7), want(n, 7);
        close_pairs(cols.data(), stride, n, d, r2, got.data());
        close_pairs_ref(cols.data(), stride, n, d, r2, want.data());
        got.resize(n);
        ASSERT_EQ(got, want) << "d " << d << " n " << n << " trial " << trial;
      }
}

TEST(DistanceKernels, NearestLabelledMatchesTheReference) {
  Xorshift64 rng(6);
  for (std::size_t d : {1u, 2u, 5u, 10u})
    for (std::size_t n = 0; n <= 70; ++n)
      for (int trial = 0; trial < 8; ++trial) {
        const std::size_t stride = n + 2;
        std::vector<double> cols(stride * d), x(d);
        // Coarse coordinates make exact ties between centres common, and
        // a spread of 9 lets blocks stop early.
        for (double& v : cols) v = static_cast<double>(rng.below(trial < 4 ? 3 : 9));
        for (double& v : x) v = static_cast<double>(rng.below(3));
        std::vector<std::int64_t> labels(n), order(n);
        for (std::int64_t& l : labels) l = static_cast<std::int64_t>(rng.below(4)) - 1;  // a quarter unlabelled
        // Slots in a shuffled order: ties go to the smaller order value.
        for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::int64_t>(i);
        for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
        if (trial == 1 && n > 0) cols[n / 2] = __builtin_nan("");   // a NaN distance never wins
        if (trial == 2) std::fill(labels.begin(), labels.end(), -1);  // none: -1
        // The bound: none, or the distance of a labelled centre (odd trials).
        double bound = __builtin_inf();
        for (std::size_t i = 0; i < n && trial % 2 == 1; ++i) {
          if (labels[(i * 5) % n] < 0) continue;
          bound = 0.0;
          for (std::size_t f = 0; f < d; ++f) {
            const double t = x[f] - cols[f * stride + (i * 5) % n];
            bound += t * t;
          }
          break;
        }
        const std::int64_t got =
            nearest_labelled(x.data(), cols.data(), stride, n, d, labels.data(), order.data(), bound);
        ASSERT_EQ(got, nearest_labelled_ref(x.data(), cols.data(), stride, n, d, labels.data(), order.data()))
            << "d " << d << " n " << n << " trial " << trial;
        if (trial == 2) {
          EXPECT_EQ(got, -1);
        }
      }
}

TEST(CentreTable, KeepsRowsAndColumnsTogetherThroughGrowthSetAndCompaction) {
  CentreTable t;
  t.reset(3);
  Xorshift64 rng(5);
  std::vector<double> mirror;
  for (int i = 0; i < 70; ++i) {  // past several doublings
    std::vector<double> x = {rng.normal(), rng.normal(), rng.normal()};
    t.push_back(x.data());
    mirror.insert(mirror.end(), x.begin(), x.end());
  }
  const std::vector<double> y = {7.0, 8.0, 9.0};
  t.set(4, y.data());
  std::copy(y.begin(), y.end(), mirror.begin() + 12);
  std::vector<char> keep(70);
  std::vector<double> kept;
  for (std::size_t i = 0; i < 70; ++i) {
    keep[i] = i % 3 != 1;
    if (keep[i]) kept.insert(kept.end(), mirror.begin() + 3 * i, mirror.begin() + 3 * i + 3);
  }
  t.compact(keep);
  ASSERT_EQ(t.size() * 3, kept.size());
  EXPECT_EQ(std::vector<double>(t.rows().begin(), t.rows().end()), kept);
  // Slots in another order: searches still answer in index order.
  std::vector<std::size_t> order(t.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = (s * 7) % order.size();  // 7 is prime to 47
  ASSERT_EQ(t.size(), 47u);
  t.reorder(order);
  const std::vector<double> z = {1.0, 1.0, 1.0};
  t.set(9, z.data());
  std::copy(z.begin(), z.end(), kept.begin() + 27);
  t.compact(std::vector<char>(47, 1));  // a no-op on the contents
  EXPECT_EQ(std::vector<double>(t.rows().begin(), t.rows().end()), kept);
  const std::vector<double> x = {0.5, -0.5, 2.0};
  std::vector<std::size_t> idx(t.size());
  std::vector<double> dist(t.size());
  ASSERT_EQ(t.within(x.data(), 1e300, idx.data(), dist.data()), t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(idx[i], i);
    EXPECT_EQ(dist[i], squared_distance(x.data(), t.row(i), 3));
  }
  // Only the labelled count, and labels follow their centres through
  // reorder (set after it) and new centres (unlabelled).
  EXPECT_EQ(t.nearest_labelled(z.data()), -1);
  std::vector<std::int64_t> labels(47, -1);
  labels[9] = 0;
  labels[30] = 1;
  t.set_labels(labels, std::vector<std::size_t>{30});
  t.push_back(z.data());  // index 47, at z too, unlabelled
  EXPECT_EQ(t.nearest_labelled(z.data()), 9);
  EXPECT_EQ(t.nearest_labelled(t.row(30)), 30);
}

TEST(TailQuantile, AgreesWithTheBisectionQuantile) {
  // CluStream asks for q = m / (2 N) with m = 10, N >= 2 m: q in (0, 0.25].
  for (double n = 20.0; n < 1e9; n *= 1.37) {
    const double q = 10.0 / (2.0 * n);
    const double want = normal_quantile(1.0 - q);
    // normal_quantile works on 1 - q, which carries an absolute error of
    // 1e-16 / pdf(z) in z; the tail form does not, so the bar scales with it.
    const double pdf = std::exp(-0.5 * want * want) / std::sqrt(2.0 * 3.141592653589793);
    EXPECT_NEAR(upper_tail_quantile(q), want, 1e-13 + 4e-16 / pdf) << "q " << q;
  }
  EXPECT_NEAR(upper_tail_quantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(upper_tail_quantile(0.025), 1.959963984540054, 1e-13);
}

}  // namespace
}  // namespace irithyll::cluster_detail
