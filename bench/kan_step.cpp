// Samples per second of the "kan" learner (default settings) on a 10-feature
// regression stream: predict_one then learn_one per sample, thread CPU time,
// median of 5 runs of 50,000 samples. Prints one JSON line.
//   bench_kan_step [n_features]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/kan/kan.hpp"

namespace {
double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  const std::size_t d = argc > 1 ? static_cast<std::size_t>(std::atoi(argv[1])) : 10;
  constexpr std::size_t kSamples = 50000;
  irithyll::Xorshift64 rng(1);
  std::vector<double> rows(kSamples * d), ys(kSamples);
  for (std::size_t t = 0; t < kSamples; ++t) {
    double* x = &rows[t * d];
    for (std::size_t i = 0; i < d; ++i) x[i] = rng.uniform();
    ys[t] = 10 * std::sin(3.141592653589793 * x[0] * x[std::min<std::size_t>(1, d - 1)]) + 5 * x[d - 1] + rng.normal();
  }
  std::vector<double> rates;
  double sink = 0.0;
  for (int rep = 0; rep < 5; ++rep) {
    irithyll::LearnerContext ctx;
    ctx.n_features = d;
    auto m = irithyll::nn::KolmogorovArnoldNetwork::make({}, ctx);
    if (!m) return 1;
    const double t0 = thread_seconds();
    for (std::size_t t = 0; t < kSamples; ++t) {
      const std::span<const double> x(&rows[t * d], d);
      sink += (*m)->predict_one(x);
      (*m)->learn_one(x, ys[t]);
    }
    rates.push_back(static_cast<double>(kSamples) / (thread_seconds() - t0));
  }
  std::sort(rates.begin(), rates.end());
  std::printf("{\"bench\":\"kan_step\",\"n_features\":%zu,\"samples_per_s_median\":%.0f,\"min\":%.0f,\"max\":%.0f,\"sink\":%g}\n",
              d, rates[2], rates[0], rates[4], sink);
  return 0;
}
