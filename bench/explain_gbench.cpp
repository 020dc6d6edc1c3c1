// TreeSHAP speed (src/explain): a 50-tree, depth-6 SGBT regressor on 8
// features, trained on 20000 rows of a seeded Friedman-like stream with 5%
// missing values. Workloads (Google Benchmark; items/s = explanations/s):
//   BM_ExplainPathDependent    TreeExplainer::explain_one, one row at a time
//   BM_ExplainBatch            explain_batch over all kRows rows (tree-major)
//   BM_ExplainInterventional   explain_one_interventional, 10 background rows
//   BM_PredictRaw              the same rows through the learner (reference)
// Usage: bench_explain_gbench --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true  (the median is reported)
#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/explain/tree_shap.hpp"

namespace {

using namespace irithyll;

constexpr std::size_t kFeatures = 8, kRows = 1024;

struct Fixture {
  SGBTLearner model;
  std::vector<double> rows;  // kRows x kFeatures
  Fixture() : model(config(), LearnerContext{.seed = config().seed}) {
    Xorshift64 rng(7);
    auto u = [&rng] { return static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53; };
    std::vector<double> x(kFeatures);
    for (int i = 0; i < 20000 + static_cast<int>(kRows); ++i) {
      for (double& v : x) v = u();
      const double y = 10.0 * std::sin(3.14159 * x[0] * x[1]) + 20.0 * (x[2] - 0.5) * (x[2] - 0.5) + 10.0 * x[3] +
                       5.0 * x[4] + 2.0 * x[5] * x[6] + u();
      for (double& v : x)
        if (u() < 0.05) v = std::numeric_limits<double>::quiet_NaN();
      if (i < 20000)
        model.learn_one(x, y);
      else
        rows.insert(rows.end(), x.begin(), x.end());
    }
  }
  static SGBTConfig config() {
    SGBTConfig c;
    c.n_steps = 50;
    c.tree.max_depth = 6;
    c.tree.grace_period = 50;
    return c;
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

void BM_ExplainPathDependent(benchmark::State& state) {
  const Fixture& f = fixture();
  auto ex = TreeExplainer::make(f.model);
  if (!ex) {
    state.SkipWithError(ex.status().message().c_str());
    return;
  }
  std::vector<double> phi(kFeatures);
  std::size_t r = 0, leaves = 0;
  auto view = f.model.tree_ensemble();
  for (const TreeView& t : view->trees)
    for (const TreeNodeView& n : t.nodes) leaves += n.feature < 0;
  for (auto _ : state) {
    auto raw = ex->explain_one(std::span<const double>(f.rows.data() + r * kFeatures, kFeatures), 0, phi);
    benchmark::DoNotOptimize(raw);
    benchmark::DoNotOptimize(phi.data());
    r = (r + 1) % kRows;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["trees"] = static_cast<double>(ex->n_trees());
  state.counters["leaves"] = static_cast<double>(leaves);
}
BENCHMARK(BM_ExplainPathDependent);

void BM_ExplainBatch(benchmark::State& state) {
  const Fixture& f = fixture();
  auto ex = TreeExplainer::make(f.model);
  if (!ex) {
    state.SkipWithError(ex.status().message().c_str());
    return;
  }
  std::vector<double> phi(kRows * kFeatures), raw(kRows);
  for (auto _ : state) {
    const Status s = ex->explain_batch(f.rows, kRows, 0, phi, raw);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(phi.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRows));
  state.counters["table_KiB"] = static_cast<double>(ex->table_bytes()) / 1024.0;
  state.counters["groups"] = static_cast<double>(ex->n_groups());
}
BENCHMARK(BM_ExplainBatch);

void BM_ExplainInterventional(benchmark::State& state) {
  const Fixture& f = fixture();
  auto ex = TreeExplainer::make(f.model);
  if (!ex || !ex->set_background(std::span<const double>(f.rows.data(), 10 * kFeatures), 10)) {
    state.SkipWithError("explainer");
    return;
  }
  std::vector<double> phi(kFeatures);
  std::size_t r = 0;
  for (auto _ : state) {
    auto raw = ex->explain_one_interventional(std::span<const double>(f.rows.data() + r * kFeatures, kFeatures), 0, phi);
    benchmark::DoNotOptimize(raw);
    r = (r + 1) % kRows;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ExplainInterventional);

void BM_PredictRaw(benchmark::State& state) {
  const Fixture& f = fixture();
  std::size_t r = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.model.predict_one(std::span<const double>(f.rows.data() + r * kFeatures, kFeatures)));
    r = (r + 1) % kRows;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_PredictRaw);

}  // namespace
