// Long-run stability driver shared by bench/ssm_soak.cpp (10 million steps per
// model) and its short CTest version (tests/soak_ssm): drives every SSM and
// recurrent model of the nn_ssm / nn_rnn areas with a deterministic
// heavy-tailed stream (N(0,1) around a slowly drifting mean, one sample in 100
// replaced by +-50) and reports whether any output or state ever left the
// finite numbers, plus the largest magnitudes seen. Learners also get NaN
// features and targets now and then (they must impute or skip them).
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
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

namespace irithyll::soak {

struct Result {
  std::string model;
  std::uint64_t steps = 0;
  bool finite = true;
  std::uint64_t first_bad_step = 0;
  double max_abs_output = 0.0;
  double seconds = 0.0;
};

// One model behind a uniform step: x -> outputs (written to out), returns the
// values to check (outputs plus, every 1024 steps, the state).
struct Model {
  std::string name;
  std::size_t d_in = 8;
  std::function<void(std::span<const double>, std::vector<double>&, bool with_state)> step;
};

inline std::vector<std::string> model_names() {
  return {"mamba1", "mamba_bd", "mamba3_siso", "mamba3_mimo", "mamba3_tustin", "slstm", "mgrade_cells",
          "learner_mamba_v1", "learner_mamba_v3", "learner_slstm", "learner_mgrade"};
}

inline Model make_model(const std::string& name) {
  constexpr std::size_t d = 8;
  Model m{name, d, {}};
  auto layer_step = [](auto layer) {
    return [layer](std::span<const double> x, std::vector<double>& out, bool with_state) {
      out.resize(layer->output_dim());
      layer->forward(x, out);
      if (with_state) out.insert(out.end(), layer->state().begin(), layer->state().end());
    };
  };
  auto learner_step = [](auto learner) {
    return [learner](std::span<const double> x, std::vector<double>& out, bool) {
      out.assign(1, learner->predict_one(x));
      learner->learn_one(x, std::isfinite(x[0]) ? std::tanh(x[0]) : 0.0);
    };
  };
  nn::Mamba3Config c3;
  c3.d_in = d;
  c3.n_state = 16;
  c3.n_groups = 2;
  if (name == "mamba1") m.step = layer_step(std::make_shared<nn::SelectiveSsm>(nn::SelectiveSsmConfig{.d_in = d, .n_state = 16}));
  if (name == "mamba_bd")
    m.step = layer_step(std::make_shared<nn::SelectiveSsmBd>(nn::SelectiveSsmBdConfig{.d_in = d, .n_state = 16, .block_size = 4}));
  if (name == "mamba3_siso") m.step = layer_step(std::make_shared<nn::Mamba3>(c3));
  if (name == "mamba3_mimo") {
    c3.rank = 2;
    m.step = layer_step(std::make_shared<nn::Mamba3>(c3));
  }
  if (name == "mamba3_tustin") {
    c3.discretization = nn::Mamba3Discretization::kTustin;
    c3.use_bcnorm = false;
    m.step = layer_step(std::make_shared<nn::Mamba3>(c3));
  }
  if (name == "slstm") {
    nn::SlstmConfig c;
    c.d_in = d;
    c.d_hidden = 16;
    c.n_heads = 4;
    auto cell = std::make_shared<nn::SlstmCell>(c);
    m.step = [cell](std::span<const double> x, std::vector<double>& out, bool with_state) {
      out.resize(cell->d_hidden());
      cell->forward(x, out);
      if (with_state) {
        out.insert(out.end(), cell->cell().begin(), cell->cell().end());
        out.insert(out.end(), cell->normalizer().begin(), cell->normalizer().end());
        out.insert(out.end(), cell->stabilizer().begin(), cell->stabilizer().end());
      }
    };
  }
  if (name == "mgrade_cells") {
    auto conv = std::make_shared<nn::DelayConv1d>(d, 4, 1);
    auto gru = std::make_shared<nn::MinGruCell>(nn::MinGruConfig{d, 16, 2});
    auto mid = std::make_shared<std::vector<double>>(d);
    m.step = [conv, gru, mid](std::span<const double> x, std::vector<double>& out, bool) {
      out.resize(gru->d_hidden());
      conv->forward(x, *mid);
      gru->forward(*mid, out);
    };
  }
  nn::MambaLearnerConfig mc;
  mc.n_state = 8;
  mc.n_groups = 2;
  if (name == "learner_mamba_v1") m.step = learner_step(std::make_shared<nn::MambaLearner>(mc, LearnerContext{Task::kRegression, 0, d}));
  if (name == "learner_mamba_v3") {
    mc.version = nn::MambaVersion::kV3;
    m.step = learner_step(std::make_shared<nn::MambaLearner>(mc, LearnerContext{Task::kRegression, 0, d}));
  }
  if (name == "learner_slstm") {
    nn::SlstmLearnerConfig c;
    c.d_hidden = 16;
    m.step = learner_step(std::make_shared<nn::SlstmLearner>(c, LearnerContext{Task::kRegression, 0, d}));
  }
  if (name == "learner_mgrade") {
    nn::MgradeLearnerConfig c;
    c.d_hidden = 16;
    m.step = learner_step(std::make_shared<nn::MgradeLearner>(c, LearnerContext{Task::kRegression, 0, d}));
  }
  return m;
}

inline Result run(const std::string& name, std::uint64_t steps, std::uint64_t seed) {
  Result r;
  r.model = name;
  Model m = make_model(name);
  if (!m.step) {
    r.finite = false;
    return r;
  }
  const bool learner = name.rfind("learner_", 0) == 0;
  Xorshift64 rng(seed);
  std::vector<double> x(m.d_in), out;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t t = 0; t < steps; ++t) {
    const double drift = 3.0 * std::sin(static_cast<double>(t) * 1e-5);
    for (double& v : x) v = rng.below(100) == 0 ? (rng.below(2) ? 50.0 : -50.0) : drift + rng.normal();
    if (learner && rng.below(1000) == 0) x[rng.below(x.size())] = std::nan("");
    m.step(x, out, (t & 1023) == 0 || t + 1 == steps);
    for (double v : out) {
      if (!std::isfinite(v)) {
        r.finite = false;
        r.first_bad_step = t;
        break;
      }
      r.max_abs_output = std::max(r.max_abs_output, std::abs(v));
    }
    ++r.steps;
    if (!r.finite) break;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace irithyll::soak
