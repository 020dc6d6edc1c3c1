// Timing helper shared by bench/reservoir_step.cpp, snn_step.cpp and
// timeseries.cpp: runs a workload for a warmup pass and `reps` timed passes
// and prints one JSON line with the mean and standard deviation in ns/op,
// both wall-clock and thread CPU time (CLOCK_THREAD_CPUTIME_ID). On a shared,
// oversubscribed machine the CPU-time figure is the one to compare: it does
// not count time the thread spent descheduled.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include <time.h>

#include "nn/kernels.hpp"

namespace irithyll::bench {

inline double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

inline void mean_sd(const std::vector<double>& v, double& mean, double& sd) {
  mean = 0.0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double var = 0.0;
  for (double x : v) var += (x - mean) * (x - mean);
  sd = v.size() > 1 ? std::sqrt(var / static_cast<double>(v.size() - 1)) : 0.0;
}

template <class F>
void time_workload(const char* workload, const char* params, std::size_t ops_per_rep, int reps, F&& body) {
  body();  // warmup
  std::vector<double> ns, cpu;
  const double ops = static_cast<double>(ops_per_rep);
  for (int r = 0; r < reps; ++r) {
    const double c0 = thread_cpu_ns();
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const auto t1 = std::chrono::steady_clock::now();
    cpu.push_back((thread_cpu_ns() - c0) / ops);
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / ops);
  }
  double mean, sd, cmean, csd;
  mean_sd(ns, mean, sd);
  mean_sd(cpu, cmean, csd);
  std::printf("{\"workload\": \"%s\", %s, \"ns_per_op_mean\": %.1f, \"ns_per_op_stddev\": %.1f, "
              "\"cpu_ns_per_op_mean\": %.1f, \"cpu_ns_per_op_stddev\": %.1f, \"reps\": %d, \"ops_per_rep\": %zu, "
              "\"kernels\": \"%s\"}\n",
              workload, params, mean, sd, cmean, csd, reps, ops_per_rep, nn::kernels_backend());
  std::fflush(stdout);
}

}  // namespace irithyll::bench
