// Half-Space Trees: detection quality on planted anomalies, checkpoints,
// missing values, refused widths, settings.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/anomaly/half_space_trees.hpp"
#include "irithyll/anomaly/planted.hpp"
#include "irithyll/anomaly/ranking.hpp"
#include "irithyll/anomaly/registry.hpp"

namespace irithyll {
namespace {

std::unique_ptr<AnomalyDetector> make_hst(ModelSettings settings = {}, std::uint64_t seed = 42) {
  auto made = make_anomaly_detector("half_space_trees", settings, AnomalyContext{0, seed});
  EXPECT_TRUE(made.is_ok()) << made.status().message();
  return std::move(made).value();
}

// Score-then-learn over the stream; returns the scores.
std::vector<double> run(AnomalyDetector& d, const PlantedStream& s, std::size_t from = 0, std::size_t to = SIZE_MAX) {
  const std::size_t n = std::min(to, s.label.size());
  std::vector<double> scores;
  for (std::size_t r = from; r < n; ++r) {
    std::span<const double> x(s.x.data() + r * s.dims, s.dims);
    scores.push_back(d.score_one(x));
    d.learn_one(x);
  }
  return scores;
}

// The bar: River's documented HalfSpaceTrees example reaches ROC AUC about
// 0.91 on its credit-card data; we ask at least that on the planted stream
// (8 dims, 3 clusters, 1% uniform-box anomalies, 20,000 samples, scored
// after the first window). Over seeds 1..20 the lowest AUC was 0.974 (mean
// about 0.985), 0.06 above the bar, so a false failure on the 5 seeds
// checked here is not expected (rate well below 1e-3).
TEST(HalfSpaceTrees, RocAucOnPlantedAnomaliesBeatsRiversFigure) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const PlantedStream s = planted_anomalies(20000, 8, 0.01, seed);
    auto hst = make_hst({}, seed);
    const std::vector<double> scores = run(*hst, s);
    const std::size_t skip = 250;  // the first window has no reference
    const std::span<const double> sc(scores.data() + skip, scores.size() - skip);
    const std::span<const std::uint8_t> lb(s.label.data() + skip, s.label.size() - skip);
    const double auc = roc_auc(sc, lb);
    const double ap = average_precision(sc, lb);
    std::printf("seed %llu: ROC AUC %.4f, PR AUC %.4f\n", static_cast<unsigned long long>(seed), auc, ap);
    EXPECT_GE(auc, 0.91) << "seed " << seed;
  }
}

TEST(HalfSpaceTrees, FirstWindowScoresZeroThenOutlierScoresHigher) {
  const PlantedStream s = planted_anomalies(1000, 4, 0.0, 3);
  auto hst = make_hst({{"window-size", "100"}});
  for (std::size_t r = 0; r < 100; ++r) {
    std::span<const double> x(s.x.data() + r * 4, 4);
    EXPECT_EQ(hst->score_one(x), 0.0);
    hst->learn_one(x);
  }
  run(*hst, s, 100, 500);
  const std::vector<double> normal(s.x.begin() + 600 * 4, s.x.begin() + 601 * 4);
  const std::vector<double> far = {100.0, -100.0, 100.0, -100.0};
  const double a = hst->score_one(normal), b = hst->score_one(far);
  EXPECT_GE(a, 0.0);
  EXPECT_LE(b, 1.0);
  EXPECT_GT(b, a);
}

TEST(HalfSpaceTrees, CheckpointContinuesBitIdentically) {
  const PlantedStream s = planted_anomalies(3000, 5, 0.02, 9);
  for (const char* limits : {"first-window", "unit"}) {
    for (std::size_t cut : {std::size_t{0}, std::size_t{120}, std::size_t{1300}}) {
      auto a = make_hst({{"limits", limits}, {"window-size", "200"}}, 5);
      run(*a, s, 0, cut);
      ByteWriter w;
      encode_anomaly_detector(*a, w);
      auto b = decode_anomaly_detector(w.data());
      ASSERT_TRUE(b.is_ok()) << b.status().message();
      const auto ra = run(*a, s, cut), rb = run(**b, s, cut);
      ASSERT_EQ(ra.size(), rb.size());
      for (std::size_t i = 0; i < ra.size(); ++i) ASSERT_EQ(ra[i], rb[i]) << limits << " cut " << cut << " row " << i;
      EXPECT_EQ(a->n_samples_seen(), (*b)->n_samples_seen());
    }
  }
}

TEST(HalfSpaceTrees, HostileBytesAreRefused) {
  const PlantedStream s = planted_anomalies(600, 3, 0.02, 2);
  auto a = make_hst({{"window-size", "100"}, {"height", "3"}, {"n-trees", "2"}});
  run(*a, s);
  ByteWriter w;
  encode_anomaly_detector(*a, w);
  std::vector<std::uint8_t> bytes(w.data().begin(), w.data().end());
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7)
    EXPECT_FALSE(decode_anomaly_detector(std::span(bytes.data(), cut)).is_ok()) << cut;
  std::uint64_t refused = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    auto copy = bytes;
    copy[i] ^= 0xFF;
    auto d = decode_anomaly_detector(copy);  // must not crash; may decode (a changed split)
    if (!d.is_ok()) ++refused;
    else (void)(*d)->score_one(std::span(s.x.data(), 3));
  }
  EXPECT_GT(refused, 0u);
}

TEST(HalfSpaceTrees, ResetEqualsFreshAndSeedDetermines) {
  const PlantedStream s = planted_anomalies(1500, 4, 0.01, 4);
  auto a = make_hst({}, 11), b = make_hst({}, 11), c = make_hst({}, 12);
  run(*a, s);
  a->reset();
  const auto ra = run(*a, s), rb = run(*b, s), rc = run(*c, s);
  EXPECT_EQ(ra, rb);
  EXPECT_NE(rb, rc);
}

TEST(HalfSpaceTrees, MissingValuesNeverCorrupt) {
  const PlantedStream s = planted_anomalies(2000, 4, 0.01, 6);
  auto hst = make_hst({{"window-size", "100"}});
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < 2000; ++r) {
    std::vector<double> x(s.x.begin() + r * 4, s.x.begin() + (r + 1) * 4);
    if (r % 7 == 0) x[r % 4] = nan;
    if (r % 11 == 0) x[(r + 1) % 4] = inf;
    if (r % 13 == 0) x = {nan, nan, nan, nan};
    const double score = hst->score_one(x);
    ASSERT_TRUE(std::isfinite(score)) << r;
    ASSERT_GE(score, 0.0);
    ASSERT_LE(score, 1.0);
    hst->learn_one(x);
  }
  EXPECT_EQ(hst->n_skipped(), 0u);
}

TEST(HalfSpaceTrees, WrongWidthIsRefusedAndSkipped) {
  auto hst = make_hst({{"window-size", "10"}});
  const std::vector<double> three = {0.1, 0.2, 0.3}, two = {0.1, 0.2};
  EXPECT_TRUE(hst->check_sample(three).is_ok());
  hst->learn_one(three);
  const Status s = hst->check_sample(two);
  EXPECT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("expects 3"), std::string::npos) << s.message();
  hst->learn_one(two);
  hst->learn_one({});
  EXPECT_EQ(hst->n_skipped(), 2u);
  EXPECT_EQ(hst->score_one(two), 0.0);
  EXPECT_FALSE(hst->check_sample({}).is_ok());
}

TEST(HalfSpaceTrees, SettingsAreCheckedByName) {
  EXPECT_FALSE(make_anomaly_detector("half_space_trees", {{"n-trees", "0"}}, {}).is_ok());
  EXPECT_FALSE(make_anomaly_detector("half_space_trees", {{"height", "21"}}, {}).is_ok());
  EXPECT_FALSE(make_anomaly_detector("half_space_trees", {{"limits", "sideways"}}, {}).is_ok());
  EXPECT_FALSE(make_anomaly_detector("half_space_trees", {{"bogus", "1"}}, {}).is_ok());
  const auto big = make_anomaly_detector("half_space_trees", {{"n-trees", "1000"}, {"height", "20"}}, {});
  ASSERT_FALSE(big.is_ok());
  EXPECT_NE(big.status().message().find("2^24"), std::string::npos);
  const auto unknown = make_anomaly_detector("isolation_forest", {}, {});
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.status().message().find("half_space_trees"), std::string::npos);
  EXPECT_NE(anomaly_catalogue_json().find("\"window_size\""), std::string::npos);
}

TEST(HalfSpaceTrees, MemoryIsFixedAfterTheFirstWindow) {
  const PlantedStream s = planted_anomalies(5000, 6, 0.01, 8);
  auto hst = make_hst();
  run(*hst, s, 0, 1000);
  const std::size_t m = hst->memory_bytes();
  run(*hst, s, 1000);
  EXPECT_EQ(hst->memory_bytes(), m);
  EXPECT_GT(m, 10u * 511u * 16u);
}

}  // namespace
}  // namespace irithyll
