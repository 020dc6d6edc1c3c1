// Reservoir benchmarks (one JSON line per workload, ns per operation):
//   cycle_update    CycleReservoir::update at N = 100 and N = 500 (d = 1 and 16)
//   esn_sample      EchoStateNetwork predict_one + learn_one, N = 100 (RLS readout dominates)
//   ngrc_sample     NextGenReservoir predict_one + learn_one, d = 3, k = 2 (28 features)
// Targets: cycle update <= 450 ns at N 100 and <= 2500 ns at N 500.
#include <cmath>
#include <vector>

#include "bench_util_reservoir.hpp"
#include "nn/reservoir/cycle_reservoir.hpp"
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"

using namespace irithyll;
using namespace irithyll::nn;

int main() {
  for (std::size_t n : {100u, 500u}) {
    for (std::size_t d : {1u, 16u}) {
      CycleReservoirConfig c;
      c.n_neurons = n;
      c.n_inputs = d;
      CycleReservoir r(c);
      const std::size_t steps = 200000;
      std::vector<double> u(1024 * d);
      for (std::size_t i = 0; i < u.size(); ++i) u[i] = std::sin(0.01 * static_cast<double>(i));
      char params[96];
      std::snprintf(params, sizeof params, "\"n\": %zu, \"d\": %zu", n, d);
      bench::time_workload("cycle_update", params, steps, 5, [&] {
        for (std::size_t t = 0; t < steps; ++t) r.update(std::span<const double>(&u[(t & 1023) * d], d));
      });
    }
  }
  {
    EchoStateNetwork m(EsnConfig{}, LearnerContext{Task::kRegression, 0, 1});
    const std::size_t steps = 20000;
    bench::time_workload("esn_sample", "\"n\": 100, \"d\": 1", steps, 5, [&] {
      for (std::size_t t = 0; t < steps; ++t) {
        const double x = std::sin(0.05 * static_cast<double>(t)), y = std::sin(0.05 * static_cast<double>(t + 1));
        volatile double p = m.predict_one(std::span<const double>(&x, 1));
        (void)p;
        m.learn_one(std::span<const double>(&x, 1), y);
      }
    });
  }
  {
    NextGenReservoir m(NgrcLearnerConfig{}, LearnerContext{Task::kRegression, 0, 3});
    const std::size_t steps = 100000;
    bench::time_workload("ngrc_sample", "\"d\": 3, \"k\": 2, \"features\": 28", steps, 5, [&] {
      for (std::size_t t = 0; t < steps; ++t) {
        const double tt = 0.05 * static_cast<double>(t);
        const double x[3] = {std::sin(tt), std::cos(tt), std::sin(2 * tt)};
        volatile double p = m.predict_one(x);
        (void)p;
        m.learn_one(x, std::sin(tt + 0.05));
      }
    });
  }
  return 0;
}
