// Throughput of the linear models and naive Bayes from the library: one
// prequential step (predict_one, then learn_one) per item on 10 features,
// through the catalogue's Learner interface. The samples are generated
// beforehand and cycled, so the loop measures the model alone.
//
//   cmake --build build --target bench_linear_gbench && build/bench/bench_linear_gbench
//
// items_per_second is samples per second (learn + predict).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kFeatures = 10, kSamples = 4096;

void prequential(benchmark::State& state, const std::string& model, Task task, const ModelSettings& settings) {
  LearnerContext context{task, task == Task::kClassification ? 2u : 0u, kFeatures, 1};
  auto made = make_learner(model, settings, context);
  if (!made) {
    state.SkipWithError(made.status().to_string().c_str());
    return;
  }
  auto& learner = *made.value();
  Xorshift64 rng(3);
  std::vector<double> xs(kSamples * kFeatures), ys(kSamples);
  for (std::size_t i = 0; i < kSamples; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < kFeatures; ++j) {
      // Counts for the multinomial model, real values otherwise.
      const double v = model == "multinomial_nb" ? std::floor(3.0 * rng.uniform()) : rng.normal();
      xs[i * kFeatures + j] = v;
      s += (j % 3 == 0 ? 1.0 : -0.5) * v;
    }
    ys[i] = task == Task::kClassification ? (s > 0.0 ? 1.0 : 0.0) : s + 0.1 * rng.normal();
  }
  std::size_t i = 0;
  double sink = 0.0;
  for (auto _ : state) {
    const std::span<const double> x(&xs[i * kFeatures], kFeatures);
    sink += learner.predict_one(x);
    learner.learn_one(x, ys[i]);
    i = i + 1 == kSamples ? 0 : i + 1;
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void Register() {
  const struct {
    const char* model;
    Task task;
    ModelSettings settings;
  } rows[] = {
      {"linear_regression", Task::kRegression, {}},
      {"linear_regression", Task::kRegression, {{"optimizer", "adam"}}},
      {"logistic_regression", Task::kClassification, {}},
      {"softmax_regression", Task::kClassification, {}},
      {"passive_aggressive", Task::kClassification, {}},
      {"passive_aggressive", Task::kRegression, {}},
      {"perceptron", Task::kClassification, {}},
      {"alma", Task::kClassification, {}},
      {"rls", Task::kRegression, {}},
      {"krls", Task::kRegression, {}},
      {"gaussian_nb", Task::kClassification, {}},
      {"multinomial_nb", Task::kClassification, {}},
      {"bernoulli_nb", Task::kClassification, {}},
  };
  for (const auto& r : rows) {
    std::string name = std::string(r.model) + (r.task == Task::kRegression ? "/regression" : "/classification");
    for (const auto& [k, v] : r.settings.items()) name += "/" + k + "=" + v;
    benchmark::RegisterBenchmark(name.c_str(), [r](benchmark::State& s) { prequential(s, r.model, r.task, r.settings); });
  }
}

const int kRegistered = (Register(), 0);

}  // namespace
}  // namespace irithyll
