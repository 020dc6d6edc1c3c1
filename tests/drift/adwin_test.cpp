// ADWIN specifics: the exponential histogram's invariants, the minimum window,
// and the cut test.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "drift/drift_streams.hpp"
#include "irithyll/drift/adwin.hpp"

namespace irithyll {
namespace {

TEST(Adwin, NoCheckAtOrBelowMinWindow) {
  Adwin d;
  // A huge jump inside the first 32 values: nothing may fire before the first
  // check with |W| > 32.
  for (std::uint64_t i = 0; i < Adwin::kMinWindow; ++i)
    ASSERT_EQ(d.update(i < 16 ? 0.0 : 100.0), DriftSignal::kStable);
  EXPECT_EQ(d.width(), Adwin::kMinWindow);
  int drift_at = -1;
  for (int i = 0; i < 64 && drift_at < 0; ++i)
    if (d.update(100.0) == DriftSignal::kDrift) drift_at = i;
  EXPECT_EQ(drift_at, 31);  // the next clock tick at 64 values
}

// Values whose squares could overflow the buckets' variances are ignored,
// as NaN and inf are: a stream with 1e200 among ordinary values leaves the
// statistics finite, and the detector's record decodes (a record with an
// infinite variance is refused as corrupt, so such a value once made a
// model's checkpoint unloadable).
TEST(Adwin, HugeValuesAreIgnoredAndTheRecordStillDecodes) {
  Adwin d;
  Xorshift64 rng(4);
  for (int i = 0; i < 500; ++i) {
    d.update(i % 50 == 0 ? 1e200 : rng.uniform());
    d.update(-1e300);
  }
  EXPECT_EQ(d.width(), 490u);
  EXPECT_TRUE(std::isfinite(d.variance()));
  EXPECT_LT(d.estimated_mean(), 1.0);
  ByteWriter out;
  d.encode(out);
  Adwin back;
  ByteReader in(out.data());
  EXPECT_TRUE(back.decode(in).is_ok());
  // The bound itself is still learned: 1e100 is kept.
  Adwin edge;
  edge.update(Adwin::kMaxMagnitude);
  EXPECT_EQ(edge.width(), 1u);
}

TEST(Adwin, RowsHoldAtMostMaxBuckets) {
  Adwin d;
  Xorshift64 rng(3);
  for (int i = 1; i <= 100000; ++i) {
    d.update(rng.uniform());
    if (i % 997 != 0) continue;
    for (int r = 0; r < Adwin::kRows; ++r) ASSERT_LE(d.bucket_count_in_row(r), Adwin::kMaxBuckets);
  }
  // Logarithmic memory: at most M buckets per row of sizes 1 .. 2^17.
  EXPECT_LE(d.n_buckets(), Adwin::kMaxBuckets * 18);
}

TEST(Adwin, WindowStatisticsAreExact) {
  // Without a cut, the window is the whole stream: width, mean and variance
  // must match a two-pass computation.
  Adwin d;
  Xorshift64 rng(17);
  std::vector<double> v;
  for (int i = 0; i < 20000; ++i) {
    v.push_back(rng.normal(5.0, 2.0));
    ASSERT_NE(d.update(v.back()), DriftSignal::kDrift);
  }
  double mean = 0.0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double var = 0.0;
  for (double x : v) var += (x - mean) * (x - mean);
  var /= static_cast<double>(v.size());
  EXPECT_EQ(d.width(), v.size());
  EXPECT_NEAR(d.estimated_mean(), mean, 1e-9);
  EXPECT_NEAR(d.variance(), var, 1e-9 * var);
}

TEST(Adwin, CutDropsTheOldWindow) {
  Adwin d;
  Xorshift64 rng(5);
  for (int i = 0; i < 10000; ++i) d.update(rng.normal(0.0, 1.0));
  int drift_at = -1;
  for (int i = 0; i < 2000; ++i)
    if (d.update(rng.normal(3.0, 1.0)) == DriftSignal::kDrift && drift_at < 0) drift_at = i;
  ASSERT_GE(drift_at, 0);
  // After the cut the window holds (mostly) post-change values.
  EXPECT_LT(d.width(), 4000u);
  EXPECT_NEAR(d.estimated_mean(), 3.0, 0.3);
}

TEST(Adwin, ScaleInvariant) {
  // The variance-aware bound makes the detector indifferent to the units of
  // the monitored value (a plain Hoeffding bound assumes values in [0, 1]).
  for (double scale : {1e-3, 1.0, 1e3}) {
    Adwin d;
    Xorshift64 rng(9);
    std::uint64_t false_drifts = 0;
    for (int i = 0; i < 50000; ++i) false_drifts += d.update(scale * rng.normal(1.0, 1.0)) == DriftSignal::kDrift;
    EXPECT_LE(false_drifts, 2u) << "scale " << scale;
  }
}

TEST(Adwin, WarningUsesTwiceDelta) {
  // A warning means "would cut at 2 delta": with a larger delta the detector
  // warns at least as often, and warnings show up before drifts on a ramp.
  int warned_first = 0;
  constexpr int kSeeds = 50;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    Adwin d;
    Xorshift64 rng(static_cast<std::uint64_t>(seed) * 4241u);
    bool warned = false;
    for (int i = 0; i < 20000; ++i) {
      const double mean = i < 5000 ? 0.0 : (i - 5000) * 1e-4;  // slow ramp after 5000
      const DriftSignal s = d.update(rng.normal(mean, 1.0));
      if (s == DriftSignal::kWarning) warned = true;
      if (s == DriftSignal::kDrift) {
        warned_first += warned ? 1 : 0;
        break;
      }
    }
  }
  EXPECT_GE(warned_first, kSeeds / 4);
}

}  // namespace
}  // namespace irithyll
