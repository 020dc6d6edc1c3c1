// Short version of bench/attention_soak.cpp: 20k tokens per mode at input
// scales 1, 1e2, 1e4; no NaN/inf in outputs or state, tanh bound held.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/attention/multi_head.hpp"

namespace irithyll::nn {
namespace {

TEST(AttentionSoak, FiniteAndBoundedAtExtremeInputScales) {
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    for (double scale : {1.0, 1e2, 1e4}) {
      AttentionConfig c;
      c.d_model = 16;
      c.n_heads = 2;
      c.d_key = 8;
      c.d_value = 8;
      c.mode.kind = static_cast<AttentionKind>(k);
      c.mode.max_levels = 10;  // 20k tokens overflow 2^10: the fold is soaked too
      c.init_scale = 0.3;
      MultiHeadAttention layer(c);
      Xorshift64 rng(11);
      std::vector<double> x(16), out(16);
      for (int t = 0; t < 20000; ++t) {
        for (double& e : x) e = rng.normal() * scale;
        ASSERT_TRUE(layer.forward(x, out));
        for (double o : out) {
          ASSERT_TRUE(std::isfinite(o)) << attention_mode_name(c.mode) << " scale " << scale << " t " << t;
          if (is_bounded(c.mode.kind)) {
            ASSERT_LE(std::fabs(o), 1.0);
          }
        }
      }
      for (double s : layer.state()) ASSERT_TRUE(std::isfinite(s)) << attention_mode_name(c.mode) << " " << scale;
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
