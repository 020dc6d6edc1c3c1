// Soak: many steps of every reservoir and spiking learner on a bounded,
// drifting, occasionally corrupted stream, checking that predictions stay
// finite. Default 10,000,000 steps per model (argv[1] overrides). Prints one
// JSON line per model with the step count, wall seconds, the number of
// non-finite predictions (must be 0) and the last prediction.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"

using namespace irithyll;
using namespace irithyll::nn;

namespace {
void soak(const char* name, Learner& m, std::uint64_t steps) {
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t bad = 0;
  double last = 0.0;
  for (std::uint64_t t = 0; t < steps; ++t) {
    const double tt = static_cast<double>(t);
    double x[3] = {std::sin(0.01 * tt) + 0.3 * std::sin(0.37 * tt), std::cos(0.013 * tt), (t / 100000) % 2 ? 1.5 : -0.5};
    if (t % 9973 == 0) x[1] = NAN;
    if (t % 10007 == 0) x[0] = 1e6;  // wild outlier
    const double y = std::sin(0.01 * (tt + 1)) * (1.0 + 0.5 * ((t / 1000000) % 3));
    last = m.predict_one(x);
    bad += !std::isfinite(last);
    m.learn_one(x, y);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"workload\": \"soak\", \"model\": \"%s\", \"steps\": %llu, \"seconds\": %.1f, \"non_finite\": %llu, \"last_prediction\": %.6g}\n",
              name, static_cast<unsigned long long>(steps), secs, static_cast<unsigned long long>(bad), last);
  std::fflush(stdout);
}
}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t steps = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000ull;
  {
    EchoStateNetwork m(EsnConfig{}, LearnerContext{Task::kRegression, 0, 3});
    soak("esn", m, steps);
  }
  {
    NextGenReservoir m(NgrcLearnerConfig{}, LearnerContext{Task::kRegression, 0, 3});
    soak("ngrc", m, steps);
  }
  {
    SpikeNetLearner m(SpikeNetLearnerConfig{}, LearnerContext{Task::kRegression, 0, 3});
    soak("spikenet", m, steps);
  }
  return 0;
}
