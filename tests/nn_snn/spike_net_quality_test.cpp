// One-step prediction quality of the spiking learner on the chaotic series of
// bench/timeseries.cpp (Mackey-Glass tau = 17 and Lorenz-63 x/20), over seeds.
// Budget: with the default RLS readout the prequential NRMSE after a 10%
// warm-up stays below 0.6 x that of repeating the last value (persistence:
// 0.147 and 0.136) for every seed; measured ~0.06 and ~0.013 at seed 42.
// The integer e-prop readout is not held to a quality budget: at its default
// rates (tuned so the sine test of spike_net_test.cpp learns) it does worse
// than the mean on these series (NRMSE 1.2-2.0), because it cannot represent
// the level of a slow series (spike_net_learner.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <vector>

#include "irithyll/nn/snn/spike_net_learner.hpp"

namespace irithyll::nn {
namespace {

struct Series {
  std::size_t dim;
  std::vector<std::vector<double>> x;
  std::vector<double> y;
};

Series mackey_glass(std::size_t n) {
  const double dt = 0.1;
  std::deque<double> hist(171, 1.2);
  double x = 1.2;
  std::vector<double> v;
  for (std::size_t step = 0; v.size() < n + 301; ++step) {
    const double xd = hist.front();
    x += dt * (0.2 * xd / (1.0 + std::pow(xd, 10.0)) - 0.1 * x);
    hist.pop_front();
    hist.push_back(x);
    if (step % 10 == 0) v.push_back(x);
  }
  Series s{1, {}, {}};
  for (std::size_t t = 300; t < 300 + n; ++t) s.x.push_back({v[t]}), s.y.push_back(v[t + 1]);
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
  std::vector<std::vector<double>> st;
  for (std::size_t t = 0; t < n + 2001; ++t) {
    double k1[3], k2[3], k3[3], k4[3], tmp[3];
    f(v, k1);
    for (int i = 0; i < 3; ++i) tmp[i] = v[i] + 0.5 * dt * k1[i];
    f(tmp, k2);
    for (int i = 0; i < 3; ++i) tmp[i] = v[i] + 0.5 * dt * k2[i];
    f(tmp, k3);
    for (int i = 0; i < 3; ++i) tmp[i] = v[i] + dt * k3[i];
    f(tmp, k4);
    for (int i = 0; i < 3; ++i) v[i] += dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    st.push_back({v[0] / 20.0, v[1] / 20.0, v[2] / 20.0});
  }
  Series s{3, {}, {}};
  for (std::size_t t = 2000; t < 2000 + n; ++t) s.x.push_back(st[t]), s.y.push_back(st[t + 1][0]);
  return s;
}

// NRMSE of the prequential predictions and of persistence, after 10% warm-up.
std::pair<double, double> nrmse(const Series& s, Learner& m) {
  const std::size_t start = s.y.size() / 10;
  double se = 0.0, sp = 0.0, mean = 0.0, var = 0.0;
  for (std::size_t t = start; t < s.y.size(); ++t) mean += s.y[t];
  mean /= static_cast<double>(s.y.size() - start);
  for (std::size_t t = 0; t < s.y.size(); ++t) {
    const double p = m.predict_one(s.x[t]);
    m.learn_one(s.x[t], s.y[t]);
    if (t < start) continue;
    se += (p - s.y[t]) * (p - s.y[t]);
    sp += (s.x[t][0] - s.y[t]) * (s.x[t][0] - s.y[t]);
    var += (s.y[t] - mean) * (s.y[t] - mean);
  }
  return {std::sqrt(se / var), std::sqrt(sp / var)};
}

TEST(SpikeNetQuality, RlsReadoutBeatsPersistenceOnChaoticSeriesOverSeeds) {
  for (const Series& s : {mackey_glass(4000), lorenz63(4000)}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      SpikeNetLearnerConfig c;
      const LearnerContext context{Task::kRegression, 0, s.dim, seed};
      SpikeNetLearner m(c, context);
      const auto [model, persistence] = nrmse(s, m);
      EXPECT_LT(model, 0.6 * persistence) << "dim " << s.dim << " seed " << seed << " persistence " << persistence;
      // The integer e-prop readout on the same network stays finite (it is
      // not held to a quality budget here; see the header comment).
      SpikeNetLearnerConfig e = c;
      e.readout = SpikeNetReadout::kEprop;
      SpikeNetLearner integer_only(e, context);
      EXPECT_TRUE(std::isfinite(nrmse(s, integer_only).first));
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
