// "ttt" per-sample cost (one JSON line per workload, ns per operation; the
// thread-CPU figure is the one to compare on a shared machine):
//   ttt_learn          learn_one, default settings (d-model 32, batch 16), 10 features
//   ttt_predict_learn  predict_one + learn_one (the prequential loop), same settings
//   ttt_learn_online   learn_one with batch-size 1 (a fast-weight step per sample)
#include <vector>

#include "bench_util_reservoir.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/nn/ttt/ttt_learner.hpp"

using namespace irithyll;
using namespace irithyll::nn;

namespace {

constexpr std::size_t kF = 10;
constexpr std::size_t kRows = 4096;

std::vector<double> rows() {
  Xorshift64 rng(3);
  std::vector<double> x(kRows * (kF + 1));
  for (std::size_t r = 0; r < kRows; ++r) {
    double y = 0.0;
    for (std::size_t j = 0; j < kF; ++j) y += (x[r * (kF + 1) + j] = rng.uniform()) * static_cast<double>(j % 3);
    x[r * (kF + 1) + kF] = y + 0.1 * rng.normal();
  }
  return x;
}

void run(const char* name, const char* params, TttLearnerConfig c, bool predict) {
  static const std::vector<double> data = rows();
  TttLearner m(c, LearnerContext{Task::kRegression, 0, kF, 42});
  const std::size_t steps = 20000;
  bench::time_workload(name, params, steps, 5, [&] {
    for (std::size_t t = 0; t < steps; ++t) {
      const double* r = &data[(t % kRows) * (kF + 1)];
      const std::span<const double> x(r, kF);
      if (predict) {
        volatile double p = m.predict_one(x);
        (void)p;
      }
      m.learn_one(x, r[kF]);
    }
  });
}

}  // namespace

int main() {
  run("ttt_learn", "\"d_model\": 32, \"batch\": 16, \"features\": 10", TttLearnerConfig{}, false);
  run("ttt_predict_learn", "\"d_model\": 32, \"batch\": 16, \"features\": 10", TttLearnerConfig{}, true);
  TttLearnerConfig online;
  online.batch_size = 1;
  run("ttt_learn_online", "\"d_model\": 32, \"batch\": 1, \"features\": 10", online, false);
  return 0;
}
