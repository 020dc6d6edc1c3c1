// Soak: tokens through every MultiHeadAttention mode at input scales 1, 1e2
// and 1e4 (d_model 64, 4 heads, d_key = d_value = 16); checks that no output
// or state entry is ever NaN or inf and that tanh-bounded modes stay in
// [-1, 1]. The Rust library's RWKV reached 1e103 at scale 1e3 and inf at 1e4.
// One JSON line per (mode, scale); exit status 1 if any check failed.
// Usage: bench_attention_soak [tokens=10000000] [mode]   (mode: run only that
// one, e.g. to split the 36 runs across processes; every mode by default)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/attention/multi_head.hpp"

using irithyll::Xorshift64;
using namespace irithyll::nn;

int main(int argc, char** argv) {
  const std::size_t tokens = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const std::string only = argc > 2 ? argv[2] : "";
  constexpr std::size_t kD = 64, kPool = 4096;
  std::vector<double> pool(kPool * kD);
  Xorshift64 rng(7);
  for (double& e : pool) e = rng.normal();
  bool all_ok = true;
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    AttentionMode mode;
    mode.kind = static_cast<AttentionKind>(k);
    if (!only.empty() && attention_mode_name(mode) != only && std::string(attention_kind_name(mode.kind)) != only)
      continue;
    for (double scale : {1.0, 1e2, 1e4}) {
      AttentionConfig c;
      c.d_model = kD;
      c.n_heads = 4;
      c.d_key = 16;
      c.d_value = 16;
      c.mode.kind = static_cast<AttentionKind>(k);
      MultiHeadAttention layer(c);
      std::vector<double> x(kD), out(kD);
      std::size_t bad = 0, out_of_bound = 0;
      double max_out = 0.0, max_state = 0.0;
      for (std::size_t t = 0; t < tokens; ++t) {
        const double* src = pool.data() + ((t * 2654435761u) % kPool) * kD;
        for (std::size_t i = 0; i < kD; ++i) x[i] = src[i] * scale;
        layer.forward(x, out);
        for (double o : out) {
          if (!std::isfinite(o)) ++bad;
          max_out = std::max(max_out, std::fabs(o));
        }
        if (is_bounded(c.mode.kind) && max_out > 1.0) ++out_of_bound;
        if ((t + 1) % 100000 == 0 || t + 1 == tokens) {
          for (double s : layer.state()) {
            if (!std::isfinite(s)) ++bad;
            max_state = std::max(max_state, std::fabs(s));
          }
        }
      }
      const bool ok = bad == 0 && out_of_bound == 0;
      all_ok &= ok;
      std::printf("{\"bench\":\"attention_soak\",\"mode\":\"%s\",\"scale\":%g,\"tokens\":%zu,\"non_finite\":%zu,"
                  "\"out_of_bound\":%zu,\"max_abs_output\":%.4g,\"max_abs_state\":%.4g,\"ok\":%s}\n",
                  attention_mode_name(c.mode).c_str(), scale, tokens, bad, out_of_bound, max_out, max_state,
                  ok ? "true" : "false");
      std::fflush(stdout);
    }
  }
  return all_ok ? 0 : 1;
}
