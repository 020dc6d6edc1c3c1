// Time-series benchmarks with known answers: each learner predicts the next
// value of a series one step ahead, test-then-train, and we report the
// prequential RMSE and NRMSE (RMSE / std of the target) over the samples
// after a 10% warm-up. One JSON line per (series, learner).
//
//   mackey_glass   tau = 17, a = 0.2, b = 0.1, n = 10 (Euler, dt 0.1, sampled every 1.0)
//   lorenz63       sigma 10, rho 28, beta 8/3, RK4 dt 0.025 (Gauthier et al. 2021's step),
//                  inputs (x, y, z)/20, target x_{t+1}/20
//   sine_drift     sin(0.1 t) for the first half, sin(0.23 t) after (an abrupt change)
//
// Learners: esn (N 100), ngrc (k 2, s 1, degree 2), spikenet (64 hidden; RLS
// readout, and spikenet_eprop with its integer readout), and
// rls_lagged (plain RLS on the last 4 observations + 1, the linear baseline).
// The SGBT column is left to the ensemble owner. For NG-RC on Lorenz-63 the
// paper (Gauthier, Bollt, Griffith & Barbosa 2021, Nat. Commun. 12:5564)
// reports a batch ridge fit and multi-step forecasts, not a streaming
// one-step prequential error; its figure is to be set beside ours by hand.
#include <cmath>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "readout/rls.hpp"

using namespace irithyll;
using namespace irithyll::nn;

namespace {

struct Series {
  std::string name;
  std::size_t dim;
  std::vector<std::vector<double>> x;  // observation at t
  std::vector<double> y;               // target: first component at t+1
};

Series mackey_glass(std::size_t n) {
  const double dt = 0.1;
  const int delay = 170;  // tau / dt
  std::vector<double> h(delay + 1, 1.2);
  std::deque<double> hist(h.begin(), h.end());
  double x = 1.2;
  std::vector<double> samples;
  for (std::size_t step = 0; samples.size() < n + 1 + 300; ++step) {
    const double xd = hist.front();
    x += dt * (0.2 * xd / (1.0 + std::pow(xd, 10.0)) - 0.1 * x);
    hist.pop_front();
    hist.push_back(x);
    if (step % 10 == 0) samples.push_back(x);
  }
  Series s{"mackey_glass", 1, {}, {}};
  for (std::size_t t = 300; t < 300 + n; ++t) {  // skip the transient
    s.x.push_back({samples[t]});
    s.y.push_back(samples[t + 1]);
  }
  return s;
}

Series lorenz63(std::size_t n) {
  auto f = [](const double* v, double* d) {
    d[0] = 10.0 * (v[1] - v[0]);
    d[1] = v[0] * (28.0 - v[2]) - v[1];
    d[2] = v[0] * v[1] - 8.0 / 3.0 * v[2];
  };
  double v[3] = {1.0, 1.0, 1.0};
  const double dt = 0.025;
  std::vector<std::vector<double>> states;
  for (std::size_t t = 0; t < n + 1 + 2000; ++t) {
    double k1[3], k2[3], k3[3], k4[3], tmp[3];
    f(v, k1);
    for (int i = 0; i < 3; ++i) tmp[i] = v[i] + 0.5 * dt * k1[i];
    f(tmp, k2);
    for (int i = 0; i < 3; ++i) tmp[i] = v[i] + 0.5 * dt * k2[i];
    f(tmp, k3);
    for (int i = 0; i < 3; ++i) tmp[i] = v[i] + dt * k3[i];
    f(tmp, k4);
    for (int i = 0; i < 3; ++i) v[i] += dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    states.push_back({v[0] / 20.0, v[1] / 20.0, v[2] / 20.0});
  }
  Series s{"lorenz63", 3, {}, {}};
  for (std::size_t t = 2000; t < 2000 + n; ++t) {
    s.x.push_back(states[t]);
    s.y.push_back(states[t + 1][0]);
  }
  return s;
}

Series sine_drift(std::size_t n) {
  Series s{"sine_drift", 1, {}, {}};
  auto val = [n](std::size_t t) { return std::sin((t < n / 2 ? 0.1 : 0.23) * static_cast<double>(t)); };
  for (std::size_t t = 0; t < n; ++t) {
    s.x.push_back({val(t)});
    s.y.push_back(val(t + 1));
  }
  return s;
}

// Plain RLS on the last `lags` observations (all components) and a constant.
class LaggedRls {
 public:
  LaggedRls(std::size_t dim, std::size_t lags) : dim_(dim), lags_(lags), rls_(dim * lags + 1, RlsConfig{0.999, 100.0}), f_(dim * lags + 1, 0.0) {}
  double predict(const std::vector<double>& x) {
    build(x);
    return rls_.predict(f_);
  }
  void learn(const std::vector<double>& x, double y) {
    build(x);
    rls_.update(f_, y);
    hist_.push_front(x);
    if (hist_.size() > lags_) hist_.pop_back();
  }

 private:
  void build(const std::vector<double>& x) {
    for (std::size_t l = 0; l < lags_; ++l)
      for (std::size_t j = 0; j < dim_; ++j)
        f_[l * dim_ + j] = l == 0 ? x[j] : (l - 1 < hist_.size() ? hist_[l - 1][j] : 0.0);
    f_.back() = 1.0;
  }
  std::size_t dim_, lags_;
  RecursiveLeastSquares rls_;
  std::vector<double> f_;
  std::deque<std::vector<double>> hist_;
};

void report(const Series& s, const char* learner, const std::vector<double>& pred) {
  const std::size_t start = s.y.size() / 10;
  double se = 0.0, mean = 0.0, var = 0.0;
  for (std::size_t t = start; t < s.y.size(); ++t) mean += s.y[t];
  mean /= static_cast<double>(s.y.size() - start);
  bool finite = true;
  for (std::size_t t = start; t < s.y.size(); ++t) {
    se += (pred[t] - s.y[t]) * (pred[t] - s.y[t]);
    var += (s.y[t] - mean) * (s.y[t] - mean);
    finite &= std::isfinite(pred[t]);
  }
  const double rmse = std::sqrt(se / static_cast<double>(s.y.size() - start));
  std::printf("{\"series\": \"%s\", \"learner\": \"%s\", \"samples\": %zu, \"prequential_rmse\": %.6g, \"nrmse\": %.6g, \"finite\": %s}\n",
              s.name.c_str(), learner, s.y.size(), rmse, rmse / std::sqrt(var / static_cast<double>(s.y.size() - start)),
              finite ? "true" : "false");
  std::fflush(stdout);
}

void run_learner(const Series& s, const char* name, Learner& m) {
  std::vector<double> pred(s.y.size());
  for (std::size_t t = 0; t < s.y.size(); ++t) {
    pred[t] = m.predict_one(s.x[t]);
    m.learn_one(s.x[t], s.y[t]);
  }
  report(s, name, pred);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? static_cast<std::size_t>(std::atol(argv[1])) : 10000;
  for (const Series& s : {mackey_glass(n), lorenz63(n), sine_drift(n)}) {
    {
      const LearnerContext context{Task::kRegression, 0, s.dim};
      EsnConfig c;
      c.leak = 0.9;
      c.spectral_radius = 0.9;
      EchoStateNetwork m(c, context);
      run_learner(s, "esn", m);
    }
    {
      const LearnerContext context{Task::kRegression, 0, s.dim};
      NgrcLearnerConfig c;
      c.k = 2;
      c.s = 1;
      NextGenReservoir m(c, context);
      run_learner(s, "ngrc", m);
    }
    {
      const LearnerContext context{Task::kRegression, 0, s.dim};
      SpikeNetLearnerConfig c;
      SpikeNetLearner m(c, context);
      run_learner(s, "spikenet", m);
      c.readout = SpikeNetReadout::kEprop;  // the integer-only readout, for comparison
      SpikeNetLearner e(c, context);
      run_learner(s, "spikenet_eprop", e);
    }
    {
      LaggedRls m(s.dim, 4);
      std::vector<double> pred(s.y.size());
      for (std::size_t t = 0; t < s.y.size(); ++t) {
        pred[t] = m.predict(s.x[t]);
        m.learn(s.x[t], s.y[t]);
      }
      report(s, "rls_lagged", pred);
    }
  }
  return 0;
}
