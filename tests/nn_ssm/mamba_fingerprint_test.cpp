// Pins the exact behaviour (predictions, probabilities, checkpoint bytes,
// resume, reset) of the mamba learner's versions on a fixed stream with
// hostile samples (support/learner_fingerprint.hpp), so that refactors of the
// shared learner plumbing are provably behaviour-preserving.
#include <gtest/gtest.h>

#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "support/learner_fingerprint.hpp"

namespace irithyll::nn {
namespace {

using testing::expect_fingerprint;

ContinualConfig regen_every_50(double fraction) {
  ContinualConfig c;
  c.kind = ContinualKind::kRegen;
  c.interval = 50;
  c.regen_fraction = fraction;
  return c;
}

TEST(MambaFingerprint, V1Regression) {
  expect_fingerprint<MambaLearner>("mamba v1 regression", MambaLearnerConfig{}, {}, testing::kNotPinned);
}

// Re-pinned on purpose: regeneration on drift listens to a Page-Hinkley
// detector, which now restarts completely after a drift (one signal per
// change), so the regenerations come at other samples.
TEST(MambaFingerprint, V3ClassificationWithRegen) {
  const LearnerContext context = testing::three_classes();
  MambaLearnerConfig c;
  c.version = MambaVersion::kV3;
  c.n_state = 8;
  c.n_groups = 2;
  c.continual = regen_every_50(0.5);
  c.bcnorm_lr = 0.0;  // gamma fixed: the behaviour pinned before gamma learned
  expect_fingerprint<MambaLearner>("mamba v3 classify regen", c, context, testing::kNotPinned);
  // The default since BCNorm's gamma trains (bcnorm_lr 0.003): a new pin, intended (and re-pinned
  // for the Page-Hinkley restart, like the fixed-gamma one above).
  c.bcnorm_lr = MambaLearnerConfig{}.bcnorm_lr;
  expect_fingerprint<MambaLearner>("mamba v3 classify regen, learned gamma", c, context, testing::kNotPinned);
}

TEST(MambaFingerprint, BlockDiagonalRegressionWithRegen) {
  MambaLearnerConfig c;
  c.version = MambaVersion::kBlockDiagonal;
  c.n_state = 4;
  c.block_size = 2;
  c.continual = regen_every_50(0.2);
  expect_fingerprint<MambaLearner>("mamba bd regen", c, {}, testing::kNotPinned);
}

TEST(MambaFingerprint, V3MimoRegression) {
  MambaLearnerConfig c;
  c.version = MambaVersion::kV3Mimo;
  c.n_state = 8;
  c.n_groups = 5;
  c.bcnorm_lr = 0.0;  // gamma fixed: unchanged pin
  expect_fingerprint<MambaLearner>("mamba v3-mimo", c, {}, testing::kNotPinned);
  c.bcnorm_lr = MambaLearnerConfig{}.bcnorm_lr;  // learned gamma, the default: new pin, intended
  expect_fingerprint<MambaLearner>("mamba v3-mimo, learned gamma", c, {}, testing::kNotPinned);
}

TEST(MambaFingerprint, ConfigurationMessages) {
  EXPECT_EQ(MambaLearner::validate({}, LearnerContext{Task::kClassification, 2000}).message(),
            "mamba: classification needs 2..1024 classes");
  MambaLearnerConfig c;
  c.rls.delta = -1.0;
  EXPECT_EQ(MambaLearner::validate(c, {}).message(), "mamba: RLS delta must be in [1e-6, 1e12]");
  c = MambaLearnerConfig{};
  c.continual.kind = ContinualKind::kMask;
  EXPECT_EQ(MambaLearner::validate(c, {}).message(),
            "mamba: the SSM is not trained by gradient; only --continual regen applies");
}

}  // namespace
}  // namespace irithyll::nn
