// bench_sgbt_threads: SGBT with threads = 1 vs threads = 2 (the pipelined
// two-thread mode), and the SGBT rows around it: multi-class softmax,
// regression, predict_batch against looping predict_one.
//
// Workloads (one JSON line each, median of --reps runs, default 5; the two
// thread settings alternate within each rep so load swings hit both):
//   train         learn every row: samples/s by wall clock and by process CPU
//                 (both threads' CPU), per thread setting
//   prequential   predict then learn every row (predict waits for the worker)
//   predict       trained model: predict_batch vs predict_one per row
// Streams: elec.csv (binary, DIR/elec.csv), friedman (regression, 100,000
// rows, 10 features, seed 1), elec3 (elec.csv with a 3-class label from the
// first feature's tercile crossed with the label, for softmax).
// Models: SGBTConfig defaults (n_steps 50) unless --n-steps is given.
//
// Usage: bench_sgbt_threads [--data DIR] [--reps N] [--n-steps N] [--only NAME]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
  return irithyll::SGBTLearner(c, data.classes == 0 ? irithyll::Task::kRegression : irithyll::Task::kClassification,
                               data.classes);
}

struct Rates {
  std::vector<double> wall, cpu;
};

// One pass; returns a checksum of the predictions (prequential) so the two
// settings can be seen to agree.
double pass(irithyll::SGBTLearner& m, const Data& data, bool predict, Rates& r) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = data.y.size(), d = data.d;
  double sum = 0.0;
  const auto t0 = Clock::now();
  const double c0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
  for (std::size_t i = 0; i < n; ++i) {
    const std::span<const double> x(data.x.data() + i * d, d);
    if (predict) sum += m.predict_one(x);
    m.learn_one(x, data.y[i]);
  }
  sum += m.predict_one(std::span<const double>(data.x.data(), d));  // waits for the last samples
  r.cpu.push_back(static_cast<double>(n) / (cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0));
  r.wall.push_back(static_cast<double>(n) / std::chrono::duration<double>(Clock::now() - t0).count());
  return sum;
}

void threads_rows(const Data& data, std::uint32_t n_steps, int reps) {
  for (const bool predict : {false, true}) {
    Rates r1, r2;
    double s1 = 0.0, s2 = 0.0;
    for (int rep = 0; rep < reps; ++rep) {
      auto m1 = make(data, n_steps, 1);
      s1 = pass(m1, data, predict, r1);
      auto m2 = make(data, n_steps, 2);
      s2 = pass(m2, data, predict, r2);
    }
    std::printf(
        "{\"dataset\":\"%s\",\"workload\":\"%s\",\"n\":%zu,\"n_steps\":%u,\"reps\":%d,"
        "\"threads1_wall\":%.0f,\"threads1_cpu\":%.0f,\"threads2_wall\":%.0f,\"threads2_cpu\":%.0f,"
        "\"wall_speedup\":%.3f,\"identical\":%s}\n",
        data.name.c_str(), predict ? "prequential" : "train", data.y.size(), make(data, n_steps, 1).config().n_steps, reps,
        median(r1.wall), median(r1.cpu), median(r2.wall), median(r2.cpu), median(r2.wall) / median(r1.wall),
        s1 == s2 ? "true" : "false");
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

}  // namespace

int main(int argc, char** argv) {
  std::string dir = std::string(IRITHYLL_SOURCE_DIR) + "/../shared/datasets";
  int reps = 5;
  std::uint32_t n_steps = 0;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--data" && i + 1 < argc) dir = argv[++i];
    else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--n-steps" && i + 1 < argc) n_steps = static_cast<std::uint32_t>(std::max(1, std::atoi(argv[++i])));
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_sgbt_threads [--data DIR] [--reps N] [--n-steps N] [--only threads|predict]\n");
      return 2;
    }
  }
  Data elec;
  elec.name = "elec";
  if (!load_elec(dir + "/elec.csv", elec)) {
    std::fprintf(stderr, "cannot read %s/elec.csv\n", dir.c_str());
    return 1;
  }
  const Data fried = friedman(100000);
  const Data elec3 = three_class(elec);
  const Data* all[] = {&elec, &fried, &elec3};
  if (only.empty() || only == "threads")
    for (const Data* d : all) threads_rows(*d, n_steps, reps);
  if (only.empty() || only == "predict")
    for (const Data* d : all) predict_row(*d, n_steps, reps);
  return 0;
}
