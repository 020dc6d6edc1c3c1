// Pins the exact behaviour (predictions, probabilities, checkpoint bytes,
// resume, reset) of the spikenet learner's two readouts on a fixed stream
// with hostile samples (support/learner_fingerprint.hpp), so that refactors
// of the shared learner plumbing are provably behaviour-preserving.
#include <gtest/gtest.h>

#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "support/learner_fingerprint.hpp"

namespace irithyll::nn {
namespace {

using testing::expect_fingerprint;

TEST(SpikeNetFingerprint, RlsRegression) {
  SpikeNetLearnerConfig c;
  c.target_scale = 0.05;
  c.net.n_hidden = 32;
  expect_fingerprint<SpikeNetLearner>("spikenet rls regression", c, {}, testing::kNotPinned);
}

TEST(SpikeNetFingerprint, EpropClassification) {
  SpikeNetLearnerConfig c;
  c.readout = SpikeNetReadout::kEprop;
  c.net.n_hidden = 32;
  expect_fingerprint<SpikeNetLearner>("spikenet eprop classify", c, testing::three_classes(), testing::kNotPinned);
}

TEST(SpikeNetFingerprint, RlsClassification) {
  SpikeNetLearnerConfig c;
  c.net.n_hidden = 16;
  expect_fingerprint<SpikeNetLearner>("spikenet rls classify", c, testing::three_classes(), testing::kNotPinned);
}

TEST(SpikeNetFingerprint, ConfigurationMessages) {
  EXPECT_EQ(SpikeNetLearner::validate({}, LearnerContext{Task::kClassification, 65}).message(),
            "spikenet: classification needs n_classes in [2, 64]");
  EXPECT_EQ(SpikeNetLearner::validate({}, LearnerContext{static_cast<Task>(9)}).message(), "spikenet: unknown task");
  SpikeNetLearnerConfig c;
  c.rls.forgetting_factor = 0.0;
  EXPECT_EQ(SpikeNetLearner::validate(c, {}).message(), "spikenet: RLS forgetting factor must be in [0.5, 1]");
  c = SpikeNetLearnerConfig{};
  c.rls.delta = 0.0;
  EXPECT_EQ(SpikeNetLearner::validate(c, {}).message(), "spikenet: RLS delta must be in [1e-6, 1e12]");
}

}  // namespace
}  // namespace irithyll::nn
