// Runs a small SpikeNet for a fixed number of training steps and prints, as
// JSON, the configuration, the inputs and targets it used, the outputs and
// spike counts per step and the final weights, eligibilities and membranes,
// for tests/reference/snn_reference.py to recompute in Python integers.
#include <cstdio>
#include <span>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/snn/spike_net.hpp"

using irithyll::nn::SpikeNet;
using irithyll::nn::SpikeNetConfig;

namespace {
void print_array(const char* name, std::span<const std::int16_t> v) {
  std::printf("\"%s\": [", name);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf("%s%d", i ? "," : "", v[i]);
  std::printf("],\n");
}
}  // namespace

int main() {
  SpikeNetConfig c;
  c.n_input = 3;
  c.n_hidden = 21;  // not a multiple of 16: exercises the kernels' scalar tails
  c.n_output = 2;
  c.eta = 4096;     // large enough that hidden weights visibly move
  c.init_range = 3000;
  c.eta_bias = 2000;
  c.seed = 7;
  SpikeNet net(c);
  const int steps = 300;
  irithyll::Xorshift64 rng(99);
  std::vector<std::int16_t> x(c.n_input), y(c.n_output);
  std::printf("{\n\"config\": {\"n_input\": %u, \"n_hidden\": %u, \"n_output\": %u, \"alpha\": %d, \"kappa\": %d, "
              "\"kappa_out\": %d, \"eta\": %d, \"eta_out\": %d, \"eta_bias\": %d, \"threshold\": %d, \"gamma\": %d, \"encoder_threshold\": %d, "
              "\"init_range\": %d, \"target_rate\": %d, \"rate_shift\": %d, \"gain\": %d, \"seed\": %llu},\n",
              c.n_input, c.n_hidden, c.n_output, c.alpha, c.kappa, c.kappa_out, c.eta, c.eta_out, c.eta_bias, c.threshold, c.gamma,
              c.encoder_threshold, c.init_range, c.gate.target_rate, c.gate.rate_shift, c.gate.gain,
              static_cast<unsigned long long>(c.seed));
  std::printf("\"steps\": [\n");
  for (int t = 0; t < steps; ++t) {
    for (auto& v : x) v = static_cast<std::int16_t>(static_cast<std::int64_t>(rng.below(40001)) - 20000);
    for (auto& v : y) v = static_cast<std::int16_t>(static_cast<std::int64_t>(rng.below(32001)) - 16000);
    if (t % 3 == 2) net.forward(x); else net.train_step(x, y);
    std::printf("{\"train\": %d, \"x\": [%d,%d,%d], \"y\": [%d,%d], \"out\": [%d,%d], \"spikes\": %zu}%s\n", t % 3 != 2,
                x[0], x[1], x[2], y[0], y[1], net.output(0), net.output(1), net.hidden_spike_count(),
                t + 1 < steps ? "," : "");
  }
  std::printf("],\n");
  print_array("w_in", net.w_in());
  print_array("e_in", net.e_in());
  print_array("w_rec", net.w_rec());
  print_array("e_rec", net.e_rec());
  print_array("w_out", net.w_out());
  print_array("drive", net.drives());
  std::printf("\"v\": [");
  for (std::size_t i = 0; i < c.n_hidden; ++i) std::printf("%s%d", i ? "," : "", net.membranes()[i]);
  std::printf("]\n}\n");
  return 0;
}
