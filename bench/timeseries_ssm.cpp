// Time-series benchmarks with known answers for the SSM / recurrent learners,
// prequential (predict, then learn, every sample), one JSON line per
// (series, model): RMSE and NRMSE (RMSE / std of the target) over the samples
// after a 500-sample burn-in.
//
//   mackey_glass  tau = 17, a = 0.2, b = 0.1, n = 10; RK4 with dt = 0.1 and the
//                 delayed value interpolated from the history, sampled every 1
//                 time unit; predict x(t+1) from x(t). 10,000 samples.
//   lorenz63      sigma 10, rho 28, beta 8/3; RK4, dt = 0.025 (Gauthier et al.
//                 2021); input (x, y, z)/20, predict x(t+dt)/20. 10,000 samples.
//   sine_drift    sin(w t) + N(0, 0.01^2), w = 0.2 then 0.5 from sample 5,000;
//                 predict the clean next value from the noisy current one.
//
// Models see only the current sample, so memory has to come from their state.
// Baselines: persistence (y = current value), a plain RLS on 4 lags + bias and
// the SGBT (default config) on the same 4 lags.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "readout/rls.hpp"

namespace {

using irithyll::Learner;

struct Series {
  std::string name;
  std::vector<std::vector<double>> x;  // inputs at t
  std::vector<double> y;               // target for t (the next value)
};

Series mackey_glass(std::size_t n) {
  const double dt = 0.1, tau = 17.0;
  const std::size_t lag = static_cast<std::size_t>(tau / dt), sub = 10, burn = 1000;
  std::vector<double> h(lag + 1, 1.2);
  auto f = [](double x, double xd) { return 0.2 * xd / (1.0 + std::pow(xd, 10.0)) - 0.1 * x; };
  std::vector<double> samples;
  while (samples.size() < n + 1 + burn) {
    for (std::size_t s = 0; s < sub; ++s) {
      const std::size_t m = h.size();
      const double x = h[m - 1], xd0 = h[m - 1 - lag], xd1 = h[m - lag];
      const double xdh = 0.5 * (xd0 + xd1);  // delayed value at t + dt/2
      const double k1 = f(x, xd0), k2 = f(x + 0.5 * dt * k1, xdh), k3 = f(x + 0.5 * dt * k2, xdh), k4 = f(x + dt * k3, xd1);
      h.push_back(x + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4));
    }
    samples.push_back(h.back());
  }
  Series s{"mackey_glass", {}, {}};
  for (std::size_t t = burn; t < burn + n; ++t) {
    s.x.push_back({samples[t] - 0.9});
    s.y.push_back(samples[t + 1] - 0.9);
  }
  return s;
}

Series lorenz63(std::size_t n) {
  const double dt = 0.025;
  double v[3] = {1.0, 1.0, 1.0};
  auto deriv = [](const double* p, double* d) {
    d[0] = 10.0 * (p[1] - p[0]);
    d[1] = p[0] * (28.0 - p[2]) - p[1];
    d[2] = p[0] * p[1] - 8.0 / 3.0 * p[2];
  };
  auto step = [&]() {
    double k1[3], k2[3], k3[3], k4[3], t[3];
    deriv(v, k1);
    for (int i = 0; i < 3; ++i) t[i] = v[i] + 0.5 * dt * k1[i];
    deriv(t, k2);
    for (int i = 0; i < 3; ++i) t[i] = v[i] + 0.5 * dt * k2[i];
    deriv(t, k3);
    for (int i = 0; i < 3; ++i) t[i] = v[i] + dt * k3[i];
    deriv(t, k4);
    for (int i = 0; i < 3; ++i) v[i] += dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  };
  for (int i = 0; i < 2000; ++i) step();
  Series s{"lorenz63", {}, {}};
  for (std::size_t t = 0; t < n; ++t) {
    s.x.push_back({v[0] / 20.0, v[1] / 20.0, (v[2] - 25.0) / 20.0});
    step();
    s.y.push_back(v[0] / 20.0);
  }
  return s;
}

Series sine_drift(std::size_t n) {
  irithyll::Xorshift64 rng(3);
  Series s{"sine_drift", {}, {}};
  double phase = 0.0;
  for (std::size_t t = 0; t < n; ++t) {
    const double w = t < n / 2 ? 0.2 : 0.5;
    const double next = phase + w;
    s.x.push_back({std::sin(phase) + 0.01 * rng.normal()});
    s.y.push_back(std::sin(next));
    phase = next;
  }
  return s;
}

// A model under test: predict then learn, given the current input row.
struct Model {
  std::string name;
  std::function<double(const std::vector<double>&)> predict;
  std::function<void(const std::vector<double>&, double)> learn;
};

Model wrap(const std::string& name, std::shared_ptr<Learner> l) {
  return {name, [l](const std::vector<double>& x) { return l->predict_one(x); },
          [l](const std::vector<double>& x, double y) { l->learn_one(x, y); }};
}

// Models on 4 lags of the inputs (flattened) + nothing else.
struct Lags {
  std::size_t k;
  std::deque<std::vector<double>> rows;
  std::vector<double> flat;
  const std::vector<double>& with(const std::vector<double>& x) {
    flat.clear();
    flat.insert(flat.end(), x.begin(), x.end());
    for (std::size_t i = 0; i + 1 < k; ++i) {
      const auto& r = i < rows.size() ? rows[i] : x;
      flat.insert(flat.end(), r.begin(), r.end());
    }
    return flat;
  }
  void push(const std::vector<double>& x) {
    rows.push_front(x);
    if (rows.size() > k) rows.pop_back();
  }
};

std::vector<Model> models(std::size_t d) {
  std::vector<Model> out;
  out.push_back({"persistence", [](const std::vector<double>& x) { return x[0]; }, [](const std::vector<double>&, double) {}});
  {
    auto lags = std::make_shared<Lags>(Lags{4, {}, {}});
    auto rls = std::make_shared<irithyll::RecursiveLeastSquares>(4 * d + 1, irithyll::RlsConfig{0.998, 100.0});
    auto feats = std::make_shared<std::vector<double>>();
    auto make = [lags, feats](const std::vector<double>& x) -> const std::vector<double>& {
      *feats = lags->with(x);
      feats->push_back(1.0);
      return *feats;
    };
    out.push_back({"rls_lag4", [rls, make](const std::vector<double>& x) { return rls->predict(make(x)); },
                   [rls, make, lags](const std::vector<double>& x, double y) {
                     rls->update(make(x), y);
                     lags->push(x);
                   }});
  }
  {
    auto lags = std::make_shared<Lags>(Lags{4, {}, {}});
    auto sgbt = std::make_shared<irithyll::SGBTLearner>();
    out.push_back({"sgbt_lag4", [sgbt, lags](const std::vector<double>& x) { return sgbt->predict_one(lags->with(x)); },
                   [sgbt, lags](const std::vector<double>& x, double y) {
                     sgbt->learn_one(lags->with(x), y);
                     lags->push(x);
                   }});
  }
  using namespace irithyll::nn;
  for (MambaVersion v : {MambaVersion::kV1, MambaVersion::kV3, MambaVersion::kV3Mimo, MambaVersion::kBlockDiagonal}) {
    MambaLearnerConfig c;
    c.version = v;
    c.n_state = 16;
    c.rank = 2;
    const char* names[] = {"mamba_v1", "mamba_v3", "mamba_v3_tustin", "mamba_v3_mimo", "mamba_bd"};
    out.push_back(wrap(names[static_cast<int>(v)], std::make_shared<MambaLearner>(c, irithyll::LearnerContext{irithyll::Task::kRegression, 0, d})));
  }
  {
    SlstmLearnerConfig c;
    out.push_back(wrap("slstm", std::make_shared<SlstmLearner>(c, irithyll::LearnerContext{irithyll::Task::kRegression, 0, d})));
  }
  {
    MgradeLearnerConfig c;
    out.push_back(wrap("mgrade", std::make_shared<MgradeLearner>(c, irithyll::LearnerContext{irithyll::Task::kRegression, 0, d})));
  }
  return out;
}

void evaluate(const Series& s) {
  const std::size_t burn = 500;
  double mean = 0.0, var = 0.0;
  for (std::size_t t = burn; t < s.y.size(); ++t) mean += s.y[t];
  mean /= static_cast<double>(s.y.size() - burn);
  for (std::size_t t = burn; t < s.y.size(); ++t) var += (s.y[t] - mean) * (s.y[t] - mean);
  const double sd = std::sqrt(var / static_cast<double>(s.y.size() - burn));
  for (auto& m : models(s.x[0].size())) {
    double se = 0.0, se_tail = 0.0;
    std::size_t n_tail = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t t = 0; t < s.y.size(); ++t) {
      const double p = m.predict(s.x[t]);
      if (t >= burn) se += (p - s.y[t]) * (p - s.y[t]);
      if (t >= s.y.size() / 2 + burn) se_tail += (p - s.y[t]) * (p - s.y[t]), ++n_tail;
      m.learn(s.x[t], s.y[t]);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double rmse = std::sqrt(se / static_cast<double>(s.y.size() - burn));
    std::printf("{\"series\":\"%s\",\"model\":\"%s\",\"rmse\":%.6g,\"nrmse\":%.6g,\"rmse_second_half\":%.6g,"
                "\"us_per_sample\":%.2f}\n",
                s.name.c_str(), m.name.c_str(), rmse, rmse / sd, std::sqrt(se_tail / static_cast<double>(n_tail)),
                1e6 * secs / static_cast<double>(s.y.size()));
    std::fflush(stdout);
  }
}

}  // namespace

int main() {
  evaluate(mackey_glass(10000));
  evaluate(lorenz63(10000));
  evaluate(sine_drift(10000));
  return 0;
}
