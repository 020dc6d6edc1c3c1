// Properties of each clusterer: k-means centres move toward the data,
// CluStream's cluster features add, DBStream's weights fade and its
// micro-clusters stay apart; the cluster scores match hand-worked values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cluster_test_util.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/cluster/cluster_metrics.hpp"
#include "irithyll/cluster/clustream.hpp"
#include "irithyll/cluster/dbstream.hpp"
#include "irithyll/cluster/kmeans.hpp"

namespace irithyll {
namespace {

using cluster_test::draw;
using cluster_test::ring;

double distance(std::span<const double> a, std::span<const double> b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

TEST(KMeans, CentresMoveTowardTheData) {
  for (const KMeansUpdate update : {KMeansUpdate::kMean, KMeansUpdate::kHalflife}) {
    KMeansConfig c;
    c.n_clusters = 1;
    c.init = KMeansInit::kGaussian;
    c.update = update;
    KMeans km(c, 3);
    const std::vector<double> x = {4.0, -2.0};
    ASSERT_TRUE(km.learn_one(std::vector<double>{-3.0, 5.0}).is_ok());
    const std::size_t j = static_cast<std::size_t>(km.predict_one(x));
    double before = distance(std::span<const double>(km.centers()).subspan(j * 2, 2), x);
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(km.learn_one(x).is_ok());
      const double now = distance(std::span<const double>(km.centers()).subspan(j * 2, 2), x);
      EXPECT_LT(now, before);
      before = now;
    }
  }
}

TEST(KMeans, HalflifeStepIsRiversConstantFraction) {
  KMeansConfig c;
  c.n_clusters = 1;
  c.init = KMeansInit::kGaussian;
  c.update = KMeansUpdate::kHalflife;
  c.halflife = 0.25;
  KMeans km(c, 1);
  ASSERT_TRUE(km.learn_one(std::vector<double>{0.0}).is_ok());
  const double c0 = km.centers()[0];
  ASSERT_TRUE(km.learn_one(std::vector<double>{8.0}).is_ok());
  EXPECT_DOUBLE_EQ(km.centers()[0], c0 + 0.25 * (8.0 - c0));
}

TEST(KMeans, MeanUpdateIsTheRunningMeanUntilTheWindow) {
  KMeansConfig c;
  c.n_clusters = 1;
  c.init_samples = 1;
  c.window = 0;  // exact running mean
  KMeans km(c, 1);
  double sum = 0.0;
  for (int i = 1; i <= 50; ++i) {
    ASSERT_TRUE(km.learn_one(std::vector<double>{static_cast<double>(i * i)}).is_ok());
    sum += i * i;
    EXPECT_NEAR(km.centers()[0], sum / i, 1e-9 * sum);
  }
}

TEST(KMeans, FindsSeparatedBlobs) {
  const auto mix = ring(5, 4, 10.0, 0.3, 1.0);
  KMeans km({}, 9);
  Xorshift64 rng(9);
  std::vector<double> x;
  for (int i = 0; i < 5000; ++i) {
    draw(mix, rng, x);
    ASSERT_TRUE(km.learn_one(x).is_ok());
  }
  ASSERT_EQ(km.n_clusters(), 5u);
  const std::vector<double> centres = km.centers();
  for (std::size_t j = 0; j < 5; ++j) {
    double best = 1e9;
    for (std::size_t c = 0; c < 5; ++c)
      best = std::min(best, distance(std::span<const double>(centres).subspan(c * 4, 4), std::span<const double>(mix.means).subspan(j * 4, 4)));
    EXPECT_LT(best, 0.3) << "true mean " << j;
  }
}

TEST(CluStream, ClusterFeaturesAreAdditive) {
  ClusterFeature a, b, all;
  for (ClusterFeature* f : {&a, &b, &all}) f->ls.assign(3, 0.0), f->ss.assign(3, 0.0);
  Xorshift64 rng(2);
  for (int i = 0; i < 40; ++i) {
    const std::vector<double> x = {rng.normal(), rng.normal(2, 3), rng.uniform()};
    const double w = 0.5 + rng.uniform(), t = i + 1;
    (i % 3 == 0 ? a : b).absorb(x, w, t);
    all.absorb(x, w, t);
  }
  a.merge(b);
  EXPECT_NEAR(a.n, all.n, 1e-12);
  EXPECT_NEAR(a.lst, all.lst, 1e-9);
  EXPECT_NEAR(a.sst, all.sst, 1e-7);
  for (std::size_t f = 0; f < 3; ++f) {
    EXPECT_NEAR(a.ls[f], all.ls[f], 1e-10);
    EXPECT_NEAR(a.ss[f], all.ss[f], 1e-9);
  }
  EXPECT_NEAR(a.rms_deviation(), all.rms_deviation(), 1e-10);
}

TEST(CluStream, RmsDeviationIsTheRootMeanSquaredDistanceFromTheCentre) {
  ClusterFeature f;
  f.ls.assign(2, 0.0), f.ss.assign(2, 0.0);
  const std::vector<std::vector<double>> pts = {{0, 0}, {2, 0}, {0, 2}, {2, 2}};
  for (const auto& p : pts) f.absorb(p, 1.0, 1.0);
  EXPECT_NEAR(f.rms_deviation(), std::sqrt(2.0), 1e-12);  // every point is sqrt(2) from (1, 1)
}

TEST(CluStream, AbsorbsNearbyPointsAndOpensMicroClustersForDistantOnes) {
  CluStreamConfig c;
  c.max_micro_clusters = 2;
  CluStream cs(c, 1);
  ASSERT_TRUE(cs.learn_one(std::vector<double>{0.0, 0.0}).is_ok());
  ASSERT_TRUE(cs.learn_one(std::vector<double>{10.0, 0.0}).is_ok());
  EXPECT_EQ(cs.micro_clusters().size(), 2u);
  // A singleton's boundary is the distance to its nearest neighbour (10).
  ASSERT_TRUE(cs.learn_one(std::vector<double>{1.0, 0.0}).is_ok());
  EXPECT_EQ(cs.micro_clusters().size(), 2u);
  EXPECT_EQ(cs.micro_clusters()[0].n, 2.0);
  // Far outside every boundary: a new micro-cluster; at the cap of 2 the
  // closest pair merges to make room.
  ASSERT_TRUE(cs.learn_one(std::vector<double>{-50.0, 0.0}).is_ok());
  ASSERT_EQ(cs.micro_clusters().size(), 2u);
  EXPECT_EQ(cs.micro_clusters()[0].n, 3.0);
  EXPECT_EQ(cs.micro_clusters()[1].n, 1.0);
  EXPECT_EQ(cs.micro_clusters()[1].centre(0), -50.0);
}

TEST(CluStream, KeepsAtMostMaxMicroClustersAndDropsStaleOnes) {
  CluStreamConfig c;
  c.max_micro_clusters = 12;
  c.time_window = 500;
  c.n_macro_clusters = 3;
  CluStream cs(c, 4);
  Xorshift64 rng(4);
  std::vector<double> x;
  const auto before = ring(3, 2, 8.0, 0.0, 1.0), after = ring(3, 2, 8.0, 3.14159 / 3, 1.0);
  for (int i = 0; i < 3000; ++i) {
    draw(i < 1500 ? before : after, rng, x);
    ASSERT_TRUE(cs.learn_one(x).is_ok());
    ASSERT_LE(cs.micro_clusters().size(), 12u);
  }
  // 1,500 samples after the jump nothing is left near the old means.
  for (const ClusterFeature& m : cs.micro_clusters()) {
    const std::vector<double> centre = {m.centre(0), m.centre(1)};
    double to_new = 1e9;
    for (std::size_t j = 0; j < 3; ++j) to_new = std::min(to_new, distance(centre, std::span<const double>(after.means).subspan(j * 2, 2)));
    EXPECT_LT(to_new, 4.0);
  }
  EXPECT_EQ(cs.n_clusters(), 3u);
}

TEST(DBStream, WeightsFadeByTheFadingFactor) {
  DBStreamConfig c;
  c.fading_factor = 0.01;
  c.cleanup_interval = 1000000;
  DBStream db(c);
  ASSERT_TRUE(db.learn_one(std::vector<double>{0.0, 0.0}).is_ok());
  // 100 samples far away: the first micro-cluster is untouched for 100 steps.
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(db.learn_one(std::vector<double>{100.0, 0.0}).is_ok());
  EXPECT_NEAR(db.micro_weights()[0], 0.5, 1e-12);  // 2^(-0.01 * 100)
}

// With cleanups far apart, the values are rescaled every 60 / lambda
// samples (here every 60) so that an update never scales a weight past
// 2^60 (without it, 1,100 samples would scale one by 2^1100, past the
// largest double); the faded weights must not notice.
TEST(DBStream, WeightsFadeAcrossRescales) {
  DBStreamConfig c;
  c.fading_factor = 1.0;
  c.cleanup_interval = 1000000;
  DBStream db(c);
  ASSERT_TRUE(db.learn_one(std::vector<double>{0.0, 0.0}).is_ok());
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(db.learn_one(std::vector<double>{100.0, 0.0}).is_ok());
  EXPECT_NEAR(db.micro_weights()[0] / std::exp2(-50.0), 1.0, 1e-12);
  for (int i = 0; i < 1050; ++i) ASSERT_TRUE(db.learn_one(std::vector<double>{100.0, 0.0}).is_ok());
  // The far one gained weight 1 per sample: the sum of 2^(-k) over k < 1100.
  EXPECT_NEAR(db.micro_weights()[1], 2.0, 1e-12);
}

// A hand-written DBStream checkpoint starts with its settings (by name, from
// its field table) and seed (42).
void write_dbstream_header(ByteWriter& w, const DBStreamConfig& c) {
  encode_config(dbstream_config_fields(), c, w, ConfigLengths::kVarint);
  w.u64(42);
}

// Checkpoint format 1 wrote the settings as fixed binary fields; such a
// record still decodes (decode_v1), to the same model.
TEST(DBStream, FormatOneSettingsStillDecode) {
  DBStreamConfig c;
  c.cleanup_interval = 8;
  c.fading_factor = 0.02;
  ByteWriter w;
  w.f64(c.clustering_threshold);
  w.f64(c.fading_factor);
  w.u64(c.cleanup_interval);
  w.f64(c.intersection_factor);
  w.f64(c.minimum_weight);
  w.f64(c.minimum_share);
  w.u64(42);
  w.u64(1), w.u64(10), w.u64(0);             // width, samples, ignored
  w.u64(1);                                  // next id
  w.u64s(std::vector<std::uint64_t>{0});     // ids
  w.f64s(std::vector<double>{1.0});          // centres
  w.f64s(std::vector<double>{3.0});          // weights ...
  w.u64s(std::vector<std::uint64_t>{9});     // ... at time 9
  w.u64(0);                                  // no shared densities
  w.u64(0);                                  // labels
  w.f64s(std::vector<double>{});
  w.f64s(std::vector<double>{});
  DBStream v1;
  ByteReader r(w.data());
  ASSERT_TRUE(v1.decode_v1(r).is_ok());
  EXPECT_TRUE(r.at_end());
  bool fading = false;
  const ModelSettings settings = v1.settings();
  for (const auto& [name, value] : settings.items()) fading = fading || (name == "fading-factor" && value == "0.02");
  EXPECT_TRUE(fading);
  EXPECT_EQ(v1.seed(), 42u);
  // The same bytes are not a current record.
  DBStream current;
  ByteReader r2(w.data());
  EXPECT_FALSE(current.decode(r2).is_ok());
}

// A checkpoint holds (value, time of last update) pairs at any past times;
// decode fades each from its own time.
TEST(DBStream, DecodeFadesEachValueFromItsOwnTime) {
  ByteWriter w;
  DBStreamConfig c;
  c.cleanup_interval = 8;
  write_dbstream_header(w, c);
  w.u64(1), w.u64(10), w.u64(0);                    // width, samples, ignored
  w.u64(2);                                         // next id
  w.u64s(std::vector<std::uint64_t>{0, 1});         // ids
  w.f64s(std::vector<double>{0.0, 5.0});            // centres
  w.f64s(std::vector<double>{3.0, 2.0});            // weights ...
  w.u64s(std::vector<std::uint64_t>{3, 9});         // ... at times 3 and 9
  w.u64(1), w.u64(0), w.u64(1), w.f64(1.5), w.u64(5);  // s_01 = 1.5 at time 5
  w.u64(0);                                         // labels
  w.f64s(std::vector<double>{});
  w.f64s(std::vector<double>{});
  DBStream db;
  ByteReader r(w.data());
  ASSERT_TRUE(db.decode(r).is_ok());
  const std::vector<double> weights = db.micro_weights();
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_NEAR(weights[0], 3.0 * std::exp2(-0.01 * 7), 1e-14);
  EXPECT_NEAR(weights[1], 2.0 * std::exp2(-0.01 * 1), 1e-14);
  // Written back, every value is at one time (the last cleanup, t = 8) and
  // fades the same from there.
  ByteWriter again;
  db.encode(again);
  DBStream back;
  ByteReader r2(again.data());
  ASSERT_TRUE(back.decode(r2).is_ok());
  EXPECT_EQ(back.micro_weights(), weights);
  ByteWriter third;
  back.encode(third);
  EXPECT_EQ(third.data(), again.data());
  // Both learn on identically (2.5 is out of both micro-clusters' reach);
  // the macro rebuild joins the two: s_01 / mean weight = 1.5 2^(-0.06) /
  // ((2.8 + 2.0) / 2), about 0.6 >= 0.3.
  ASSERT_TRUE(db.learn_one(std::vector<double>{2.5}).is_ok());
  ASSERT_TRUE(back.learn_one(std::vector<double>{2.5}).is_ok());
  EXPECT_EQ(db.micro_weights(), back.micro_weights());
  EXPECT_EQ(db.n_clusters(), 1u);
}

TEST(DBStream, OnePointMicroClusterSurvivesOneCleanup) {
  DBStreamConfig c;
  c.cleanup_interval = 10;
  DBStream db(c);
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(db.learn_one(std::vector<double>{0.0, 0.0}).is_ok());
  ASSERT_TRUE(db.learn_one(std::vector<double>{50.0, 0.0}).is_ok());  // t = 10: cleanup
  EXPECT_EQ(db.n_micro_clusters(), 2u);
  // Untouched, it falls below w_weak = 2^(-lambda t_gap) after t_gap samples
  // and goes at the cleanup after that.
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(db.learn_one(std::vector<double>{0.0, 0.0}).is_ok());
  EXPECT_EQ(db.n_micro_clusters(), 1u);
}

TEST(DBStream, SharedDensityJoinsABlobAndSeparatesTwo) {
  DBStreamConfig c;
  c.clustering_threshold = 1.0;
  DBStream db(c, 1);
  const auto mix = ring(2, 2, 6.0, 0.0, 0.8);
  Xorshift64 rng(5);
  std::vector<double> x;
  for (int i = 0; i < 4000; ++i) {
    draw(mix, rng, x);
    ASSERT_TRUE(db.learn_one(x).is_ok());
  }
  EXPECT_GT(db.n_micro_clusters(), 4u);  // each blob spans several micro-clusters
  EXPECT_EQ(db.n_clusters(), 2u);
  // Centres never come within r of each other.
  const std::span<const double> mc = db.micro_centers();
  for (std::size_t i = 0; i < db.n_micro_clusters(); ++i)
    for (std::size_t j = i + 1; j < db.n_micro_clusters(); ++j)
      EXPECT_GE(distance(mc.subspan(i * 2, 2), mc.subspan(j * 2, 2)), 1.0 - 1e-12);
  EXPECT_NE(db.predict_one(std::vector<double>{6.0, 0.0}), db.predict_one(std::vector<double>{-6.0, 0.0}));
}

TEST(ClusterMetrics, MatchHandWorkedValues) {
  const std::vector<std::int64_t> labels = {0, 0, 0, 1, 1, 1};
  EXPECT_DOUBLE_EQ(cluster_purity(std::vector<std::int64_t>{5, 5, 5, 7, 7, 7}, labels), 1.0);
  EXPECT_DOUBLE_EQ(adjusted_rand_index(std::vector<std::int64_t>{5, 5, 5, 7, 7, 7}, labels), 1.0);
  EXPECT_DOUBLE_EQ(cluster_purity(std::vector<std::int64_t>{0, 0, 1, 1, 1, 1}, labels), 5.0 / 6.0);
  // scikit-learn: adjusted_rand_score([0,0,0,1,1,1], [0,0,1,1,2,2]) = 0.24242424...
  EXPECT_NEAR(adjusted_rand_index(std::vector<std::int64_t>{0, 0, 1, 1, 2, 2}, labels), 0.24242424242424243, 1e-12);
  // Two tight pairs far apart: s = 1 - a/b, a = 1, b = mean distance to the other pair.
  const std::vector<double> pts = {0, 0, 1, 0, 10, 0, 11, 0};
  const std::vector<std::int64_t> ids = {0, 0, 1, 1};
  const double b0 = (10.0 + 11.0) / 2.0, b1 = (9.0 + 10.0) / 2.0;
  const double expect = ((1 - 1 / b0) + (1 - 1 / b1) + (1 - 1 / b1) + (1 - 1 / b0)) / 4.0;
  EXPECT_NEAR(silhouette_score(pts, 2, ids), expect, 1e-12);
  EXPECT_EQ(silhouette_score(pts, 2, std::vector<std::int64_t>{0, 0, 0, 0}), 0.0);
}

}  // namespace
}  // namespace irithyll

namespace irithyll {
namespace {

// Found by fuzz/cluster_checkpoint_fuzz.cpp: micro-cluster arrays of
// different lengths were read past their end while being validated.
TEST(DBStream, DecodeRefusesMicroClusterArraysOfDifferentLengths) {
  ByteWriter w;
  write_dbstream_header(w, DBStreamConfig{});
  w.u64(2), w.u64(10), w.u64(0);               // width, samples, ignored
  w.u64(100);                                  // next id
  w.u64s(std::vector<std::uint64_t>{1, 2, 3});  // three ids ...
  w.f64s(std::vector<double>{});               // ... and no centres, weights or times
  w.f64s(std::vector<double>{});
  w.u64s(std::vector<std::uint64_t>{});
  w.u64(0), w.u64(0);
  w.f64s(std::vector<double>{});
  w.f64s(std::vector<double>{});
  DBStream db;
  ByteReader r(w.data());
  const Status s = db.decode(r);
  EXPECT_EQ(s.code(), StatusCode::kCorruption) << s.message();
  EXPECT_EQ(db.n_micro_clusters(), 0u);
}

}  // namespace
}  // namespace irithyll
