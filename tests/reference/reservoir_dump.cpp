// Prints, as JSON, a cycle reservoir's weights and its states over 64 random
// inputs (dispatched kernel), and an NG-RC learner's features and one-step
// predictions over 64 samples, for tests/reference/reservoir_reference.py to
// recompute with NumPy.
#include <cstdio>
#include <span>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/reservoir/cycle_reservoir.hpp"
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"

namespace {
void print_vec(std::span<const double> v) {
  std::printf("[");
  for (std::size_t i = 0; i < v.size(); ++i) std::printf("%s%.17g", i ? "," : "", v[i]);
  std::printf("]");
}
}  // namespace

int main() {
  using namespace irithyll;
  using namespace irithyll::nn;
  CycleReservoirConfig c;
  c.n_neurons = 37;
  c.n_inputs = 2;
  c.spectral_radius = 0.95;
  c.input_scaling = 0.8;
  c.leak = 0.6;
  c.bias_scaling = 0.2;
  c.seed = 5;
  CycleReservoir r(c);
  Xorshift64 rng(17);
  std::printf("{\"esn\": {\"leak\": %.17g, \"w_cyc\": ", c.leak);
  print_vec(r.cycle_weights());
  std::printf(", \"w_in\": [");
  for (std::size_t i = 0; i < c.n_neurons; ++i) {
    const double row[2] = {r.input_weight(i, 0), r.input_weight(i, 1)};
    std::printf("%s", i ? "," : "");
    print_vec(row);
  }
  std::printf("], \"bias\": ");
  print_vec(r.bias());
  std::printf(", \"u\": [");
  std::vector<std::vector<double>> states;
  for (int t = 0; t < 64; ++t) {
    const double u[2] = {rng.normal(), rng.uniform(-2.0, 2.0)};
    r.update(u);
    states.emplace_back(r.state().begin(), r.state().end());
    std::printf("%s", t ? "," : "");
    print_vec(u);
  }
  std::printf("], \"states\": [");
  for (std::size_t t = 0; t < states.size(); ++t) {
    std::printf("%s", t ? "," : "");
    print_vec(states[t]);
  }
  // NG-RC learner: k = 3 taps, s = 2, degree 2, on a 2-d input.
  NgrcLearnerConfig n;
  n.k = 3;
  n.s = 2;
  n.rls = RlsConfig{0.995, 50.0};
  NextGenReservoir ng(n, {});
  std::printf("]},\n\"ngrc\": {\"k\": 3, \"s\": 2, \"lambda\": 0.995, \"delta\": 50.0, \"x\": [");
  std::vector<double> ys, preds;
  for (int t = 0; t < 64; ++t) {
    const double x[2] = {std::sin(0.3 * t) + 0.1 * rng.normal(), rng.uniform(-1.0, 1.0)};
    const double y = x[0] * x[1] + 0.5 * x[0];
    preds.push_back(ng.predict_one(x));
    ng.learn_one(x, y);
    ys.push_back(y);
    std::printf("%s", t ? "," : "");
    print_vec(x);
  }
  std::printf("], \"y\": ");
  print_vec(ys);
  std::printf(", \"pred\": ");
  print_vec(preds);
  std::printf("}}\n");
  return 0;
}
