// Nanoseconds per element of the vectorised maps in nn/vmath.hpp (exp,
// sigmoid, tanh, softplus) at the short lengths the recurrent layers use per
// token (16, 64, 128) and one long length (1024). One JSON line per map and
// path: the dispatched entry point, the AVX2 kernel (the scalar reference
// when the CPU lacks AVX2) and the scalar reference.
//
// Two timings per length: "ns_per_elem_nN" with independent calls (the
// throughput a layer sees when the map overlaps surrounding work), and
// "chained_ns_per_elem_nN" where each call's input depends on the previous
// call's output (the latency of one call, which dominates at small n).
// Times are thread CPU time, the median of `reps` repetitions; each
// repetition calls the map on the same array until ~`elems` elements are done.
// Inputs are N(0, 3^2): the gate pre-activations of the attention layers.
// Usage: bench_vmath_maps [reps=9] [elems=4000000]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/vmath.hpp"

using namespace irithyll::nn;

namespace {

using Fn = void (*)(const double*, double*, std::size_t) noexcept;

double thread_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

double median_ns_per_elem(Fn f, std::size_t n, bool chained, std::size_t reps, std::size_t elems, double& sink) {
  irithyll::Xorshift64 rng(7 + n);
  std::vector<double> x(n), y(n);
  for (double& v : x) v = 3.0 * rng.normal();
  const std::size_t calls = std::max<std::size_t>(1, elems / n);
  for (std::size_t c = 0; c < calls / 10 + 1; ++c) f(x.data(), y.data(), n);
  std::vector<double> times(reps);
  for (double& t : times) {
    const double t0 = thread_ns();
    for (std::size_t c = 0; c < calls; ++c) {
      f(x.data(), y.data(), n);
      if (chained) {
        // Feed the output back so the next call waits for this one: y - y
        // is 0 for the finite outputs here (not folded without fast-math),
        // and adds no subnormal arithmetic.
        for (std::size_t i = 0; i < n; ++i) x[i] += y[i] - y[i];
      } else {
        // The map lives in another translation unit, so the calls are not
        // elided; this only stops the compiler caching y across calls.
        asm volatile("" ::: "memory");
      }
    }
    t = (thread_ns() - t0) / static_cast<double>(calls * n);
    sink += y[0];
  }
  std::sort(times.begin(), times.end());
  return times[reps / 2];
}

struct Row {
  const char* map;
  const char* path;
  Fn fn;
};

}  // namespace

int main(int argc, char** argv) {
  const std::size_t reps = argc > 1 ? std::max<std::size_t>(1, std::strtoull(argv[1], nullptr, 10)) : 9;
  const std::size_t elems = argc > 2 ? std::max<std::size_t>(1024, std::strtoull(argv[2], nullptr, 10)) : 4000000;
  const Row rows[] = {
      {"exp", "dispatch", vexp},           {"sigmoid", "dispatch", vsigmoid},
      {"tanh", "dispatch", vtanh},         {"softplus", "dispatch", vsoftplus},
      {"exp", "avx2", vexp_avx2_kernel},   {"sigmoid", "avx2", vsigmoid_avx2_kernel},
      {"tanh", "avx2", vtanh_avx2_kernel}, {"softplus", "avx2", vsoftplus_avx2_kernel},
      {"exp", "ref", vexp_ref},            {"sigmoid", "ref", vsigmoid_ref},
      {"tanh", "ref", vtanh_ref},          {"softplus", "ref", vsoftplus_ref},
  };
  double sink = 0.0;
  for (const Row& r : rows) {
    std::printf("{\"bench\":\"vmath_maps\",\"map\":\"%s\",\"path\":\"%s\",\"backend\":\"%s\",\"reps\":%zu", r.map,
                r.path, vmath_backend(), reps);
    for (bool chained : {false, true}) {
      for (std::size_t n : {16, 64, 128, 1024}) {
        std::printf(",\"%sns_per_elem_n%zu\":%.3f", chained ? "chained_" : "", n,
                    median_ns_per_elem(r.fn, n, chained, reps, elems, sink));
      }
    }
    std::printf("}\n");
    std::fflush(stdout);
  }
  std::fprintf(stderr, "sink %g\n", sink);
  return 0;
}
