// Spiking-network benchmarks (one JSON line per workload, ns per operation),
// 64 hidden neurons, 10 inputs, 1 output (the microcontroller configuration):
//   snn_forward      SpikeNet::forward (integer inference step)
//   snn_train_step   SpikeNet::train_step (forward + e-prop + readout update)
//   spikenet_sample  SpikeNetLearner predict_one + learn_one (with Q14 conversion)
// Targets: forward <= 800 ns, training step <= 2000 ns.
#include <cmath>
#include <cstdint>
#include <vector>

#include "bench_util_reservoir.hpp"
#include "nn/snn/q14.hpp"
#include "nn/snn/spike_net.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"

using namespace irithyll;
using namespace irithyll::nn;

int main() {
  SpikeNetConfig c;
  c.n_input = 10;
  c.n_hidden = 64;
  c.n_output = 1;
  std::vector<std::int16_t> xs(1024 * 10), ys(1024);
  for (std::size_t t = 0; t < 1024; ++t) {
    for (std::size_t f = 0; f < 10; ++f) xs[t * 10 + f] = q14::to_q14(std::sin(0.07 * static_cast<double>(t) + static_cast<double>(f)));
    ys[t] = q14::to_q14(std::sin(0.07 * static_cast<double>(t + 1)));
  }
  const std::size_t steps = 200000;
  {
    SpikeNet net(c);
    bench::time_workload("snn_forward", "\"hidden\": 64, \"inputs\": 10", steps, 5, [&] {
      for (std::size_t t = 0; t < steps; ++t) net.forward(std::span<const std::int16_t>(&xs[(t & 1023) * 10], 10));
    });
  }
  {
    SpikeNet net(c);
    bench::time_workload("snn_train_step", "\"hidden\": 64, \"inputs\": 10", steps, 5, [&] {
      for (std::size_t t = 0; t < steps; ++t)
        net.train_step(std::span<const std::int16_t>(&xs[(t & 1023) * 10], 10), std::span<const std::int16_t>(&ys[t & 1023], 1));
    });
    std::printf("{\"workload\": \"snn_state_bytes\", \"hidden\": 64, \"inputs\": 10, \"bytes\": %zu}\n", net.state_bytes());
  }
  {
    SpikeNetLearner m(SpikeNetLearnerConfig{}, LearnerContext{Task::kRegression, 0, 10});
    std::vector<double> xd(1024 * 10);
    for (std::size_t i = 0; i < xd.size(); ++i) xd[i] = q14::from_q14(xs[i]);
    bench::time_workload("spikenet_sample", "\"hidden\": 64, \"inputs\": 10", steps, 5, [&] {
      for (std::size_t t = 0; t < steps; ++t) {
        std::span<const double> x(&xd[(t & 1023) * 10], 10);
        volatile double p = m.predict_one(x);
        (void)p;
        m.learn_one(x, q14::from_q14(ys[t & 1023]));
      }
    });
  }
  return 0;
}
