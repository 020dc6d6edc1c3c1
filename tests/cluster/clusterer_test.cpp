// One harness for every clusterer in the registry: checkpoints resume
// bit-identically, hostile bytes are refused, missing values are ignored
// without touching the state, a wrong width is refused, the same seed gives
// the same model, and reset() gives a fresh one.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cluster_test_util.hpp"
#include "irithyll/cluster/registry.hpp"

namespace irithyll {
namespace {

using cluster_test::draw;
using cluster_test::ring;

// Settings that make each model active on the test mixture (radius 6,
// sigma 1): several macro clusters, cleanups and merges within 3,000 rows.
ModelSettings settings_for(const std::string& name) {
  if (name == "kmeans") return {{"n-clusters", "4"}, {"init-samples", "64"}};
  if (name == "clustream") return {{"n-macro-clusters", "4"}, {"max-micro-clusters", "20"}, {"time-gap", "50"}};
  return {{"clustering-threshold", "1.2"}, {"cleanup-interval", "40"}};
}

class ClustererHarness : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Clusterer> make(std::uint64_t seed = 7) const {
    auto m = make_clusterer(GetParam(), settings_for(GetParam()), seed);
    EXPECT_TRUE(m.is_ok()) << m.status().message();
    return std::move(m).value();
  }
  static void feed(Clusterer& model, std::uint64_t seed, int n) {
    Xorshift64 rng(seed);
    const auto mix = ring(4, 3, 6.0, 0.0, 1.0);
    std::vector<double> x;
    for (int i = 0; i < n; ++i) {
      draw(mix, rng, x);
      ASSERT_TRUE(model.learn_one(x, 1.0 + 0.5 * (i % 3)).is_ok());
    }
  }
};

TEST_P(ClustererHarness, ResumeFromCheckpointIsBitIdentical) {
  auto a = make();
  feed(*a, 1, 3000);
  const std::vector<std::uint8_t> bytes = save_clusterer(*a);
  auto loaded = load_clusterer(bytes);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  auto b = std::move(loaded).value();
  EXPECT_EQ(save_clusterer(*b), bytes);
  feed(*a, 2, 2000);
  feed(*b, 2, 2000);
  EXPECT_EQ(save_clusterer(*a), save_clusterer(*b));
  EXPECT_EQ(a->centers(), b->centers());
  Xorshift64 rng(3);
  std::vector<double> x;
  for (int i = 0; i < 200; ++i) {
    draw(ring(4, 3, 6.0, 0.0, 1.0), rng, x);
    EXPECT_EQ(a->predict_one(x), b->predict_one(x));
  }
}

TEST_P(ClustererHarness, DecodeIntoBlankContinuesIdentically) {
  auto a = make();
  feed(*a, 4, 1500);
  ByteWriter w;
  a->encode(w);
  auto blank = find_clusterer(GetParam())->make_blank();
  ByteReader r(w.data());
  ASSERT_TRUE(blank->decode(r).is_ok());
  EXPECT_TRUE(r.at_end());
  feed(*a, 5, 1500);
  feed(*blank, 5, 1500);
  EXPECT_EQ(save_clusterer(*a), save_clusterer(*blank));
}

TEST_P(ClustererHarness, HostileBytesAreRefused) {
  auto a = make();
  feed(*a, 6, 800);
  const std::vector<std::uint8_t> bytes = save_clusterer(*a);
  // Every truncation of the checkpoint is refused.
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 64)
    EXPECT_FALSE(load_clusterer(std::span(bytes).first(n)).is_ok()) << n;
  // A flipped byte is caught by the checksum.
  std::vector<std::uint8_t> flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x40;
  EXPECT_FALSE(load_clusterer(flipped).is_ok());
  // Without the checksum, decode() itself must survive any damage: it may
  // accept a plausible state, but never crashes, hangs or over-allocates.
  ByteWriter w;
  a->encode(w);
  Xorshift64 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<std::uint8_t> damaged = w.data();
    for (int k = 0; k < 3; ++k) damaged[rng.below(damaged.size())] ^= static_cast<std::uint8_t>(1u << rng.below(8));
    auto blank = find_clusterer(GetParam())->make_blank();
    ByteReader r(damaged);
    if (blank->decode(r).is_ok()) {
      std::vector<double> x = {0.0, 1.0, 2.0};
      (void)blank->predict_one(x);
      (void)blank->learn_one(x);
    }
  }
}

TEST_P(ClustererHarness, MissingValuesAreIgnoredWithoutTouchingState) {
  auto a = make(), b = make();
  feed(*a, 8, 1000);
  feed(*b, 8, 1000);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> bad = {1.0, nan, 2.0}, inf = {std::numeric_limits<double>::infinity(), 0.0, 0.0};
  EXPECT_TRUE(a->learn_one(bad).is_ok());
  EXPECT_TRUE(a->learn_one(inf).is_ok());
  EXPECT_TRUE(a->learn_one(std::vector<double>{1.0, 2.0, 3.0}, nan).is_ok());
  EXPECT_TRUE(a->learn_one(std::vector<double>{1.0, 2.0, 3.0}, 0.0).is_ok());
  EXPECT_EQ(a->n_ignored(), 4u);
  EXPECT_EQ(a->n_samples_seen(), b->n_samples_seen());
  EXPECT_EQ(a->centers(), b->centers());
  EXPECT_EQ(a->predict_one(bad), -1);
  feed(*a, 9, 500);
  feed(*b, 9, 500);
  EXPECT_EQ(a->centers(), b->centers());
}

TEST_P(ClustererHarness, WrongWidthIsRefused) {
  auto a = make();
  feed(*a, 10, 500);
  const std::vector<std::uint8_t> before = save_clusterer(*a);
  const Status s = a->learn_one(std::vector<double>{1.0, 2.0, 3.0, 4.0});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("4 features"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("learned 3"), std::string::npos) << s.message();
  EXPECT_EQ(save_clusterer(*a), before);
  EXPECT_EQ(a->predict_one(std::vector<double>{1.0, 2.0}), -1);
  EXPECT_FALSE(a->learn_one(std::vector<double>{}).is_ok());
}

TEST_P(ClustererHarness, SameSeedSameModelAndResetIsFresh) {
  auto a = make(5), b = make(5);
  feed(*a, 12, 1200);
  feed(*b, 12, 1200);
  EXPECT_EQ(save_clusterer(*a), save_clusterer(*b));
  a->reset();
  EXPECT_EQ(a->n_samples_seen(), 0u);
  EXPECT_EQ(a->n_features(), 0u);
  EXPECT_EQ(a->predict_one(std::vector<double>{0.0, 0.0, 0.0}), -1);
  feed(*a, 13, 700);
  auto fresh = make(5);
  feed(*fresh, 13, 700);
  EXPECT_EQ(save_clusterer(*a), save_clusterer(*fresh));
  EXPECT_GT(a->memory_bytes(), 0u);
}

TEST_P(ClustererHarness, SettingsRoundTripThroughTheTable) {
  auto a = make();
  auto b = make_clusterer(GetParam(), a->settings(), a->seed());
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  feed(*a, 14, 600);
  feed(**b, 14, 600);
  EXPECT_EQ(save_clusterer(*a), save_clusterer(**b));
}

INSTANTIATE_TEST_SUITE_P(All, ClustererHarness, ::testing::Values("kmeans", "clustream", "dbstream"));

TEST(ClustererRegistry, RefusesUnknownNamesAndBadSettings) {
  auto unknown = make_clusterer("dbscan", {});
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.status().message().find("kmeans"), std::string::npos);
  auto bad = make_clusterer("kmeans", {{"n-clusters", "0"}});
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("n-clusters"), std::string::npos) << bad.status().message();
  auto other = make_clusterer("kmeans", {{"time-gap", "3"}});
  EXPECT_FALSE(other.is_ok());
  EXPECT_EQ(clusterers().size(), 3u);
  const std::string json = clusterers_json();
  EXPECT_NE(json.find("\"python_name\":\"clustering_threshold\""), std::string::npos);
  EXPECT_NE(json.find("\"python_name\":\"max_micro_clusters\""), std::string::npos);
}

TEST(ClustererRegistry, LoadRefusesOtherFiles) {
  EXPECT_FALSE(load_clusterer(std::vector<std::uint8_t>{}).is_ok());
  EXPECT_FALSE(load_clusterer(std::vector<std::uint8_t>(64, 0)).is_ok());
}

}  // namespace
}  // namespace irithyll
