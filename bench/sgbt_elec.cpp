// bench_sgbt_elec: prequential SGBT on the Electricity and SEA streams.
//
// Workloads (one JSON line each, median of --reps runs, default 3):
//   prequential  predict then learn every row in file order: accuracy, kappa, samples/s
//   train        learn every row only: samples/s
// Configuration: 100 steps, depth 6, lr 0.1, grace 50, 32 bins, lambda 1,
// gamma 0, delta 1e-7, feature subsample 0.75, Page-Hinkley per tree,
// logistic loss (override the detector with --drift none|pht|adwin|ddm).
//
// Usage: bench_sgbt_elec [--data DIR] [--reps N] [--drift KIND] [file.csv ...]
// Without files it reads DIR/elec.csv and DIR/sea_stream.csv (DIR defaults to
// <source>/../shared/datasets). Last column is the 0/1 class; first row is a header.
#include <cstdlib>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"

#ifndef IRITHYLL_SOURCE_DIR
#define IRITHYLL_SOURCE_DIR "."
#endif

namespace {

struct Data {
  std::vector<double> x;
  std::vector<double> y;
  std::size_t d = 0;
};

bool load_csv(const std::string& path, Data& data) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  std::getline(in, line);  // header
  std::vector<double> row;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    row.clear();
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::strtod(cell.c_str(), nullptr));
    if (row.size() < 2) continue;
    if (data.d == 0) data.d = row.size() - 1;
    if (row.size() - 1 != data.d) continue;
    data.x.insert(data.x.end(), row.begin(), row.end() - 1);
    data.y.push_back(row.back());
  }
  return !data.y.empty();
}

irithyll::SGBTConfig bench_config(irithyll::DriftKind drift) {
  // From the Rust library preset, so that the settings not listed here (variant,
  // detector thresholds, ...) stay what this benchmark has always measured
  // when the library's defaults move.
  irithyll::SGBTConfig c;
  if (!irithyll::apply_sgbt_preset(c, "original").is_ok()) std::abort();
  c.n_steps = 100;
  c.tree.max_depth = 6;
  c.learning_rate = 0.1;
  c.tree.grace_period = 50;
  c.tree.n_bins = 32;
  c.tree.lambda = 1.0;
  c.tree.gamma = 0.0;
  c.tree.delta = 1e-7;
  c.tree.feature_subsample = 0.75;
  if (drift != c.drift.kind && !irithyll::set_sgbt_config_field(c, "drift", irithyll::drift_kind_name(drift)).is_ok())
    std::abort();  // the detector's own default thresholds, as before
  return c;
}

// CPU seconds of this thread: on a shared, oversubscribed machine wall time
// mostly measures the neighbours, so both rates are reported.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void run(const std::string& name, const Data& data, irithyll::DriftKind drift, int reps) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = data.y.size(), d = data.d;
  std::vector<double> preq_rate, train_rate, preq_cpu, train_cpu;
  double acc = 0.0, kappa = 0.0;
  std::size_t mem = 0;
  for (int r = 0; r < reps; ++r) {
    const irithyll::SGBTConfig config = bench_config(drift);
    irithyll::SGBTLearner model(config, {.task = irithyll::Task::kClassification, .n_classes = 2, .seed = config.seed});
    std::size_t correct = 0, confusion[2][2] = {{0, 0}, {0, 0}};
    const auto t0 = Clock::now();
    const double c0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) {
      const std::span<const double> x(data.x.data() + i * d, d);
      const int p = static_cast<int>(model.predict_one(x));
      const int y = data.y[i] > 0.5 ? 1 : 0;
      correct += p == y;
      ++confusion[y][p];
      model.learn_one(x, y);
    }
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    preq_rate.push_back(static_cast<double>(n) / secs);
    preq_cpu.push_back(static_cast<double>(n) / (thread_cpu_seconds() - c0));
    mem = model.memory_bytes();
    acc = static_cast<double>(correct) / static_cast<double>(n);
    const double nn = static_cast<double>(n);
    const double pe = ((confusion[0][0] + confusion[0][1]) * static_cast<double>(confusion[0][0] + confusion[1][0]) +
                       (confusion[1][0] + confusion[1][1]) * static_cast<double>(confusion[0][1] + confusion[1][1])) /
                      (nn * nn);
    kappa = (acc - pe) / (1.0 - pe);

    irithyll::SGBTLearner train_only(bench_config(drift),
                                     {.task = irithyll::Task::kClassification, .n_classes = 2, .seed = bench_config(drift).seed});
    const auto t1 = Clock::now();
    const double c1 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) train_only.learn_one(std::span<const double>(data.x.data() + i * d, d), data.y[i] > 0.5 ? 1 : 0);
    train_cpu.push_back(static_cast<double>(n) / (thread_cpu_seconds() - c1));
    train_rate.push_back(static_cast<double>(n) / std::chrono::duration<double>(Clock::now() - t1).count());
  }
  std::printf(
      "{\"dataset\":\"%s\",\"workload\":\"prequential\",\"n\":%zu,\"accuracy\":%.4f,\"kappa\":%.4f,"
      "\"samples_per_s\":%.0f,\"cpu_samples_per_s\":%.0f,\"reps\":%d,\"memory_bytes\":%zu,\"drift\":\"%s\"}\n",
      name.c_str(), n, acc, kappa, median(preq_rate), median(preq_cpu), reps, mem, std::string(irithyll::drift_kind_name(drift)).c_str());
  std::printf(
      "{\"dataset\":\"%s\",\"workload\":\"train\",\"n\":%zu,\"samples_per_s\":%.0f,\"cpu_samples_per_s\":%.0f,"
      "\"reps\":%d}\n",
      name.c_str(), n, median(train_rate), median(train_cpu), reps);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = std::string(IRITHYLL_SOURCE_DIR) + "/../shared/datasets";
  int reps = 3;
  irithyll::DriftKind drift = irithyll::DriftKind::kPageHinkley;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--data" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--drift" && i + 1 < argc) {
      auto k = irithyll::parse_drift_kind(argv[++i]);
      if (!k) {
        std::fprintf(stderr, "%s\n", k.status().to_string().c_str());
        return 2;
      }
      drift = *k;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) files = {dir + "/elec.csv", dir + "/sea_stream.csv"};
  for (const auto& f : files) {
    Data data;
    if (!load_csv(f, data)) {
      std::fprintf(stderr, "cannot read %s\n", f.c_str());
      return 1;
    }
    const auto slash = f.find_last_of('/');
    run(slash == std::string::npos ? f : f.substr(slash + 1), data, drift, reps);
  }
  return 0;
}
