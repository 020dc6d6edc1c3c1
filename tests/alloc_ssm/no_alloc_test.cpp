// Zero-allocation check for the SSM and recurrent steps: this binary replaces
// the global operator new with a counting one, warms each model up, then
// asserts that forward/forward_predict/learn_one/predict_one allocate nothing.
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/mamba3.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "nn/ssm/selective_ssm.hpp"
#include "irithyll/nn/rnn/lstm_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"

#include "support/alloc_counter.hpp"

namespace irithyll::nn {
namespace {

template <class F>
long count_allocs(F&& f) {
  const long before = test::allocation_count();
  f();
  return test::allocation_count() - before;
}

TEST(NoAlloc, SsmLayers) {
  SelectiveSsm m1({.d_in = 16, .n_state = 16, .seed = 1});
  Mamba3Config c3;
  c3.d_in = 16;
  c3.n_state = 8;
  c3.n_groups = 4;
  Mamba3 siso(c3);
  c3.rank = 3;
  Mamba3 mimo(c3);
  c3.discretization = Mamba3Discretization::kTustin;
  c3.use_bcnorm = false;
  Mamba3 tustin(c3);
  std::vector<SsmLayer*> layers = {&m1, &siso, &mimo, &tustin};
  Xorshift64 rng(1);
  std::vector<double> x(16), y(16);
  for (SsmLayer* l : layers) {
    for (double& v : x) v = rng.normal();
    l->forward(x, y);  // warm-up (dispatch statics)
    const long n = count_allocs([&] {
      for (int t = 0; t < 1000; ++t) {
        for (double& v : x) v = rng.normal();
        l->forward_predict(x, y);
        l->forward(x, y);
      }
    });
    EXPECT_EQ(n, 0);
  }
}

template <class L>
void check_learner(L& learner, std::size_t d) {
  Xorshift64 rng(2);
  std::vector<double> x(d);
  for (int t = 0; t < 20; ++t) {
    for (double& v : x) v = rng.normal();
    learner.learn_one(x, x[0]);
  }
  const long n = count_allocs([&] {
    for (int t = 0; t < 500; ++t) {
      for (double& v : x) v = rng.normal();
      (void)learner.predict_one(x);
      learner.learn_one(x, x[0]);
    }
  });
  EXPECT_EQ(n, 0) << learner.name();
}

TEST(NoAlloc, MambaLearnerAllVersions) {
  for (MambaVersion v : {MambaVersion::kV1, MambaVersion::kV3, MambaVersion::kV3Tustin, MambaVersion::kV3Mimo,
                         MambaVersion::kBlockDiagonal}) {
    MambaLearnerConfig c;
    c.version = v;
    c.n_state = 8;
    c.n_groups = 2;
    c.block_size = 2;
    MambaLearner m(c, LearnerContext{Task::kRegression, 0, 4});
    check_learner(m, 4);
  }
}

TEST(NoAlloc, RecurrentLearners) {
  const LearnerContext four{Task::kRegression, 0, 4};
  SlstmLearner s(SlstmLearnerConfig{}, four);
  check_learner(s, 4);
  MgradeLearner m(MgradeLearnerConfig{}, four);
  check_learner(m, 4);
  LstmLearner l(LstmLearnerConfig{}, four);
  check_learner(l, 4);
  LstmLearner lc(LstmLearnerConfig{}, LearnerContext{Task::kClassification, 3, 4});
  check_learner(lc, 4);
}

}  // namespace
}  // namespace irithyll::nn
