// Pins the exact behaviour (predictions, probabilities, checkpoint bytes,
// resume, reset) of mgrade and slstm on a fixed stream with hostile samples
// (support/learner_fingerprint.hpp), so that refactors of the shared learner
// plumbing are provably behaviour-preserving.
#include <gtest/gtest.h>

#include <string>

#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "support/learner_fingerprint.hpp"

namespace irithyll::nn {
namespace {

using testing::expect_fingerprint;

// 16 hidden units, a regeneration every 50 updates (on three classes).
template <class Config>
Config small_regen_classifier() {
  Config c;
  c.d_hidden = 16;
  c.continual.kind = ContinualKind::kRegen;
  c.continual.interval = 50;
  c.continual.regen_fraction = 0.1;
  return c;
}

TEST(RnnFingerprint, MgradeRegression) {
  expect_fingerprint<MgradeLearner>("mgrade regression", MgradeLearnerConfig{}, {}, testing::kNotPinned);
}

// Re-pinned on purpose: regeneration on drift listens to a Page-Hinkley
// detector, which now restarts completely after a drift (one signal per
// change), so the regenerations come at other samples.
TEST(RnnFingerprint, MgradeClassificationWithRegen) {
  expect_fingerprint<MgradeLearner>("mgrade classify regen", small_regen_classifier<MgradeLearnerConfig>(),
                                    testing::three_classes(), testing::kNotPinned);
}

TEST(RnnFingerprint, SlstmRegression) {
  expect_fingerprint<SlstmLearner>("slstm regression", SlstmLearnerConfig{}, {}, testing::kNotPinned);
}

// Re-pinned on purpose: regeneration on drift listens to a Page-Hinkley
// detector, which now restarts completely after a drift (one signal per
// change), so the regenerations come at other samples.
TEST(RnnFingerprint, SlstmClassificationWithRegen) {
  expect_fingerprint<SlstmLearner>("slstm classify regen", small_regen_classifier<SlstmLearnerConfig>(),
                                   testing::three_classes(), testing::kNotPinned);
}

// The configuration checks' messages, exactly (the CLI shows them).
template <class L>
void expect_shared_messages(const char* name, const char* extractor) {
  using Config = typename L::Config;
  const std::string n(name);
  EXPECT_EQ(L::validate(Config{}, LearnerContext{Task::kClassification, 1}).message(),
            n + ": classification needs 2..1024 classes");
  Config c;
  c.rls.forgetting_factor = 0.0;
  EXPECT_EQ(L::validate(c, {}).message(), n + ": RLS forgetting factor must be in [0.5, 1]");
  c = Config{};
  c.continual.kind = ContinualKind::kEwc;
  EXPECT_EQ(L::validate(c, {}).message(),
            n + ": the " + extractor + " is not trained by gradient; only --continual regen applies");
}

TEST(RnnFingerprint, ConfigurationMessages) {
  expect_shared_messages<MgradeLearner>("mgrade", "cell");
  expect_shared_messages<SlstmLearner>("slstm", "cell");
}

}  // namespace
}  // namespace irithyll::nn
