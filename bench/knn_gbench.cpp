// bench_knn_gbench: kNN prediction and learning throughput at the defaults
// (window 1,000, k = 5, distance weighting, standardised euclidean) with 10
// features, on a full window of Gaussian samples (seed 42).
//   BM_KnnPredict/cls|reg   predict_proba_one / predict_one per sample
//   BM_KnnPrequential/cls   predict then learn (the eval loop)
// items_per_second is samples/s.
#include <benchmark/benchmark.h>

#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/rng.hpp"

namespace {

constexpr std::size_t kFeatures = 10;
constexpr std::size_t kRows = 4096;

struct Data {
  std::vector<double> x;
  std::vector<double> y;
};

Data make_data(bool classification) {
  irithyll::Xorshift64 rng(42);
  Data d;
  d.x.resize(kRows * kFeatures);
  d.y.resize(kRows);
  for (std::size_t r = 0; r < kRows; ++r) {
    double s = 0.0;
    for (std::size_t j = 0; j < kFeatures; ++j) s += d.x[r * kFeatures + j] = rng.normal();
    d.y[r] = classification ? (s > 0.0 ? 1.0 : 0.0) : s;
  }
  return d;
}

std::unique_ptr<irithyll::Learner> make_knn(bool classification) {
  const irithyll::LearnerContext context{classification ? irithyll::Task::kClassification
                                                        : irithyll::Task::kRegression,
                                         classification ? 2u : 0u, kFeatures, 42};
  return std::move(irithyll::make_learner("knn", {}, context)).value();
}

void BM_KnnPredict(benchmark::State& state) {
  const bool cls = state.range(0) == 1;
  const Data d = make_data(cls);
  auto model = make_knn(cls);
  for (std::size_t r = 0; r < 1000; ++r) model->learn_one({d.x.data() + r * kFeatures, kFeatures}, d.y[r]);
  std::vector<double> proba(2);
  std::size_t r = 1000;
  for (auto _ : state) {
    const std::span<const double> x(d.x.data() + r * kFeatures, kFeatures);
    if (cls) {
      model->predict_proba_one(x, proba);
      benchmark::DoNotOptimize(proba.data());
    } else {
      benchmark::DoNotOptimize(model->predict_one(x));
    }
    r = r + 1 == kRows ? 1000 : r + 1;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_KnnPredict)->Arg(1)->Arg(0)->ArgName("cls");

void BM_KnnPrequential(benchmark::State& state) {
  const Data d = make_data(true);
  auto model = make_knn(true);
  for (std::size_t r = 0; r < 1000; ++r) model->learn_one({d.x.data() + r * kFeatures, kFeatures}, d.y[r]);
  std::size_t r = 0;
  for (auto _ : state) {
    const std::span<const double> x(d.x.data() + r * kFeatures, kFeatures);
    benchmark::DoNotOptimize(model->predict_one(x));
    model->learn_one(x, d.y[r]);
    r = r + 1 == kRows ? 0 : r + 1;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_KnnPrequential);

}  // namespace
