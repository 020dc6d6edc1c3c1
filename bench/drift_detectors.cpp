// bench_drift_detectors: nanoseconds per DriftDetector::update on a 1e6-sample
// stream, through the virtual interface as the SGBT engine calls it.
//
// Workloads (deterministic inputs, seed 42):
//   pht_gaussian    N(mu, 1) with mu stepping 0 -> 1 -> 0 -> 1 every 250k samples
//   adwin_gaussian  same stream (cuts happen, so the cut path is timed too)
//   adwin_bernoulli 0/1 errors, rate 0.2 -> 0.5 -> 0.2 -> 0.5 every 250k
//   ddm_bernoulli   same 0/1 stream
//   ddm_continuous  |N(0, s)| with s stepping 1 -> 2 -> 1 -> 2
// Each workload: one warm-up pass, then 5 timed repetitions on a fresh
// detector; reports the median (targets: ADWIN <= 50 ns, PH and DDM <= 10 ns)
// plus mean and standard deviation. One JSON line per workload on stdout, a
// markdown table on stderr.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace {

using irithyll::DriftKind;

constexpr std::size_t kSamples = 1000000;
constexpr int kRepetitions = 5;

enum class Shape { kGaussian, kBernoulli, kAbsGaussian };

std::vector<double> make_stream(Shape shape) {
  irithyll::Xorshift64 rng(42);
  std::vector<double> v(kSamples);
  for (std::size_t i = 0; i < kSamples; ++i) {
    const bool high = (i / 250000) % 2 == 1;
    switch (shape) {
      case Shape::kGaussian: v[i] = rng.normal(high ? 1.0 : 0.0, 1.0); break;
      case Shape::kBernoulli: v[i] = rng.uniform() < (high ? 0.5 : 0.2) ? 1.0 : 0.0; break;
      case Shape::kAbsGaussian: v[i] = std::fabs(rng.normal(0.0, high ? 2.0 : 1.0)); break;
    }
  }
  return v;
}

struct Workload {
  const char* name;
  DriftKind kind;
  Shape shape;
  double target_ns;
};

// Thread CPU time: on a shared machine it excludes time spent descheduled,
// which wall time does not (both are reported).
double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

struct Summary {
  double median, mean, sd;
};

Summary summarize(std::vector<double> v) {
  Summary s{};
  double sum = 0.0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double var = 0.0;
  for (double x : v) var += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(var / static_cast<double>(v.size() - 1)) : 0.0;
  std::sort(v.begin(), v.end());
  s.median = v[v.size() / 2];
  return s;
}

std::string cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown";
}

}  // namespace

int main() {
  const Workload workloads[] = {
      {"pht_gaussian", DriftKind::kPageHinkley, Shape::kGaussian, 10.0},
      {"adwin_gaussian", DriftKind::kAdwin, Shape::kGaussian, 50.0},
      {"adwin_bernoulli", DriftKind::kAdwin, Shape::kBernoulli, 50.0},
      {"ddm_bernoulli", DriftKind::kDdm, Shape::kBernoulli, 10.0},
      {"ddm_continuous", DriftKind::kDdm, Shape::kAbsGaussian, 10.0},
  };
  const std::string cpu = cpu_name();
  std::fprintf(stderr, "| workload | median ns/update | mean ± sd | cpu-time median | drifts | target |\n"
                       "|---|---|---|---|---|---|\n");
  for (const Workload& w : workloads) {
    const std::vector<double> stream = make_stream(w.shape);
    auto made = irithyll::make_drift_detector(irithyll::default_drift_config(w.kind));
    if (!made.is_ok()) {
      std::fprintf(stderr, "%s\n", made.status().to_string().c_str());
      return 1;
    }
    const auto prototype = std::move(made).value();
    std::vector<double> wall_ns, cpu_ns;
    std::size_t drifts = 0;
    for (int rep = -1; rep < kRepetitions; ++rep) {  // rep -1 is the warm-up
      auto detector = prototype->clone_fresh();
      std::size_t signals = 0;
      const double cpu_start = thread_cpu_ns();
      const auto start = std::chrono::steady_clock::now();
      for (double x : stream) signals += detector->update(x) == irithyll::DriftSignal::kDrift;
      const auto stop = std::chrono::steady_clock::now();
      const double cpu_stop = thread_cpu_ns();
      drifts = signals;
      if (rep < 0) continue;
      wall_ns.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / kSamples);
      cpu_ns.push_back((cpu_stop - cpu_start) / kSamples);
    }
    const Summary wall = summarize(wall_ns), cpu_time = summarize(cpu_ns);
    std::printf(
        "{\"bench\":\"drift_detectors\",\"workload\":\"%s\",\"detector\":\"%.*s\",\"samples\":%zu,"
        "\"repetitions\":%d,\"ns_per_update_median\":%.3f,\"ns_per_update_mean\":%.3f,"
        "\"ns_per_update_stddev\":%.3f,\"cpu_ns_per_update_median\":%.3f,\"drifts\":%zu,\"target_ns\":%.0f,"
        "\"cpu\":\"%s\"}\n",
        w.name, static_cast<int>(prototype->name().size()), prototype->name().data(), kSamples, kRepetitions,
        wall.median, wall.mean, wall.sd, cpu_time.median, drifts, w.target_ns, cpu.c_str());
    std::fprintf(stderr, "| %s | %.2f | %.2f ± %.2f | %.2f | %zu | <= %.0f |\n", w.name, wall.median, wall.mean,
                 wall.sd, cpu_time.median, drifts, w.target_ns);
  }
  return 0;
}
