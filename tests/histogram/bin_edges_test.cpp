#include "histogram/bin_edges.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "histogram/feature_binner.hpp"
#include "histogram/quantile_sketch.hpp"

namespace irithyll {
namespace {

TEST(BinEdges, UniformOneToNineWithFourBins) {
  FeatureBinner b(BinStrategy::kUniform, 4);
  for (int v = 1; v <= 9; ++v) b.observe(v);
  const BinEdges e = b.compute_edges();
  ASSERT_EQ(e.n_bins(), 4u);
  EXPECT_DOUBLE_EQ(e.edges()[0], 3.0);
  EXPECT_DOUBLE_EQ(e.edges()[1], 5.0);
  EXPECT_DOUBLE_EQ(e.edges()[2], 7.0);
  EXPECT_TRUE(e.is_uniform());
}

TEST(BinEdges, DegenerateRangeGivesSingleEdgeAtMin) {
  FeatureBinner b(BinStrategy::kUniform, 8);
  for (int i = 0; i < 10; ++i) b.observe(2.5);
  const BinEdges e = b.compute_edges();
  ASSERT_EQ(e.edges().size(), 1u);
  EXPECT_DOUBLE_EQ(e.edges()[0], 2.5);
  EXPECT_EQ(e.find_bin(2.5), 0u);
  EXPECT_EQ(e.find_bin(2.6), 1u);
  EXPECT_EQ(FeatureBinner().compute_edges().n_bins(), 1u);  // nothing observed
}

TEST(BinEdges, EdgeValueGoesToTheLowerBinMatchingLessOrEqualRouting) {
  const double edges[] = {3.0, 5.0, 7.0};
  const BinEdges e = BinEdges::from_edges(edges);
  EXPECT_EQ(e.find_bin(3.0), 0u);  // x <= 3 routes left of threshold 3 -> bin 0
  EXPECT_EQ(e.find_bin(3.0000001), 1u);
  EXPECT_EQ(e.find_bin(-1e300), 0u);
  EXPECT_EQ(e.find_bin(1e300), 3u);
  EXPECT_EQ(e.find_bin(std::numeric_limits<double>::infinity()), 3u);
  for (std::uint32_t b = 0; b + 1 < e.n_bins(); ++b) EXPECT_EQ(e.find_bin(e.upper_edge(b)), b);
}

TEST(BinEdges, UniformFastPathEqualsBinarySearch) {
  Xorshift64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const double lo = rng.uniform(-1e3, 1e3);
    const double hi = lo + std::pow(10.0, rng.uniform(-6, 6));
    const auto n = static_cast<std::uint32_t>(2 + rng.below(100));
    const BinEdges e = BinEdges::uniform(lo, hi, n);
    ASSERT_EQ(e.n_bins(), n);
    for (int i = 0; i < 500; ++i) {
      const double v = rng.uniform(lo - (hi - lo) * 0.2, hi + (hi - lo) * 0.2);
      ASSERT_EQ(e.find_bin(v), e.find_bin_ref(v)) << v;
    }
    for (double edge : e.edges()) {  // exact edges and their neighbours
      for (double v : {edge, std::nextafter(edge, -1e308), std::nextafter(edge, 1e308)})
        ASSERT_EQ(e.find_bin(v), e.find_bin_ref(v)) << v;
    }
    ASSERT_EQ(e.find_bin(-std::numeric_limits<double>::infinity()), 0u);
    ASSERT_EQ(e.find_bin(std::numeric_limits<double>::infinity()), n - 1);
  }
}

TEST(BinEdges, EncodeDecodeRoundTripAndRejectsUnsortedEdges) {
  const BinEdges e = BinEdges::uniform(0.0, 10.0, 5);
  ByteWriter w;
  e.encode(w);
  ByteReader r(w.data());
  BinEdges d;
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.n_bins(), 5u);
  EXPECT_TRUE(d.is_uniform());
  EXPECT_EQ(d.find_bin(4.0), e.find_bin(4.0));

  ByteWriter bad;
  bad.f64s(std::vector<double>{2.0, 1.0});
  bad.boolean(false);
  bad.f64(0);
  bad.f64(0);
  ByteReader br(bad.data());
  EXPECT_FALSE(d.decode(br).is_ok());
  EXPECT_EQ(d.n_bins(), 5u);  // unchanged on failure
}

TEST(QuantileSketch, EpsilonRankGuarantee) {
  for (double eps : {0.01, 0.05}) {
    for (int order = 0; order < 2; ++order) {
      QuantileSketch s(eps);
      std::vector<int> values(1000);
      for (int i = 0; i < 1000; ++i) values[i] = i;
      if (order == 1) {
        Xorshift64 rng(3);
        for (std::size_t i = values.size() - 1; i > 0; --i) std::swap(values[i], values[rng.below(i + 1)]);
      }
      for (int v : values) s.insert(v);
      EXPECT_LT(s.size(), 1000u / 2);  // it actually summarises
      for (double phi = 0.0; phi <= 1.0; phi += 0.01) {
        const double q = s.quantile(phi);
        // value v has rank v+1 in 0..999
        EXPECT_LE(std::abs((q + 1.0) - std::ceil(phi * 1000.0)), eps * 1000.0 + 1.0) << "phi " << phi;
      }
    }
  }
}

TEST(QuantileSketch, RejectsEpsilonOutsideUnitInterval) {
  EXPECT_FALSE(QuantileSketch::make(0.0).is_ok());
  EXPECT_FALSE(QuantileSketch::make(1.0).is_ok());
  EXPECT_FALSE(QuantileSketch::make(-0.5).is_ok());
  EXPECT_TRUE(QuantileSketch::make(0.1).is_ok());
}

TEST(FeatureBinner, QuantileEdgesFollowTheDistribution) {
  FeatureBinner b(BinStrategy::kQuantile, 4);
  Xorshift64 rng(11);
  for (int i = 0; i < 4000; ++i) b.observe(std::exp(rng.normal()));  // skewed
  const BinEdges e = b.compute_edges();
  ASSERT_EQ(e.n_bins(), 4u);
  EXPECT_FALSE(e.is_uniform());
  // The middle edge is the sketch's median: its true CDF (log-normal) must be
  // within the sketch epsilon 1/(4*4) plus sampling noise of 1/2.
  const double cdf = 0.5 * std::erfc(-std::log(e.edges()[1]) / std::sqrt(2.0));
  EXPECT_NEAR(cdf, 0.5, 1.0 / 16 + 0.03);
}

TEST(FeatureBinner, CategoricalMidpointsAndCap) {
  FeatureBinner b(BinStrategy::kCategorical, 64);
  for (double v : {3.0, 1.0, 2.0, 1.0, 3.7}) b.observe(v);
  const BinEdges e = b.compute_edges();
  ASSERT_EQ(e.edges().size(), 2u);
  EXPECT_DOUBLE_EQ(e.edges()[0], 1.5);
  EXPECT_DOUBLE_EQ(e.edges()[1], 2.5);
  FeatureBinner many(BinStrategy::kCategorical, 64);
  for (int c = 0; c < 100; ++c) many.observe(c);
  EXPECT_EQ(many.compute_edges().n_bins(), kMaxCategories);
}

TEST(FeatureBinner, IgnoresNonFiniteValues) {
  FeatureBinner b(BinStrategy::kUniform, 4);
  b.observe(std::nan(""));
  b.observe(std::numeric_limits<double>::infinity());
  EXPECT_EQ(b.count(), 0u);
  b.observe(1.0);
  b.observe(5.0);
  EXPECT_EQ(b.compute_edges().edges()[0], 2.0);
  EXPECT_TRUE(parse_bin_strategy("quantile").is_ok());
  EXPECT_TRUE(parse_bin_strategy("kmeans").is_ok());
  EXPECT_FALSE(parse_bin_strategy("k-medians").is_ok());
}

// Three tight groups of values far apart: k-means with 3 bins puts one edge
// in each gap (at the midpoint of the group means), where uniform edges at
// thirds of the range would cut the middle group's neighbourhood and leave
// the gaps unresolved.
TEST(FeatureBinner, KMeansEdgesFallInTheGapsBetweenGroups) {
  FeatureBinner b(BinStrategy::kKMeans, 3);
  Xorshift64 rng(5);
  double sums[3] = {0, 0, 0};
  const double centre[3] = {0.0, 1.0, 10.0};
  for (int i = 0; i < 300; ++i) {
    const int g = i % 3;
    const double v = centre[g] + 0.05 * rng.normal();
    sums[g] += v;
    b.observe(v);
  }
  const BinEdges e = b.compute_edges();
  ASSERT_EQ(e.edges().size(), 2u);
  const double m0 = sums[0] / 100, m1 = sums[1] / 100, m2 = sums[2] / 100;
  EXPECT_NEAR(e.edges()[0], 0.5 * (m0 + m1), 1e-12);
  EXPECT_NEAR(e.edges()[1], 0.5 * (m1 + m2), 1e-12);
}

// Lloyd's fixed point on a brute-force check: every value is nearer its own
// centre than any other, each centre is its cell's mean, and the edges are
// the midpoints (so no edge cuts a run of equal values).
TEST(FeatureBinner, KMeansEdgesAreAFixedPointOfLloyd) {
  Xorshift64 rng(8);
  std::vector<double> values;
  for (int i = 0; i < 2000; ++i) values.push_back(std::floor(std::exp(1.5 * rng.normal()) * 4.0) / 4.0);
  std::vector<double> sorted = values;
  const std::vector<double> edges = kmeans_edges(sorted, 16);
  ASSERT_GE(edges.size(), 4u);
  ASSERT_TRUE(std::is_sorted(edges.begin(), edges.end()));
  // Cells by the edges; centres as their means; edges must be the midpoints.
  std::vector<double> sum(edges.size() + 1, 0.0), count(edges.size() + 1, 0.0);
  for (double v : values) {
    const std::size_t c = static_cast<std::size_t>(std::lower_bound(edges.begin(), edges.end(), v) - edges.begin());
    sum[c] += v, count[c] += 1;
  }
  for (std::size_t j = 0; j < edges.size(); ++j) {
    ASSERT_GT(count[j], 0.0);
    ASSERT_GT(count[j + 1], 0.0);
    EXPECT_NEAR(edges[j], 0.5 * (sum[j] / count[j] + sum[j + 1] / count[j + 1]), 1e-9) << "edge " << j;
  }
  // Degenerate inputs: one distinct value gives no edge.
  std::vector<double> same(50, 2.5);
  EXPECT_TRUE(kmeans_edges(same, 8).empty());
}

TEST(FeatureBinner, KMeansStateRoundTripsAndRefusesHostileValues) {
  FeatureBinner b(BinStrategy::kKMeans, 8);
  for (int i = 0; i < 100; ++i) b.observe(i * 0.37);
  ByteWriter out;
  b.encode(out);
  FeatureBinner c;
  ByteReader in(out.data());
  ASSERT_TRUE(c.decode(in).is_ok());
  EXPECT_EQ(c.compute_edges().edges().size(), b.compute_edges().edges().size());
  for (std::size_t i = 0; i < b.compute_edges().edges().size(); ++i)
    EXPECT_EQ(c.compute_edges().edges()[i], b.compute_edges().edges()[i]);
  // A value outside the recorded range is refused.
  std::vector<std::uint8_t> bad = out.data();
  const double outside = 1e9;
  std::memcpy(bad.data() + bad.size() - sizeof(double), &outside, sizeof(double));
  FeatureBinner d;
  ByteReader hostile(bad);
  EXPECT_FALSE(d.decode(hostile).is_ok());
}

}  // namespace
}  // namespace irithyll
