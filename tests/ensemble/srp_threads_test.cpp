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
  test::expect_threads_setting_checked<StreamingRandomPatches, SRPConfig>("srp");
}

}  // namespace
}  // namespace irithyll
