// ARF with threads = 1, 2, 3, 4, 7: same predictions, same checkpoint bytes,
// on drifting streams that replace trees (members learn on a worker pool,
// each from its own random stream).
#include <gtest/gtest.h>

#include <bit>
#include <memory>

#include "ensemble/ensemble_threads.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/arf.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kArfSamples = 3000;

std::function<std::unique_ptr<AdaptiveRandomForest>(std::uint32_t)> arf_maker(ARFConfig c, Task task, std::size_t k) {
  return [=](std::uint32_t threads) {
    ARFConfig cc = c;
    cc.threads = threads;
    auto m = AdaptiveRandomForest::make(cc, {task, k, 0, 5});
    EXPECT_TRUE(m.is_ok()) << m.status().to_string();
    return std::move(m).value();
  };
}

std::uint64_t arf_drifts(const AdaptiveRandomForest& f) { return f.n_drifts(); }

TEST(ARFThreads, ClassificationIsIdenticalForAnyThreadCount) {
  ARFConfig c;
  c.tree.grace_period = 20;
  Xorshift64 rng(1);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) { return test::line_sample(rng, i, kArfSamples, x); };
  // Each run restarts the stream: the maker is called once per run.
  auto make = arf_maker(c, Task::kClassification, 2);
  auto fresh = [&](std::uint32_t t) {
    rng = Xorshift64(1);
    return make(t);
  };
  test::expect_same_for_every_thread_count<AdaptiveRandomForest>(fresh, kArfSamples, 4, sample, arf_drifts);
}

TEST(ARFThreads, RegressionIsIdenticalForAnyThreadCount) {
  ARFConfig c;
  c.tree.grace_period = 20;
  c.tree.leaf_model = LeafModel::kMean;
  Xorshift64 rng(2);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) {
    return test::drifting_regression_sample(rng, i, kArfSamples, x);
  };
  auto make = arf_maker(c, Task::kRegression, 0);
  auto fresh = [&](std::uint32_t t) {
    rng = Xorshift64(2);
    return make(t);
  };
  test::expect_same_for_every_thread_count<AdaptiveRandomForest>(fresh, kArfSamples, 4, sample, arf_drifts);
}

TEST(ARFThreads, MoreThreadsThanTrees) {
  ARFConfig c;
  c.n_trees = 3;
  c.tree.grace_period = 20;
  Xorshift64 rng(3);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) { return test::line_sample(rng, i, kArfSamples, x); };
  auto make = arf_maker(c, Task::kClassification, 2);
  auto fresh = [&](std::uint32_t t) {
    rng = Xorshift64(3);
    return make(t);
  };
  test::expect_same_for_every_thread_count<AdaptiveRandomForest>(fresh, kArfSamples, 4, sample, arf_drifts);
}

// Threaded: a decoded forest (one thread) given three continues exactly as
// on one, and the count is checked.
TEST(ARFThreads, DecodedForestTakesThreadsAndContinuesTheSame) {
  ARFConfig c;
  c.tree.grace_period = 20;
  Xorshift64 rng(1);
  auto m = arf_maker(c, Task::kClassification, 2)(1);
  std::vector<double> x(4);
  for (std::size_t i = 0; i < 1500; ++i) m->learn_one(x, test::line_sample(rng, i, kArfSamples, x));
  const auto bytes = testing::encoded(*m);
  AdaptiveRandomForest a, b;
  ByteReader ra(bytes), rb(bytes);
  ASSERT_TRUE(a.decode(ra).is_ok());
  ASSERT_TRUE(b.decode(rb).is_ok());
  EXPECT_EQ(b.threads(), 1u);
  ASSERT_TRUE(b.set_threads(3).is_ok());
  EXPECT_EQ(b.threads(), 3u);
  EXPECT_EQ(b.config().threads, 3u);
  EXPECT_FALSE(b.set_threads(0).is_ok());
  EXPECT_FALSE(b.set_threads(257).is_ok());
  EXPECT_EQ(b.threads(), 3u);
  for (std::size_t i = 1500; i < kArfSamples; ++i) {
    const double y = test::line_sample(rng, i, kArfSamples, x);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(a.predict_one(x)), std::bit_cast<std::uint64_t>(b.predict_one(x))) << i;
    a.learn_one(x, y);
    b.learn_one(x, y);
  }
  EXPECT_GT(a.n_drifts(), 0u);
  EXPECT_EQ(testing::encoded(a), testing::encoded(b));
}

TEST(ARFThreads, SettingIsValidatedAndNotStored) {
  test::expect_threads_setting_checked<AdaptiveRandomForest, ARFConfig>("arf");
}

// A version-2 checkpoint (one forest-wide stream, trees with their binary
// configs) still decodes: member i's stream becomes derive_seed(stored state,
// i), it re-encodes in the current layout, and it keeps learning. Built from
// a one-tree current record by moving the member's stream back to where
// version 2 kept the forest's and putting the tree's binary config in front
// of its state.
TEST(ARFThreads, VersionTwoCheckpointDerivesMemberStreams) {
  ARFConfig c;
  c.n_trees = 1;
  const LearnerContext ctx{Task::kClassification, 2, 4, 7};
  auto m = std::move(AdaptiveRandomForest::make(c, ctx)).value();
  Xorshift64 rng(9);
  std::vector<double> x(4);
  for (std::size_t i = 0; i < 500; ++i) m->learn_one(x, test::line_sample(rng, i, 1000, x));
  const auto current = testing::encoded(*m);
  ByteWriter head;
  const auto fields = arf_config_fields();
  encode_config(fields.first(fields.size() - 1), m->config(), head);
  encode_context(ctx, head);
  const std::size_t settings_end = 4 + head.data().size();
  const std::size_t member_rng_at = settings_end + 4 * 8 + 8;  // after the counters and n_members
  ASSERT_EQ(current[0], 4u);
  const std::uint64_t stored = 0x123456789ABCDEFull;
  std::vector<std::uint8_t> v2(current.begin(), current.begin() + static_cast<std::ptrdiff_t>(settings_end));
  v2[0] = 2;
  for (int b = 0; b < 8; ++b) v2.push_back(static_cast<std::uint8_t>(stored >> (8 * b)));
  v2.insert(v2.end(), current.begin() + static_cast<std::ptrdiff_t>(settings_end),
            current.begin() + static_cast<std::ptrdiff_t>(member_rng_at));
  // The member tree's settings: the forest's, with no nominal attribute
  // (so no naive Bayes prior).
  HoeffdingTreeConfig tree = m->config().tree;
  tree.nominal_nb_prior = 0.0;
  ByteWriter tree_config;
  testing::encode_legacy(tree, tree_config);
  v2.insert(v2.end(), tree_config.data().begin(), tree_config.data().end());
  v2.insert(v2.end(), current.begin() + static_cast<std::ptrdiff_t>(member_rng_at + 8), current.end());
  AdaptiveRandomForest old;
  ByteReader in(v2);
  ASSERT_TRUE(old.decode(in).is_ok()) << "version 2 must still decode";
  EXPECT_TRUE(in.at_end());
  auto again = testing::encoded(old);
  ASSERT_EQ(again.size(), current.size());
  std::uint64_t member_rng = 0;
  for (int b = 7; b >= 0; --b) member_rng = (member_rng << 8) | again[member_rng_at + static_cast<std::size_t>(b)];
  EXPECT_EQ(member_rng, derive_seed(stored, 0));
  for (std::size_t i = 0; i < 8; ++i) again[member_rng_at + i] = current[member_rng_at + i];
  EXPECT_EQ(again, current) << "everything but the member stream carries over";
  for (std::size_t i = 0; i < 200; ++i) old.learn_one(x, test::line_sample(rng, i, 1000, x));
  EXPECT_EQ(old.n_samples_seen(), 700u);
}

}  // namespace
}  // namespace irithyll
