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
  expect_fingerprint<EchoStateNetwork>("esn regression", c, {}, testing::kNotPinned);
}

TEST(ReservoirFingerprint, EsnClassification) {
  EsnConfig c;
  c.n_neurons = 30;
  c.include_input = false;
  expect_fingerprint<EchoStateNetwork>("esn classify", c, testing::three_classes(), testing::kNotPinned);
}

TEST(ReservoirFingerprint, NgrcRegression) {
  expect_fingerprint<NextGenReservoir>("ngrc regression", NgrcLearnerConfig{}, {}, testing::kNotPinned);
}

TEST(ReservoirFingerprint, NgrcClassification) {
  NgrcLearnerConfig c;
  c.k = 3;
  c.s = 2;
  c.degree = 0;
  expect_fingerprint<NextGenReservoir>("ngrc classify", c, testing::three_classes(), testing::kNotPinned);
}

// The configuration checks' messages, exactly (the CLI shows them).
template <class L>
void expect_shared_messages(const std::string& name) {
  using Config = typename L::Config;
  EXPECT_EQ(L::validate(Config{}, LearnerContext{Task::kClassification, 1025}).message(),
            name + ": classification needs n_classes in [2, 1024]");
  EXPECT_EQ(L::validate(Config{}, LearnerContext{static_cast<Task>(7)}).message(), name + ": unknown task");
  Config c;
  c.rls.forgetting_factor = 1.5;
  EXPECT_EQ(L::validate(c, {}).message(), name + ": RLS forgetting factor must be in [0.5, 1]");
  c = Config{};
  c.rls.delta = std::numeric_limits<double>::infinity();
  EXPECT_EQ(L::validate(c, {}).message(), name + ": RLS delta must be in [1e-6, 1e12]");
}

TEST(ReservoirFingerprint, ConfigurationMessages) {
  expect_shared_messages<EchoStateNetwork>("esn");
  expect_shared_messages<NextGenReservoir>("ngrc");
}

}  // namespace
}  // namespace irithyll::nn
