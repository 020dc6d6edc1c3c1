// The layer's f32 weight storage: the setters refresh the packed copy the
// step reads, and version-1 checkpoints (f64 weights) decode rounded to f32.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/multi_head.hpp"

namespace irithyll::nn {
namespace {

AttentionConfig config(AttentionKind kind, std::uint64_t seed) {
  AttentionConfig c;
  c.d_model = 10;  // not a multiple of 8: padded packed blocks
  c.n_heads = 3;
  c.d_key = 4;
  c.d_value = 5;
  c.mode.kind = kind;
  c.mode.max_levels = 6;
  c.seed = seed;
  c.init_scale = 0.4;
  return c;
}

std::vector<double> input(Xorshift64& rng, std::size_t n) {
  std::vector<double> x(n);
  for (double& e : x) e = rng.normal();
  return x;
}

TEST(AttentionF32Weights, SettersReplaceWhatTheStepReads) {
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    const auto kind = static_cast<AttentionKind>(k);
    MultiHeadAttention a(config(kind, 1)), b(config(kind, 2));
    // Output weights first, so each setter must refresh the packed copy itself.
    ASSERT_TRUE(b.set_output_weights(a.output_weights()));
    for (std::size_t h = 0; h < 3; ++h) ASSERT_TRUE(b.set_head_weights(h, a.head_weights(h)));
    Xorshift64 rng(3);
    std::vector<double> oa(10), ob(10);
    for (int t = 0; t < 20; ++t) {
      const auto x = input(rng, 10);
      a.forward(x, oa);
      b.forward(x, ob);
      ASSERT_EQ(oa, ob) << attention_kind_name(kind) << " t=" << t;
    }
    // Wrong sizes or head index: refused, nothing changes.
    const std::vector<float> before(b.head_weights(0).begin(), b.head_weights(0).end());
    EXPECT_FALSE(b.set_head_weights(3, a.head_weights(0)));
    EXPECT_FALSE(b.set_head_weights(0, a.head_weights(0).first(3)));
    EXPECT_FALSE(b.set_output_weights(a.output_weights().first(2)));
    EXPECT_EQ(std::vector<float>(b.head_weights(0).begin(), b.head_weights(0).end()), before);
  }
}

// A version-1 layer record, as written before the weights became f32.
std::vector<std::uint8_t> encode_v1(const MultiHeadAttention& layer, const std::vector<double>& w_proj,
                                    const std::vector<double>& w_out) {
  ByteWriter w;
  w.u32(1);
  layer.config().encode(w);
  w.f64s(w_proj);
  w.f64s(w_out);
  w.f64s(layer.state());
  w.u64(layer.level_mask());
  w.u64(layer.tokens_seen());
  return w.take();
}

TEST(AttentionF32Weights, Version1CheckpointDecodesRoundedToF32) {
  for (AttentionKind kind : {AttentionKind::kGLA, AttentionKind::kRWKV7, AttentionKind::kLogLinear}) {
    MultiHeadAttention a(config(kind, 5));
    Xorshift64 rng(8);
    std::vector<double> oa(10), ob(10);
    for (int t = 0; t < 9; ++t) a.forward(input(rng, 10), oa);
    std::vector<double> w_proj, w_out(a.output_weights().begin(), a.output_weights().end());
    for (std::size_t h = 0; h < 3; ++h) w_proj.insert(w_proj.end(), a.head_weights(h).begin(), a.head_weights(h).end());
    // f64 weights a hair off the f32 grid round back onto it.
    for (double& e : w_proj) e *= 1.0 + 1e-12;
    const std::vector<std::uint8_t> bytes = encode_v1(a, w_proj, w_out);
    MultiHeadAttention b;
    ByteReader r(bytes);
    ASSERT_TRUE(b.decode(r).is_ok());
    for (std::size_t h = 0; h < 3; ++h)
      for (std::size_t i = 0; i < a.head_weights(h).size(); ++i) ASSERT_EQ(b.head_weights(h)[i], a.head_weights(h)[i]);
    for (int t = 0; t < 10; ++t) {
      const auto x = input(rng, 10);
      a.forward(x, oa);
      b.forward(x, ob);
      ASSERT_EQ(oa, ob);
    }
    // Out-of-range and NaN f64 weights become +-inf / NaN, never undefined casts.
    w_proj[0] = 1e300;
    w_proj[1] = -1e300;
    w_proj[2] = std::numeric_limits<double>::quiet_NaN();
    const std::vector<std::uint8_t> wild = encode_v1(a, w_proj, w_out);
    MultiHeadAttention c;
    ByteReader rw(wild);
    ASSERT_TRUE(c.decode(rw).is_ok());
    EXPECT_EQ(c.head_weights(0)[0], std::numeric_limits<float>::infinity());
    EXPECT_EQ(c.head_weights(0)[1], -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(c.head_weights(0)[2]));
  }
}

// Hawk with d_key, d_value multiples of 8 projects only its v and gate rows
// (block-aligned in the packed copy): check it against the recurrence
// computed here from the row-major weights.
TEST(AttentionF32Weights, HawkBlockAlignedProjectionMatchesRecurrence) {
  AttentionConfig c = config(AttentionKind::kHawk, 9);
  c.d_key = 8;
  c.d_value = 16;
  MultiHeadAttention layer(c);
  const HeadLayout l = layer.layout();
  const std::size_t d = c.d_model, dv = c.d_value, nh = c.n_heads;
  std::vector<double> h(nh * dv, 0.0), out(d), expect(d);
  auto row_dot = [&](std::span<const float> w, std::size_t row, const std::vector<double>& x) {
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) s += static_cast<double>(w[row * d + j]) * x[j];
    return s;
  };
  Xorshift64 rng(10);
  for (int t = 0; t < 12; ++t) {
    const auto x = input(rng, d);
    layer.forward(x, out);
    for (std::size_t k = 0; k < nh; ++k) {
      const auto w = layer.head_weights(k);
      for (std::size_t i = 0; i < dv; ++i) {
        const double a = 1.0 / (1.0 + std::exp(-row_dot(w, l.extra + i, x)));
        const double b = 1.0 / (1.0 + std::exp(-row_dot(w, l.extra + dv + i, x)));
        h[k * dv + i] = a * h[k * dv + i] + b * row_dot(w, c.d_key + i, x);
      }
    }
    const auto wo = layer.output_weights();
    for (std::size_t r = 0; r < d; ++r) {
      double s = 0.0;
      for (std::size_t j = 0; j < nh * dv; ++j) s += static_cast<double>(wo[r * nh * dv + j]) * h[j];
      expect[r] = s;
    }
    for (std::size_t r = 0; r < d; ++r) ASSERT_NEAR(out[r], expect[r], 1e-12) << "t=" << t;
  }
}

TEST(AttentionF32Weights, DrawnWeightsAreRoundedDoubles) {
  // The first projection weight is N(0,1) * init_scale rounded once to f32.
  MultiHeadAttention a(config(AttentionKind::kRetNet, 77));
  Xorshift64 rng(77);
  EXPECT_EQ(a.head_weights(0)[0], static_cast<float>(rng.normal() * 0.4));
}

}  // namespace
}  // namespace irithyll::nn
