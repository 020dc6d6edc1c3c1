// Leveraging bagging with threads = 1, 2, 3, 4, 7: same predictions, same
// checkpoint bytes, on drifting streams that reset members (each member
// draws its weights and tree seeds from its own stream; the reset after a
// change runs once every group is done).
#include <gtest/gtest.h>

#include <bit>
#include <memory>

#include "ensemble/ensemble_threads.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kLbSamples = 3000;
using LbMaker = std::function<std::unique_ptr<LeveragingBagging>(std::uint32_t)>;

// A maker that restarts `rng` (the stream) for every run.
LbMaker lb_maker(LeveragingBaggingConfig c, std::size_t k, Xorshift64& rng, std::uint64_t stream_seed) {
  return [=, &rng](std::uint32_t threads) {
    rng = Xorshift64(stream_seed);
    LeveragingBaggingConfig cc = c;
    cc.threads = threads;
    auto m = LeveragingBagging::make(cc, {Task::kClassification, k, 0, 5});
    EXPECT_TRUE(m.is_ok()) << m.status().to_string();
    return std::move(m).value();
  };
}

std::uint64_t lb_resets(const LeveragingBagging& b) { return b.n_resets(); }

LeveragingBaggingConfig lb_quick() {
  LeveragingBaggingConfig c;
  c.tree.grace_period = 20;
  c.tree.delta = 0.01;
  return c;
}

TEST(LeveragingBaggingThreads, IdenticalForAnyThreadCount) {
  Xorshift64 rng(1);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) { return test::line_sample(rng, i, kLbSamples, x); };
  test::expect_same_for_every_thread_count<LeveragingBagging>(lb_maker(lb_quick(), 2, rng, 1), kLbSamples, 4, sample, lb_resets);
}

TEST(LeveragingBaggingThreads, OutputCodesIdenticalForAnyThreadCount) {
  LeveragingBaggingConfig c = lb_quick();
  c.output_codes = true;
  Xorshift64 rng(4);
  // Three classes by x0 + x1, relabelled at n / 2.
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) {
    for (double& v : x) v = rng.uniform();
    const double s = x[0] + x[1];
    const int label = s < 0.7 ? 0 : s < 1.3 ? 1 : 2;
    return static_cast<double>(i >= kLbSamples / 2 ? (label + 1) % 3 : label);
  };
  test::expect_same_for_every_thread_count<LeveragingBagging>(lb_maker(c, 3, rng, 4), kLbSamples, 4, sample, lb_resets);
}

TEST(LeveragingBaggingThreads, MoreThreadsThanMembers) {
  LeveragingBaggingConfig c = lb_quick();
  c.n_models = 3;
  Xorshift64 rng(3);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) { return test::line_sample(rng, i, kLbSamples, x); };
  test::expect_same_for_every_thread_count<LeveragingBagging>(lb_maker(c, 2, rng, 3), kLbSamples, 4, sample, lb_resets);
}

TEST(LeveragingBaggingThreads, SettingIsValidatedAndNotStored) {
  const auto fields = LeveragingBagging::config_fields();
  LeveragingBaggingConfig c;
  ASSERT_TRUE(apply_settings<LeveragingBaggingConfig>("leveraging_bagging", fields, ModelSettings{{"threads", "4"}}, c).is_ok());
  EXPECT_EQ(c.threads, 4u);
  for (const char* bad : {"0", "257"}) {
    LeveragingBaggingConfig d;
    const Status s = apply_settings<LeveragingBaggingConfig>("leveraging_bagging", fields, ModelSettings{{"threads", bad}}, d);
    EXPECT_FALSE(s.is_ok()) << bad;
    EXPECT_NE(s.message().find("threads"), std::string::npos) << s.message();
  }
  c.threads = 0;
  EXPECT_FALSE(LeveragingBagging::make(c, {Task::kClassification, 2, 4, 1}).is_ok());
  c.threads = 3;
  auto m = std::move(LeveragingBagging::make(c, {Task::kClassification, 2, 4, 1})).value();
  std::vector<double> x{0.1, 0.9, 0.3, 0.4};
  for (int i = 0; i < 200; ++i) m->learn_one(x, static_cast<double>(i % 2));
  const auto bytes = testing::encoded(*m);
  LeveragingBagging d;
  ByteReader in(bytes);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.config().threads, 1u);
  EXPECT_EQ(testing::encoded(d), bytes);
}

}  // namespace
}  // namespace irithyll
