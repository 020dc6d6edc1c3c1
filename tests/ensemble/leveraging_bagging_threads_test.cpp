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
  test::expect_threads_setting_checked<LeveragingBagging, LeveragingBaggingConfig>("leveraging_bagging");
}

}  // namespace
}  // namespace irithyll
