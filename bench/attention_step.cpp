// Time per token of one MultiHeadAttention forward step, per mode, at
// d_model 64, 4 heads, d_key = d_value = 16 (the reference workload).
// Also: the log-linear step after T = 1e6 tokens against its inner mode's
// step times the number of active levels. One JSON line per workload.
//
// Times are thread CPU time per token.
// Usage: bench_attention_step [tokens_per_mode=200000] [mode]
// With a mode name (attention_mode_name, or "loglinear_T" for the T = 1e6
// workload) only that workload runs: one mode under a profiler.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/attention/multi_head.hpp"
#include "nn/kernels.hpp"

using irithyll::Xorshift64;
using namespace irithyll::nn;

namespace {

AttentionConfig reference_config(const AttentionMode& m) {
  AttentionConfig c;
  c.d_model = 64;
  c.n_heads = 4;
  c.d_key = 16;
  c.d_value = 16;
  c.mode = m;
  return c;
}

struct Inputs {
  std::vector<double> xs;
  explicit Inputs(std::size_t d) : xs(1024 * d) {
    Xorshift64 rng(1);
    for (double& e : xs) e = rng.normal();
  }
  const double* at(std::size_t t, std::size_t d) const { return xs.data() + (t & 1023) * d; }
};

double thread_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

double ns_per_token(MultiHeadAttention& layer, const Inputs& in, std::size_t tokens, double& sink) {
  const std::size_t d = layer.config().d_model;
  std::vector<double> out(d);
  for (std::size_t t = 0; t < 2000; ++t) layer.forward({in.at(t, d), d}, out);
  // Thread CPU time, not wall time: the build machine is shared, and CPU time
  // excludes the periods this thread was descheduled.
  const double t0 = thread_ns();
  for (std::size_t t = 0; t < tokens; ++t) {
    layer.forward({in.at(t, d), d}, out);
    sink += out[t % d];
  }
  return (thread_ns() - t0) / static_cast<double>(tokens);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t tokens = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  const char* only = argc > 2 ? argv[2] : nullptr;
  const Inputs in(64);
  double sink = 0.0;
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    AttentionMode m;
    m.kind = static_cast<AttentionKind>(k);
    if (only != nullptr && attention_mode_name(m) != only) continue;
    MultiHeadAttention layer(reference_config(m));
    const double ns = ns_per_token(layer, in, tokens, sink);
    std::printf(
        "{\"bench\":\"attention_step\",\"mode\":\"%s\",\"d_model\":64,\"n_heads\":4,\"d_key\":16,\"d_value\":16,"
        "\"tokens\":%zu,\"us_per_token\":%.4f,\"backend\":\"%s\"}\n",
        attention_mode_name(m).c_str(), tokens, ns / 1000.0, kernels_backend());
    std::fflush(stdout);
  }
  // Log-linear at T = 1e6: advance the stream, then time further steps.
  if (only != nullptr && std::strcmp(only, "loglinear_T") != 0) {
    std::fprintf(stderr, "sink %g\n", sink);
    return 0;
  }
  for (AttentionKind inner : {AttentionKind::kGLA, AttentionKind::kGatedDeltaNet}) {
    AttentionMode inner_mode;
    inner_mode.kind = inner;
    MultiHeadAttention inner_layer(reference_config(inner_mode));
    const double inner_ns = ns_per_token(inner_layer, in, tokens, sink);
    AttentionMode m;
    m.kind = AttentionKind::kLogLinear;
    m.inner = inner;
    MultiHeadAttention layer(reference_config(m));
    std::vector<double> out(64);
    constexpr std::size_t kT = 1000000;
    for (std::size_t t = 0; t < kT; ++t) layer.forward({in.at(t, 64), 64}, out);
    const double ns = ns_per_token(layer, in, tokens, sink);
    const int active = __builtin_popcountll(layer.level_mask());
    std::printf(
        "{\"bench\":\"attention_loglinear_step\",\"mode\":\"%s\",\"T\":%zu,\"active_levels\":%d,"
        "\"us_per_token\":%.4f,\"inner_us_per_token\":%.4f,\"ratio_to_inner_times_levels\":%.4f}\n",
        attention_mode_name(m).c_str(), kT, active, ns / 1000.0, inner_ns / 1000.0,
        ns / (inner_ns * active));
  }
  std::fprintf(stderr, "sink %g\n", sink);
  return 0;
}
