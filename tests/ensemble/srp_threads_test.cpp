// SRP with threads = 1, 2, 3, 4, 7: same predictions, same checkpoint bytes,
// on drifting streams that replace members (each member draws its weights,
// subspaces and tree seeds from its own stream).
#include <gtest/gtest.h>

#include <bit>
#include <memory>

#include "ensemble/ensemble_threads.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/srp.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kSrpSamples = 3000;
using SrpMaker = std::function<std::unique_ptr<StreamingRandomPatches>(std::uint32_t)>;

// A maker that restarts `rng` (the stream) for every run.
SrpMaker srp_maker(SRPConfig c, Task task, std::size_t k, Xorshift64& rng, std::uint64_t stream_seed) {
  return [=, &rng](std::uint32_t threads) {
    rng = Xorshift64(stream_seed);
    SRPConfig cc = c;
    cc.threads = threads;
    auto m = StreamingRandomPatches::make(cc, {task, k, 0, 5});
    EXPECT_TRUE(m.is_ok()) << m.status().to_string();
    return std::move(m).value();
  };
}

std::uint64_t srp_drifts(const StreamingRandomPatches& s) { return s.n_drifts(); }

SRPConfig srp_quick() {
  SRPConfig c;
  c.tree.grace_period = 20;
  c.warning_delta = 0.01;  // sensitive detectors, so members are replaced within a short stream
  c.drift_delta = 0.002;
  return c;
}

TEST(SRPThreads, ClassificationIsIdenticalForAnyThreadCount) {
  Xorshift64 rng(1);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) { return test::line_sample(rng, i, kSrpSamples, x); };
  test::expect_same_for_every_thread_count<StreamingRandomPatches>(srp_maker(srp_quick(), Task::kClassification, 2, rng, 1),
                                                                   kSrpSamples, 4, sample, srp_drifts);
}

TEST(SRPThreads, RegressionIsIdenticalForAnyThreadCount) {
  SRPConfig c = srp_quick();
  c.tree.leaf_model = LeafModel::kMean;
  Xorshift64 rng(2);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) {
    return test::drifting_regression_sample(rng, i, kSrpSamples, x);
  };
  test::expect_same_for_every_thread_count<StreamingRandomPatches>(srp_maker(c, Task::kRegression, 0, rng, 2), kSrpSamples, 4,
                                                                   sample, srp_drifts);
}

TEST(SRPThreads, MoreThreadsThanMembers) {
  SRPConfig c = srp_quick();
  c.n_models = 3;
  Xorshift64 rng(3);
  test::SampleFn sample = [&](std::size_t i, std::vector<double>& x) { return test::line_sample(rng, i, kSrpSamples, x); };
  test::expect_same_for_every_thread_count<StreamingRandomPatches>(srp_maker(c, Task::kClassification, 2, rng, 3), kSrpSamples, 4,
                                                                   sample, srp_drifts);
}

TEST(SRPThreads, SettingIsValidatedAndNotStored) {
  const auto fields = StreamingRandomPatches::config_fields();
  SRPConfig c;
  ASSERT_TRUE(apply_settings<SRPConfig>("srp", fields, ModelSettings{{"threads", "4"}}, c).is_ok());
  EXPECT_EQ(c.threads, 4u);
  for (const char* bad : {"0", "257"}) {
    SRPConfig d;
    const Status s = apply_settings<SRPConfig>("srp", fields, ModelSettings{{"threads", bad}}, d);
    EXPECT_FALSE(s.is_ok()) << bad;
    EXPECT_NE(s.message().find("threads"), std::string::npos) << s.message();
  }
  c.threads = 0;
  EXPECT_FALSE(StreamingRandomPatches::make(c, {Task::kClassification, 2, 4, 1}).is_ok());
  c.threads = 3;
  auto m = std::move(StreamingRandomPatches::make(c, {Task::kClassification, 2, 4, 1})).value();
  std::vector<double> x{0.1, 0.9, 0.3, 0.4};
  for (int i = 0; i < 200; ++i) m->learn_one(x, static_cast<double>(i % 2));
  const auto bytes = testing::encoded(*m);
  StreamingRandomPatches d;
  ByteReader in(bytes);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.config().threads, 1u);
  EXPECT_EQ(testing::encoded(d), bytes);
}

}  // namespace
}  // namespace irithyll
