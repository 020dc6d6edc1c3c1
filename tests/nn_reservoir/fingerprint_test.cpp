// Pins the exact behaviour (predictions, probabilities, checkpoint bytes,
// resume, reset) of esn and ngrc on a fixed stream with hostile samples
// (support/learner_fingerprint.hpp), so that refactors of the shared learner
// plumbing are provably behaviour-preserving.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "support/learner_fingerprint.hpp"

namespace irithyll::nn {
namespace {

using testing::expect_fingerprint;

TEST(ReservoirFingerprint, EsnRegression) {
  EsnConfig c;
  c.n_neurons = 50;
  c.washout = 20;
  expect_fingerprint<EchoStateNetwork>("esn regression", c, 0xe35c1df01af758c5ull);
}

TEST(ReservoirFingerprint, EsnClassification) {
  EsnConfig c = testing::three_classes(EsnConfig{});
  c.n_neurons = 30;
  c.include_input = false;
  expect_fingerprint<EchoStateNetwork>("esn classify", c, 0xdc79cf0283a20e5cull);
}

TEST(ReservoirFingerprint, NgrcRegression) {
  expect_fingerprint<NextGenReservoir>("ngrc regression", NgrcLearnerConfig{}, 0x75baced91792bbd6ull);
}

TEST(ReservoirFingerprint, NgrcClassification) {
  NgrcLearnerConfig c = testing::three_classes(NgrcLearnerConfig{});
  c.k = 3;
  c.s = 2;
  c.degree = 0;
  expect_fingerprint<NextGenReservoir>("ngrc classify", c, 0xc1b37eb9153f241dull);
}

// The configuration checks' messages, exactly (the CLI shows them).
template <class Config>
void expect_shared_messages(const std::string& name) {
  Config c;
  c.task = Task::kClassification;
  c.n_classes = 1025;
  EXPECT_EQ(c.validate().message(), name + ": classification needs n_classes in [2, 1024]");
  c = Config{};
  c.task = static_cast<Task>(7);
  EXPECT_EQ(c.validate().message(), name + ": unknown task");
  c = Config{};
  c.rls.forgetting_factor = 1.5;
  EXPECT_EQ(c.validate().message(), name + ": RLS forgetting factor must be in (0, 1]");
  c = Config{};
  c.rls.delta = std::numeric_limits<double>::infinity();
  EXPECT_EQ(c.validate().message(), name + ": RLS delta must be finite and > 0");
}

TEST(ReservoirFingerprint, ConfigurationMessages) {
  expect_shared_messages<EsnConfig>("esn");
  expect_shared_messages<NgrcLearnerConfig>("ngrc");
}

}  // namespace
}  // namespace irithyll::nn
