// ARF with threads = 1, 2, 3, 4, 7: same predictions, same checkpoint bytes,
// on drifting streams that replace trees (members learn on a worker pool,
// each from its own random stream).
#include <gtest/gtest.h>

#include <bit>
#include <memory>

#include "ensemble/ensemble_threads.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/arf.hpp"

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

TEST(ARFThreads, SettingIsValidatedAndNotStored) {
  ARFConfig c;
  ASSERT_TRUE(apply_settings<ARFConfig>("arf", arf_config_fields(), ModelSettings{{"threads", "4"}}, c).is_ok());
  EXPECT_EQ(c.threads, 4u);
  for (const char* bad : {"0", "257", "-1", "two"}) {
    ARFConfig d;
    const Status s = apply_settings<ARFConfig>("arf", arf_config_fields(), ModelSettings{{"threads", bad}}, d);
    EXPECT_FALSE(s.is_ok()) << bad;
    EXPECT_NE(s.message().find("threads"), std::string::npos) << s.message();
  }
  c.threads = 0;
  EXPECT_FALSE(AdaptiveRandomForest::make(c, {Task::kClassification, 2, 4, 1}).is_ok());
  // A decoded forest trains on one thread and re-encodes to the same bytes.
  c.threads = 3;
  auto m = std::move(AdaptiveRandomForest::make(c, {Task::kClassification, 2, 4, 1})).value();
  std::vector<double> x{0.1, 0.9, 0.3, 0.4};
  for (int i = 0; i < 200; ++i) m->learn_one(x, static_cast<double>(i % 2));
  const auto bytes = testing::encoded(*m);
  AdaptiveRandomForest d;
  ByteReader in(bytes);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.config().threads, 1u);
  EXPECT_EQ(testing::encoded(d), bytes);
}

}  // namespace
}  // namespace irithyll
