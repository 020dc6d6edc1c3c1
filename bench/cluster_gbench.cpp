// bench_cluster_gbench: samples per second of the clusterers (Google
// Benchmark; items_per_second is samples/s).
//
// Workload (deterministic, seed 42): a stationary Gaussian mixture of 5
// components in 10 features, means uniform in [-10, 10]^10, sigma 1; 200,000
// rows generated once, then streamed in order (the model is rebuilt outside
// the timed region every pass over them).
//   learn/<model>          learn_one per row
//   predict_learn/<model>  predict_one then learn_one (what `irithyll cluster` does)
//   csv/<model>            the same rows read back from a CSV file with
//                          open_table_stream, predict then learn: the library
//                          doing what the CLI does, for the CLI-vs-library
//                          comparison. The file is left at
//                          $TMPDIR/irithyll_cluster_bench.csv so the CLI can be
//                          timed on the same bytes:
//      time ./build/irithyll cluster --data /tmp/irithyll_cluster_bench.csv --model kmeans --json
// Models: kmeans (n-clusters 5), clustream (n-macro-clusters 5), dbstream
// (clustering-threshold 4, about the radius of a 10-d unit Gaussian's bulk).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "irithyll/cluster/registry.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/stream/table_stream.hpp"

namespace {

constexpr std::size_t kRows = 200000, kD = 10, kK = 5;

const std::vector<double>& rows() {
  static const std::vector<double> data = [] {
    irithyll::Xorshift64 rng(42);
    std::vector<double> means(kK * kD);
    for (double& m : means) m = rng.uniform(-10.0, 10.0);
    std::vector<double> out(kRows * kD);
    for (std::size_t i = 0; i < kRows; ++i) {
      const std::size_t j = rng.below(kK);
      for (std::size_t f = 0; f < kD; ++f) out[i * kD + f] = means[j * kD + f] + rng.normal();
    }
    return out;
  }();
  return data;
}

std::string csv_path() {
  static const std::string path = [] {
    const std::string p = (std::filesystem::temp_directory_path() / "irithyll_cluster_bench.csv").string();
    std::ofstream f(p);
    for (std::size_t c = 0; c < kD; ++c) f << (c ? ",x" : "x") << c;
    f << "\n";
    char buf[32];
    const std::vector<double>& r = rows();
    for (std::size_t i = 0; i < kRows; ++i) {
      for (std::size_t c = 0; c < kD; ++c) {
        std::snprintf(buf, sizeof buf, "%s%.6f", c ? "," : "", r[i * kD + c]);
        f << buf;
      }
      f << "\n";
    }
    return p;
  }();
  return path;
}

irithyll::ModelSettings settings_for(const std::string& model) {
  if (model == "kmeans") return {{"n-clusters", "5"}};
  if (model == "clustream") return {{"n-macro-clusters", "5"}};
  return {{"clustering-threshold", "4"}};
}

std::unique_ptr<irithyll::Clusterer> make(const std::string& model) {
  return std::move(irithyll::make_clusterer(model, settings_for(model), 42)).value();
}

void learn(benchmark::State& state, const std::string& model, bool predict) {
  const std::vector<double>& data = rows();
  std::unique_ptr<irithyll::Clusterer> m = make(model);
  std::size_t i = 0;
  std::int64_t sink = 0;
  for (auto _ : state) {
    if (i == kRows) {
      state.PauseTiming();
      m = make(model);
      i = 0;
      state.ResumeTiming();
    }
    const std::span<const double> x(&data[i * kD], kD);
    if (predict) sink += m->predict_one(x);
    benchmark::DoNotOptimize(m->learn_one(x).is_ok());
    ++i;
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void csv(benchmark::State& state, const std::string& model) {
  const std::string path = csv_path();
  irithyll::TableOptions options;
  options.no_target = true;
  std::int64_t n = 0;
  for (auto _ : state) {
    auto stream = std::move(irithyll::open_table_stream(path, options)).value();
    std::unique_ptr<irithyll::Clusterer> m = make(model);
    std::vector<double> x(kD);
    double y = 0.0;
    std::int64_t sink = 0;
    while (stream->next(x, y)) {
      sink += m->predict_one(x);
      benchmark::DoNotOptimize(m->learn_one(x).is_ok());
      ++n;
    }
    benchmark::DoNotOptimize(sink);
  }
  state.SetItemsProcessed(n);
}

void register_all() {
  for (const std::string model : {"kmeans", "clustream", "dbstream"}) {
    benchmark::RegisterBenchmark(("learn/" + model).c_str(), [model](benchmark::State& s) { learn(s, model, false); });
    benchmark::RegisterBenchmark(("predict_learn/" + model).c_str(),
                                 [model](benchmark::State& s) { learn(s, model, true); });
    benchmark::RegisterBenchmark(("csv/" + model).c_str(), [model](benchmark::State& s) { csv(s, model); })
        ->Unit(benchmark::kMillisecond);
  }
}

const int kRegistered = (register_all(), 0);

}  // namespace
