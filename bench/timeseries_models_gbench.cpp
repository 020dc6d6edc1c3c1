// Forecaster throughput (Google Benchmark): steps per second of
//   HoltWinters/learn       learn_one only (additive and multiplicative, m = 12)
//   HoltWinters/test_train  forecast(1) then learn_one, the prequential loop
//   Snarimax/test_train     p 2, d 1, q 1, m 12, sd 1, sq 1, its default
//                           update (recursive least squares)
//   SnarimaxGradient/test_train  the same with rls off (the NLMS step)
//   CsvForecast             the library doing what `irithyll forecast
//                           --horizon 1 --period 12` does: read a CSV
//                           (written once to the temp directory, 1e6 rows of
//                           an airline-like series), forecast, score, learn
// The series is a seasonal line with deterministic noise (no RNG), 1e6 values
// cycled. Compare CsvForecast with `time build/irithyll forecast --data
// <tmp>/irithyll_bench_forecast.csv --target y --period 12 --multiplicative on`.
//
//   build/bench/bench_timeseries_models_gbench --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "irithyll/stream/table_stream.hpp"
#include "irithyll/timeseries/forecasters.hpp"
#include "irithyll/timeseries/holt_winters.hpp"
#include "irithyll/timeseries/horizon_metrics.hpp"
#include "irithyll/timeseries/snarimax.hpp"

namespace {

using namespace irithyll;
using namespace irithyll::timeseries;

constexpr std::size_t kN = 1000000;

const std::vector<double>& series() {
  static const std::vector<double> y = [] {
    std::vector<double> v(kN);
    for (std::size_t t = 0; t < kN; ++t) {
      const double season = 1.0 + 0.22 * std::sin(2.0 * M_PI * static_cast<double>(t % 12) / 12.0);
      const double noise = 1.0 + 0.03 * std::sin(static_cast<double>(t) * 12.9898);  // deterministic jitter
      v[t] = (110.0 + 0.001 * static_cast<double>(t)) * season * noise;
    }
    return v;
  }();
  return y;
}

HoltWintersConfig hw_config(bool multiplicative) {
  HoltWintersConfig c;
  c.seasonality = 12;
  c.multiplicative = multiplicative;
  return c;
}

void BM_HoltWintersLearn(benchmark::State& state) {
  HoltWinters hw(hw_config(state.range(0) != 0));
  const std::vector<double>& y = series();
  std::size_t t = 0;
  for (auto _ : state) {
    (void)hw.learn_one(y[t]);
    if (++t == kN) t = 0;
  }
  benchmark::DoNotOptimize(hw.level());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HoltWintersLearn)->Arg(0)->Arg(1)->ArgNames({"multiplicative"});

void BM_HoltWintersTestTrain(benchmark::State& state) {
  HoltWinters hw(hw_config(true));
  const std::vector<double>& y = series();
  std::size_t t = 0;
  double err = 0.0;
  for (auto _ : state) {
    err += std::abs(y[t] - hw.forecast_one());
    (void)hw.learn_one(y[t]);
    if (++t == kN) t = 0;
  }
  benchmark::DoNotOptimize(err);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HoltWintersTestTrain);

void snarimax_test_train(benchmark::State& state, bool rls) {
  SnarimaxConfig c;
  c.rls = rls;
  c.p = 2, c.d = 1, c.q = 1, c.m = 12, c.sd = 1, c.sq = 1;
  Snarimax s(c);
  const std::vector<double>& y = series();
  std::size_t t = 0;
  double one = 0.0, err = 0.0;
  for (auto _ : state) {
    (void)s.forecast({}, std::span<double>(&one, 1));
    err += std::abs(y[t] - one);
    (void)s.learn_one(y[t]);
    if (++t == kN) t = 0;
  }
  benchmark::DoNotOptimize(err);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
void BM_SnarimaxTestTrain(benchmark::State& state) { snarimax_test_train(state, true); }
BENCHMARK(BM_SnarimaxTestTrain);
void BM_SnarimaxGradientTestTrain(benchmark::State& state) { snarimax_test_train(state, false); }
BENCHMARK(BM_SnarimaxGradientTestTrain);

std::string csv_path() {
  const std::string path = (std::filesystem::temp_directory_path() / "irithyll_bench_forecast.csv").string();
  static const bool written = [&] {
    std::ofstream out(path);
    out << "t,y\n";
    char buf[64];
    for (std::size_t t = 0; t < kN; ++t) {
      std::snprintf(buf, sizeof buf, "%zu,%.6f\n", t, series()[t]);
      out << buf;
    }
    return true;
  }();
  (void)written;
  return path;
}

void BM_CsvForecast(benchmark::State& state) {
  const std::string path = csv_path();
  for (auto _ : state) {
    TableOptions options;
    options.target = "y";
    options.task = Task::kRegression;
    options.allow_target_only = true;
    options.allow_missing_target = true;
    auto opened = open_table_stream(path, options);
    if (!opened) {
      state.SkipWithError(opened.status().message().c_str());
      return;
    }
    auto model = make_forecaster("holt_winters", {{"seasonality", "12"}, {"multiplicative", "on"}});
    HorizonMetrics metrics(1);
    std::vector<double> x((*opened)->schema().n_features());
    double y = 0.0, one = 0.0;
    while ((*opened)->next(x, y)) {
      (void)(*model)->forecast({}, std::span<double>(&one, 1));
      metrics.update(0, y, one);
      (void)(*model)->learn_one(y);
    }
    benchmark::DoNotOptimize(metrics.rmse());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kN));
}
BENCHMARK(BM_CsvForecast)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
