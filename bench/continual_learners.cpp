// Cost of a continual-learning guard inside the learners (one JSON line per
// workload): mean and worst CPU time of learn_one over a stream, with the
// guard off and on, so the overhead of the utilities, the detector and the
// regeneration steps (re-draw + readout reset) shows beside the plain step.
//   slstm_{none,regen}       d_hidden 32, 8 inputs, regen 1/32 units every 100 updates
//   mamba_v3_{none,regen}    8 inputs, 8 groups, N 8, regen 1 group every 100 updates
//   loglinear_{none,ewc,mask,regen}  defaults (896 layer weights), detector Page-Hinkley
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include <time.h>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"

using namespace irithyll;
using namespace irithyll::nn;

namespace {
double cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}

void run(const char* name, Learner& m, std::size_t d) {
  Xorshift64 rng(7);
  std::vector<double> x(d);
  double phase = 0.0, worst = 0.0, total = 0.0;
  const int warm = 200, steps = 20000;
  for (int t = 0; t < warm + steps; ++t) {
    phase += t < (warm + steps) / 2 ? 0.3 : 1.1;
    for (std::size_t i = 0; i < d; ++i) x[i] = std::sin(phase + static_cast<double>(i)) + 0.05 * rng.normal();
    const double y = (t < (warm + steps) / 2 ? 1.0 : -1.0) * std::sin(phase + 0.3);
    const double c0 = cpu_us();
    m.learn_one(x, y);
    const double us = cpu_us() - c0;
    if (t >= warm) {
      worst = std::max(worst, us);
      total += us;
    }
  }
  std::printf("{\"workload\": \"%s\", \"steps\": %d, \"cpu_mean_us\": %.3f, \"cpu_max_us\": %.1f}\n", name, steps,
              total / steps, worst);
}

ContinualConfig guard(ContinualKind k, double fraction) {
  ContinualConfig c;
  c.kind = k;
  c.interval = 100;
  c.regen_fraction = fraction;
  return c;
}
}  // namespace

int main() {
  for (ContinualKind k : {ContinualKind::kNone, ContinualKind::kRegen}) {
    SlstmLearnerConfig c;
    c.d_hidden = 32;
    c.continual = guard(k, 1.0 / 32);
    SlstmLearner m(c, LearnerContext{Task::kRegression, 0, 8});
    run(k == ContinualKind::kNone ? "slstm_none" : "slstm_regen", m, 8);
  }
  for (ContinualKind k : {ContinualKind::kNone, ContinualKind::kRegen}) {
    MambaLearnerConfig c;
    c.version = MambaVersion::kV3;
    c.n_groups = 8;
    c.n_state = 8;
    c.continual = guard(k, 1.0 / 8);
    MambaLearner m(c, LearnerContext{Task::kRegression, 0, 8});
    run(k == ContinualKind::kNone ? "mamba_v3_none" : "mamba_v3_regen", m, 8);
  }
  const char* names[] = {"loglinear_none", "loglinear_ewc", "loglinear_mask", "loglinear_regen"};
  for (ContinualKind k : {ContinualKind::kNone, ContinualKind::kEwc, ContinualKind::kMask, ContinualKind::kRegen}) {
    LogLinearLearnerConfig c;
    c.continual = guard(k, 0.05);
    LogLinearLearner m(c, LearnerContext{Task::kRegression, 0, 8});
    run(names[static_cast<int>(k)], m, 8);
  }
  return 0;
}
