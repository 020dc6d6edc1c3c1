// bench_hst_gbench: Half-Space Trees throughput at River's defaults
// (10 trees, height 8, window 250) on the planted-anomaly stream
// (irithyll/anomaly/planted.hpp: 8 dims, 1% anomalies, seed 42), after the
// first window.
//   BM_HstScore   score_one per sample (target: >= 1M samples/s)
//   BM_HstLearn   learn_one per sample (window rotations included)
//   BM_HstBoth    score then learn (the eval loop)
// items_per_second is samples/s.
#include <benchmark/benchmark.h>

#include "irithyll/anomaly/planted.hpp"
#include "irithyll/anomaly/registry.hpp"

namespace {

constexpr std::size_t kDims = 8;
constexpr std::size_t kRows = 1 << 16;

struct Fixture {
  irithyll::PlantedStream s = irithyll::planted_anomalies(kRows, kDims, 0.01, 42);
  std::unique_ptr<irithyll::AnomalyDetector> d =
      std::move(irithyll::make_anomaly_detector("half_space_trees", {}, irithyll::AnomalyContext{kDims, 42})).value();
  Fixture() {
    for (std::size_t r = 0; r < 1000; ++r) d->learn_one(row(r));
  }
  std::span<const double> row(std::size_t r) const { return {s.x.data() + r * kDims, kDims}; }
};

void BM_HstScore(benchmark::State& state) {
  Fixture f;
  std::size_t r = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.d->score_one(f.row(r)));
    r = (r + 1) & (kRows - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HstScore);

void BM_HstLearn(benchmark::State& state) {
  Fixture f;
  std::size_t r = 0;
  for (auto _ : state) {
    f.d->learn_one(f.row(r));
    r = (r + 1) & (kRows - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HstLearn);

void BM_HstBoth(benchmark::State& state) {
  Fixture f;
  std::size_t r = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.d->score_one(f.row(r)));
    f.d->learn_one(f.row(r));
    r = (r + 1) & (kRows - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HstBoth);

}  // namespace
