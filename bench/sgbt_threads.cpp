// bench_sgbt_threads: SGBT with threads = 1 vs threads = N (the pipelined
// multi-thread mode), and the SGBT rows around it: multi-class softmax,
// regression, predict_batch against looping predict_one.
//
// Workloads (one JSON line each, median of --reps runs, default 5; the
// thread settings alternate within each rep so load swings hit all):
//   train         learn every row: samples/s by wall clock, by process CPU
//                 (every thread's CPU) and by the caller thread's CPU, per
//                 thread setting
//   prequential   predict then learn every row (predict waits for the workers)
//   predict       trained model: predict_batch vs predict_one per row
//   handoff       the training pipeline alone (src/ensemble/sgbt_pipeline.hpp)
//                 with stages that do no work: ns per sample per stage
//                 boundary, wall and process CPU, per worker count (threads
//                 - 1): the hand-over cost a stage pays on top of its trees
// Streams: elec.csv (binary, DIR/elec.csv), friedman (regression, 100,000
// rows, 10 features, seed 1), elec3 (elec.csv with a 3-class label from the
// first feature's tercile crossed with the label, for softmax), elec8
// (DIR/elec8.csv: 8 features, UP = 1; only with --stream elec8).
// Models: SGBTConfig defaults (n_steps 50, max_depth 6) unless --n-steps is
// given; --threads lists the settings compared (default 1,2).
//
// Usage: bench_sgbt_threads [--data DIR] [--reps N] [--n-steps N] [--only NAME]
//                           [--threads LIST] [--stream NAME]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ensemble/sgbt_pipeline.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/stream/generators/friedman.hpp"

#ifndef IRITHYLL_SOURCE_DIR
#define IRITHYLL_SOURCE_DIR "."
#endif

namespace {

struct Data {
  std::string name;
  std::vector<double> x, y;
  std::size_t d = 0, classes = 0;  // classes 0 = regression
};

bool load_elec(const std::string& path, Data& data) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  std::getline(in, line);
  std::vector<double> row;
  while (std::getline(in, line)) {
    row.clear();
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::strtod(cell.c_str(), nullptr));
    if (row.size() < 2) continue;
    if (data.d == 0) data.d = row.size() - 1;
    if (row.size() - 1 != data.d) continue;
    data.x.insert(data.x.end(), row.begin(), row.end() - 1);
    data.y.push_back(row.back() > 0.5 ? 1.0 : 0.0);
  }
  data.classes = 2;
  return !data.y.empty();
}

// elec8.csv: 8 numeric features, then the label UP or DOWN.
bool load_elec8(const std::string& path, Data& data) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  std::getline(in, line);
  std::vector<double> row;
  while (std::getline(in, line)) {
    row.clear();
    std::stringstream ss(line);
    std::string cell;
    double label = -1.0;
    while (std::getline(ss, cell, ',')) {
      if (cell == "UP" || cell == "DOWN") label = cell == "UP" ? 1.0 : 0.0;
      else row.push_back(std::strtod(cell.c_str(), nullptr));
    }
    if (label < 0.0 || row.empty()) continue;
    if (data.d == 0) data.d = row.size();
    if (row.size() != data.d) continue;
    data.x.insert(data.x.end(), row.begin(), row.end());
    data.y.push_back(label);
  }
  data.classes = 2;
  return !data.y.empty();
}

Data friedman(std::size_t n) {
  Data data;
  data.name = "friedman";
  data.d = irithyll::FriedmanGenerator::kFeatures;
  irithyll::FriedmanGenerator g(irithyll::FriedmanConfig{}, 1);
  std::vector<double> x(data.d);
  double y = 0.0;
  for (std::size_t i = 0; i < n && g.next(x, y); ++i) {
    data.x.insert(data.x.end(), x.begin(), x.end());
    data.y.push_back(y);
  }
  return data;
}

Data three_class(const Data& elec) {
  Data data = elec;
  data.name = "elec3";
  data.classes = 3;
  std::vector<double> f0;
  for (std::size_t i = 0; i < elec.y.size(); ++i) f0.push_back(elec.x[i * elec.d]);
  std::sort(f0.begin(), f0.end());
  const double cut = f0[f0.size() / 2];
  for (std::size_t i = 0; i < data.y.size(); ++i)
    data.y[i] = elec.y[i] > 0.5 ? 2.0 : (elec.x[i * elec.d] < cut ? 0.0 : 1.0);
  return data;
}

double cpu_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

irithyll::SGBTLearner make(const Data& data, std::uint32_t n_steps, std::uint32_t threads) {
  irithyll::SGBTConfig c;
  if (n_steps > 0) c.n_steps = n_steps;
  c.threads = threads;
  const irithyll::Task task = data.classes == 0 ? irithyll::Task::kRegression : irithyll::Task::kClassification;
  return irithyll::SGBTLearner(c, {.task = task, .n_classes = data.classes, .seed = c.seed});
}

struct Rates {
  std::vector<double> wall, cpu, caller_cpu;
};

// One pass; returns a checksum of the predictions (prequential) so the
// settings can be seen to agree.
double pass(irithyll::SGBTLearner& m, const Data& data, bool predict, Rates& r) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = data.y.size(), d = data.d;
  double sum = 0.0;
  const auto t0 = Clock::now();
  const double c0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID), t_c0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
  for (std::size_t i = 0; i < n; ++i) {
    const std::span<const double> x(data.x.data() + i * d, d);
    if (predict) sum += m.predict_one(x);
    m.learn_one(x, data.y[i]);
  }
  sum += m.predict_one(std::span<const double>(data.x.data(), d));  // waits for the last samples
  const double caller = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - t_c0;
  r.cpu.push_back(static_cast<double>(n) / (cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0));
  r.wall.push_back(static_cast<double>(n) / std::chrono::duration<double>(Clock::now() - t0).count());
  r.caller_cpu.push_back(static_cast<double>(n) / caller);
  return sum;
}

void print_list(const char* key, const std::vector<Rates>& rates, std::vector<double> Rates::*field) {
  std::printf(",\"%s\":[", key);
  for (std::size_t i = 0; i < rates.size(); ++i) std::printf("%s%.0f", i ? "," : "", median(rates[i].*field));
  std::printf("]");
}

// One JSON line per workload: per setting of `threads` (in that order), the
// median samples/s by wall clock, by process CPU and by the caller's CPU.
void threads_rows(const Data& data, std::uint32_t n_steps, int reps, const std::vector<std::uint32_t>& threads) {
  for (const bool predict : {false, true}) {
    std::vector<Rates> rates(threads.size());
    std::vector<double> sums(threads.size());
    for (int rep = 0; rep < reps; ++rep)
      for (std::size_t i = 0; i < threads.size(); ++i) {
        auto m = make(data, n_steps, threads[i]);
        sums[i] = pass(m, data, predict, rates[i]);
      }
    bool identical = true;
    for (double s : sums) identical = identical && s == sums[0];
    std::printf("{\"dataset\":\"%s\",\"workload\":\"%s\",\"n\":%zu,\"n_steps\":%u,\"reps\":%d,\"threads\":[",
                data.name.c_str(), predict ? "prequential" : "train", data.y.size(), make(data, n_steps, 1).config().n_steps,
                reps);
    for (std::size_t i = 0; i < threads.size(); ++i) std::printf("%s%u", i ? "," : "", threads[i]);
    std::printf("]");
    print_list("wall", rates, &Rates::wall);
    print_list("cpu", rates, &Rates::cpu);
    print_list("caller_cpu", rates, &Rates::caller_cpu);
    std::printf(",\"identical\":%s}\n", identical ? "true" : "false");
    std::fflush(stdout);
  }
}

void predict_row(const Data& data, std::uint32_t n_steps, int reps) {
  auto m = make(data, n_steps, 1);
  for (std::size_t i = 0; i < data.y.size(); ++i)
    m.learn_one(std::span<const double>(data.x.data() + i * data.d, data.d), data.y[i]);
  const std::size_t n = data.y.size();
  std::vector<double> one(n), batch(n);
  std::vector<double> t_one, t_batch;
  for (int rep = 0; rep < reps; ++rep) {
    double c0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    for (std::size_t i = 0; i < n; ++i) one[i] = m.predict_one(std::span<const double>(data.x.data() + i * data.d, data.d));
    t_one.push_back(static_cast<double>(n) / (cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - c0));
    c0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    m.predict_batch(data.x, data.d, batch);
    t_batch.push_back(static_cast<double>(n) / (cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - c0));
  }
  std::printf(
      "{\"dataset\":\"%s\",\"workload\":\"predict\",\"n\":%zu,\"classes\":%zu,\"reps\":%d,"
      "\"predict_one_cpu\":%.0f,\"predict_batch_cpu\":%.0f,\"speedup\":%.3f,\"identical\":%s}\n",
      data.name.c_str(), n, data.classes, reps, median(t_one), median(t_batch), median(t_batch) / median(t_one),
      one == batch ? "true" : "false");
  std::fflush(stdout);
}

// Pushes n samples of d = 8 through threads - 1 workers whose stages only
// add x[0]: what is left is the ring write, the cursors and the wake-ups.
void handoff_row(const std::vector<std::uint32_t>& threads, int reps) {
  using Clock = std::chrono::steady_clock;
  constexpr std::size_t kSamples = 1000000, kD = 8;
  const double x[kD] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (const std::uint32_t t : threads) {
    if (t < 2) continue;
    std::vector<double> wall, cpu;
    for (int rep = 0; rep < reps; ++rep) {
      std::vector<irithyll::SGBTPipeline::Stage> stages(t - 1, [](const irithyll::SGBTPipeline::Sample& s) {
        return s.current + s.x[0];
      });
      auto p = irithyll::SGBTPipeline::make(kD, 0, std::move(stages));
      if (!p) return;
      const auto t0 = Clock::now();
      const double c0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
      for (std::size_t i = 0; i < kSamples; ++i) p->push(x, 0.0, 1.0, 0.0, 0.1, 0.0, 1.0, {});
      p->wait_idle();
      const double boundaries = static_cast<double>(kSamples) * (t - 1);
      cpu.push_back(1e9 * (cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0) / boundaries);
      wall.push_back(1e9 * std::chrono::duration<double>(Clock::now() - t0).count() / boundaries);
    }
    std::printf("{\"workload\":\"handoff\",\"threads\":%u,\"samples\":%zu,\"reps\":%d,"
                "\"wall_ns_per_boundary\":%.1f,\"cpu_ns_per_boundary\":%.1f}\n",
                t, kSamples, reps, median(wall), median(cpu));
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = std::string(IRITHYLL_SOURCE_DIR) + "/../shared/datasets";
  int reps = 5;
  std::uint32_t n_steps = 0;
  std::string only, stream;
  std::vector<std::uint32_t> threads = {1, 2};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--data" && i + 1 < argc) dir = argv[++i];
    else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--n-steps" && i + 1 < argc) n_steps = static_cast<std::uint32_t>(std::max(1, std::atoi(argv[++i])));
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (a == "--stream" && i + 1 < argc) stream = argv[++i];
    else if (a == "--threads" && i + 1 < argc) {
      threads.clear();
      std::stringstream ss(argv[++i]);
      std::string t;
      while (std::getline(ss, t, ',')) threads.push_back(static_cast<std::uint32_t>(std::max(1, std::atoi(t.c_str()))));
    } else {
      std::fprintf(stderr,
                   "usage: bench_sgbt_threads [--data DIR] [--reps N] [--n-steps N] [--only threads|predict|handoff] "
                   "[--threads 1,2,...] [--stream elec|friedman|elec3|elec8]\n");
      return 2;
    }
  }
  if (only == "handoff") {
    handoff_row(threads, reps);
    return 0;
  }
  std::vector<Data> all;
  if (stream == "elec8") {
    Data e8;
    e8.name = "elec8";
    if (!load_elec8(dir + "/elec8.csv", e8)) {
      std::fprintf(stderr, "cannot read %s/elec8.csv\n", dir.c_str());
      return 1;
    }
    all.push_back(std::move(e8));
  } else {
    Data elec;
    elec.name = "elec";
    if (!load_elec(dir + "/elec.csv", elec)) {
      std::fprintf(stderr, "cannot read %s/elec.csv\n", dir.c_str());
      return 1;
    }
    if (stream.empty() || stream == "elec") all.push_back(elec);
    if (stream.empty() || stream == "friedman") all.push_back(friedman(100000));
    if (stream.empty() || stream == "elec3") all.push_back(three_class(elec));
  }
  if (only.empty() || only == "threads")
    for (const Data& d : all) threads_rows(d, n_steps, reps, threads);
  if (only.empty() || only == "predict")
    for (const Data& d : all) predict_row(d, n_steps, reps);
  return 0;
}
