// Zero-allocation check for learners with a continual-learning guard: after a
// warm-up, learn_one / predict_one allocate nothing, including the steps that
// regenerate units (interval 50 over 600 steps) and that react to drift.
// Page-Hinkley and DDM keep O(1) state; ADWIN grows its bucket list with the
// stream, so it is not part of this check.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "nn/ssm/mamba_core.hpp"
#include "nn/rnn/slstm_core.hpp"
#include "nn/rnn/mgrade_core.hpp"
#include "nn/attention/log_linear_core.hpp"
#include "support/alloc_counter.hpp"

namespace irithyll::nn {
namespace {

ContinualConfig continual(ContinualKind kind, DriftKind detector) {
  ContinualConfig c;
  c.kind = kind;
  c.detector = detector;
  c.interval = 50;
  c.regen_fraction = 0.25;
  return c;
}

// Inputs are a sine whose sign flips every 150 steps, so drifts fire too.
template <class L>
void check_learner(L& learner, std::size_t d) {
  Xorshift64 rng(2);
  std::vector<double> x(d);
  double phase = 0.0;
  auto next = [&](int t) {
    phase += 0.3;
    for (double& v : x) v = 0.1 * rng.normal() + ((t / 150) % 2 ? -1.0 : 1.0) * std::sin(phase);
  };
  for (int t = 0; t < 60; ++t) {
    next(t);
    learner.learn_one(x, x[0]);
  }
  const long before = test::allocation_count();
  for (int t = 60; t < 660; ++t) {
    next(t);
    (void)learner.predict_one(x);
    learner.learn_one(x, x[0] + 0.5 * x[1]);
  }
  EXPECT_EQ(test::allocation_count() - before, 0) << learner.name();
}

TEST(NoAllocContinual, SlstmRegeneration) {
  for (DriftKind det : {DriftKind::kPageHinkley, DriftKind::kDdm, DriftKind::kNone}) {
    SlstmLearnerConfig c;
    c.d_hidden = 8;
    c.n_heads = 2;
    c.continual = continual(ContinualKind::kRegen, det);
    SlstmCore m(c, LearnerContext{Task::kRegression, 0, 4});
    check_learner(m, 4);
    EXPECT_GE(m.continual()->regeneration().n_regenerations(), 12u);
  }
}

TEST(NoAllocContinual, MgradeRegeneration) {
  MgradeLearnerConfig c;
  c.d_hidden = 8;
  c.continual = continual(ContinualKind::kRegen, DriftKind::kPageHinkley);
  MgradeCore m(c, LearnerContext{Task::kRegression, 0, 4});
  check_learner(m, 4);
  EXPECT_GE(m.continual()->regeneration().n_regenerations(), 12u);
}

TEST(NoAllocContinual, MambaRegeneration) {
  for (MambaVersion v : {MambaVersion::kV3, MambaVersion::kV3Mimo, MambaVersion::kBlockDiagonal}) {
    MambaLearnerConfig c;
    c.version = v;
    c.n_state = 4;
    c.n_groups = 2;
    c.block_size = 2;
    c.continual = continual(ContinualKind::kRegen, DriftKind::kPageHinkley);
    MambaCore m(c, LearnerContext{Task::kRegression, 0, 4});
    check_learner(m, 4);
    EXPECT_GE(m.continual()->regeneration().n_regenerations(), 12u);
  }
}

TEST(NoAllocContinual, LogLinearEveryStrategy) {
  for (ContinualKind k : {ContinualKind::kEwc, ContinualKind::kMask, ContinualKind::kRegen}) {
    LogLinearLearnerConfig c;
    c.continual = continual(k, DriftKind::kPageHinkley);
    LogLinearCore m(c, LearnerContext{Task::kRegression, 0, 4});
    check_learner(m, 4);
  }
}

}  // namespace
}  // namespace irithyll::nn
