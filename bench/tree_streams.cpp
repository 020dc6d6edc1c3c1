// bench_tree_streams: prequential Hoeffding tree and Adaptive Random Forest on
// the Electricity and SEA streams, defaults as shipped (the settings MOA's
// figures in BENCHMARKS.md use: HoeffdingTree and ARF with 10 trees).
//
// One JSON line per (model, file): accuracy, samples/s (wall and thread CPU,
// median of --reps runs, default 3), memory, tree size. The CSV is parsed
// before timing (MOA's figures include ARFF parsing; the CLI's figures
// include CSV parsing). Last column is the class: numbers or labels, mapped
// to indices in order of first appearance.
//
// Usage: bench_tree_streams [--model hoeffding_tree|arf|all] [--reps N] [--seed S] [--threads N]
//                           [--set NAME=VALUE ...] [file.csv ...]
// Without files: <shared>/datasets/{elec,elec8,sea_stream}.csv.
// --threads N is --set threads=N (ARF's training threads; use --model arf):
// with N > 1 read samples_per_s (wall), since the thread CPU figure counts
// only the caller's thread.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/ensemble/arf.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"

#ifndef IRITHYLL_BENCH_SHARED
#define IRITHYLL_BENCH_SHARED "../shared"
#endif

namespace {

struct Data {
  std::vector<double> x;
  std::vector<double> y;
  std::size_t d = 0, k = 0;
};

bool load_csv(const std::string& path, Data& data) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line, cell;
  std::getline(in, line);  // header
  std::map<std::string, double> labels;
  std::vector<std::string> row;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    row.clear();
    std::stringstream ss(line);
    while (std::getline(ss, cell, ',')) row.push_back(cell);
    if (row.size() < 2) continue;
    if (data.d == 0) data.d = row.size() - 1;
    if (row.size() - 1 != data.d) continue;
    for (std::size_t j = 0; j < data.d; ++j) data.x.push_back(std::strtod(row[j].c_str(), nullptr));
    auto it = labels.find(row.back());
    if (it == labels.end()) it = labels.emplace(row.back(), static_cast<double>(labels.size())).first;
    data.y.push_back(it->second);
  }
  data.k = std::max<std::size_t>(2, labels.size());
  return !data.y.empty();
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

irithyll::ModelSettings g_settings;  // --set name=value

template <class Model, class Config>
std::unique_ptr<irithyll::Learner> build(std::string_view name, std::span<const irithyll::ConfigField<Config>> fields,
                                         const Data& data, std::uint64_t seed) {
  Config config;
  irithyll::Status s = irithyll::apply_settings<Config>(name, fields, g_settings, config);
  if (!s) {
    std::fprintf(stderr, "%s\n", s.to_string().c_str());
    return nullptr;
  }
  auto m = Model::make(config, irithyll::LearnerContext{irithyll::Task::kClassification, data.k, data.d, seed});
  if (!m) {
    std::fprintf(stderr, "%s\n", m.status().to_string().c_str());
    return nullptr;
  }
  return std::move(*m);
}

std::unique_ptr<irithyll::Learner> make_model(const std::string& model, const Data& data, std::uint64_t seed) {
  if (model == "arf") return build<irithyll::AdaptiveRandomForest>("arf", irithyll::arf_config_fields(), data, seed);
  return build<irithyll::HoeffdingTreeLearner>("hoeffding_tree", irithyll::hoeffding_tree_config_fields(), data, seed);
}

void run(const std::string& model_name, const std::string& name, const Data& data, int reps, std::uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = data.y.size(), d = data.d;
  std::vector<double> rate, cpu;
  double acc = 0.0;
  std::size_t mem = 0;
  for (int r = 0; r < reps; ++r) {
    auto model = make_model(model_name, data, seed);
    if (!model) return;
    std::size_t correct = 0;
    const auto t0 = Clock::now();
    const double c0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) {
      const std::span<const double> x(data.x.data() + i * d, d);
      correct += model->predict_one(x) == data.y[i];
      model->learn_one(x, data.y[i]);
    }
    rate.push_back(static_cast<double>(n) / std::chrono::duration<double>(Clock::now() - t0).count());
    cpu.push_back(static_cast<double>(n) / (thread_cpu_seconds() - c0));
    acc = static_cast<double>(correct) / static_cast<double>(n);
    mem = model->memory_bytes();
  }
  std::printf(
      "{\"model\":\"%s\",\"dataset\":\"%s\",\"n\":%zu,\"accuracy\":%.4f,\"samples_per_s\":%.0f,"
      "\"cpu_samples_per_s\":%.0f,\"reps\":%d,\"memory_bytes\":%zu}\n",
      model_name.c_str(), name.c_str(), n, acc, median(rate), median(cpu), reps, mem);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = std::string(IRITHYLL_BENCH_SHARED) + "/datasets";
  std::string model = "all";
  int reps = 3;
  std::uint64_t seed = 1;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--model" && i + 1 < argc) {
      model = argv[++i];
    } else if (a == "--set" && i + 1 < argc) {
      const std::string kv = argv[++i];
      const auto eq = kv.find('=');
      g_settings.set(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1));
    } else if (a == "--threads" && i + 1 < argc) {
      g_settings.set("threads", argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 0);
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) files = {dir + "/elec.csv", dir + "/elec8.csv", dir + "/sea_stream.csv"};
  const std::vector<std::string> models = model == "all" ? std::vector<std::string>{"hoeffding_tree", "arf"}
                                                         : std::vector<std::string>{model};
  for (const auto& f : files) {
    Data data;
    if (!load_csv(f, data)) {
      std::fprintf(stderr, "cannot read %s\n", f.c_str());
      return 1;
    }
    const auto slash = f.find_last_of('/');
    for (const auto& m : models) run(m, slash == std::string::npos ? f : f.substr(slash + 1), data, reps, seed);
  }
  return 0;
}
