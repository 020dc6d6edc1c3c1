// Per-step cost of the state-space and recurrent layers (one JSON line per
// workload: name, sizes, mean and stddev of ns/step over repetitions).
//   mamba1_d16_n16, mamba1_d64_n16   SelectiveSsm::forward (targets <= 1.5 us, <= 6 us)
//   mamba_bd_*      SelectiveSsmBd::forward (block-diagonal, m channels per block)
//   mamba3_*        Mamba3::forward (SISO rank 0 / MIMO rank 2, BCNorm on)
//   slstm_*, mingru_*, delayconv_*   cell steps
//   learner_*       predict_one + learn_one of the streaming learners (RLS included)
// Inputs are deterministic (xorshift64, seed 1); warmup 2000 steps, 7 reps.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/rnn/delay_conv.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "nn/rnn/mingru.hpp"
#include "nn/rnn/slstm.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "nn/ssm/mamba3.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "nn/ssm/selective_ssm.hpp"
#include "nn/ssm/selective_ssm_bd.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Inputs {
  std::vector<std::vector<double>> rows;
  explicit Inputs(std::size_t d, std::size_t n = 1024) {
    irithyll::Xorshift64 rng(1);
    rows.resize(n, std::vector<double>(d));
    for (auto& r : rows)
      for (double& v : r) v = rng.normal();
  }
};

double sink = 0.0;

void run(const std::string& name, std::size_t steps, const std::function<void(std::size_t)>& step) {
  for (std::size_t i = 0; i < 2000; ++i) step(i);
  std::vector<double> ns;
  for (int rep = 0; rep < 7; ++rep) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < steps; ++i) step(i);
    const auto t1 = Clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(steps));
  }
  double mean = 0.0, var = 0.0;
  for (double v : ns) mean += v / static_cast<double>(ns.size());
  for (double v : ns) var += (v - mean) * (v - mean) / static_cast<double>(ns.size() - 1);
  std::printf("{\"workload\":\"%s\",\"ns_per_step_mean\":%.1f,\"ns_per_step_std\":%.1f,\"steps\":%zu}\n", name.c_str(),
              mean, std::sqrt(var), steps);
}

void bench_mamba1(std::size_t d, std::size_t n) {
  irithyll::nn::SelectiveSsm ssm({.d_in = d, .n_state = n, .seed = 42});
  Inputs in(d);
  std::vector<double> y(d);
  run("mamba1_d" + std::to_string(d) + "_n" + std::to_string(n), 200000, [&](std::size_t i) {
    ssm.forward(in.rows[i & 1023], y);
    sink += y[0];
  });
}

void bench_bd(std::size_t d, std::size_t n, std::size_t m) {
  irithyll::nn::SelectiveSsmBd ssm({.d_in = d, .n_state = n, .block_size = m, .seed = 42});
  Inputs in(d);
  std::vector<double> y(d);
  run("mamba_bd_d" + std::to_string(d) + "_n" + std::to_string(n) + "_m" + std::to_string(m), 100000, [&](std::size_t i) {
    ssm.forward(in.rows[i & 1023], y);
    sink += y[0];
  });
}

void bench_mamba3(std::size_t d, std::size_t n, std::size_t g, std::size_t rank, bool bcnorm) {
  irithyll::nn::Mamba3Config cfg;
  cfg.d_in = d;
  cfg.n_state = n;
  cfg.n_groups = g;
  cfg.rank = rank;
  cfg.use_bcnorm = bcnorm;
  irithyll::nn::Mamba3 ssm(cfg);
  Inputs in(d);
  std::vector<double> y(d);
  run("mamba3_d" + std::to_string(d) + "_n" + std::to_string(n) + "_g" + std::to_string(g) + "_r" +
          std::to_string(rank) + (bcnorm ? "_bcnorm" : ""),
      100000, [&](std::size_t i) {
        ssm.forward(in.rows[i & 1023], y);
        sink += y[0];
      });
}

void bench_slstm(std::size_t d, std::size_t h, std::size_t heads) {
  irithyll::nn::SlstmConfig c;
  c.d_in = d;
  c.d_hidden = h;
  c.n_heads = heads;
  irithyll::nn::SlstmCell cell(c);
  Inputs in(d);
  std::vector<double> y(h);
  run("slstm_d" + std::to_string(d) + "_h" + std::to_string(h) + "_heads" + std::to_string(heads), 100000,
      [&](std::size_t i) {
        cell.forward(in.rows[i & 1023], y);
        sink += y[0];
      });
}

void bench_mgrade(std::size_t d, std::size_t h, std::size_t taps) {
  irithyll::nn::DelayConv1d conv(d, taps, 1);
  irithyll::nn::MinGruCell cell(irithyll::nn::MinGruConfig{d, h, 2});
  Inputs in(d);
  std::vector<double> c(d), y(h);
  run("delayconv_d" + std::to_string(d) + "_k" + std::to_string(taps), 200000, [&](std::size_t i) {
    conv.forward(in.rows[i & 1023], c);
    sink += c[0];
  });
  run("mingru_d" + std::to_string(d) + "_h" + std::to_string(h), 200000, [&](std::size_t i) {
    cell.forward(in.rows[i & 1023], y);
    sink += y[0];
  });
}

template <class L>
void bench_learner(const std::string& name, L& learner, std::size_t d) {
  Inputs in(d);
  run("learner_" + name + "_d" + std::to_string(d), 50000, [&](std::size_t i) {
    const auto& x = in.rows[i & 1023];
    sink += learner.predict_one(x);
    learner.learn_one(x, x[0]);
  });
}

}  // namespace

int main() {
  bench_mamba1(16, 16);
  bench_mamba1(64, 16);
  bench_bd(16, 16, 4);
  bench_mamba3(16, 16, 4, 0, true);
  bench_mamba3(16, 16, 4, 2, true);
  bench_slstm(16, 32, 4);
  bench_mgrade(16, 32, 4);
  {
    irithyll::nn::MambaLearnerConfig c;
    c.n_state = 16;
    irithyll::nn::MambaLearner m(c, irithyll::LearnerContext{irithyll::Task::kRegression, 0, 8});
    bench_learner("mamba_v1", m, 8);
    c.version = irithyll::nn::MambaVersion::kV3;
    irithyll::nn::MambaLearner m3(c, irithyll::LearnerContext{irithyll::Task::kRegression, 0, 8});
    bench_learner("mamba_v3", m3, 8);
  }
  {
    irithyll::nn::SlstmLearnerConfig c;
    irithyll::nn::SlstmLearner m(c, irithyll::LearnerContext{irithyll::Task::kRegression, 0, 8});
    bench_learner("slstm", m, 8);
  }
  {
    irithyll::nn::MgradeLearnerConfig c;
    irithyll::nn::MgradeLearner m(c, irithyll::LearnerContext{irithyll::Task::kRegression, 0, 8});
    bench_learner("mgrade", m, 8);
  }
  if (!std::isfinite(sink)) std::printf("{\"warning\":\"non-finite output\"}\n");
  return 0;
}
