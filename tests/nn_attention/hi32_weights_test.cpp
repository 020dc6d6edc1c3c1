// The layer's hi32 weight storage (kernels_hi32.hpp): the setters round onto
// the grid and refresh the packed copy the step reads, and older checkpoints
// (version 1 with f64 weights, version 2 with f32) decode rounded onto it.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/attention/multi_head.hpp"
#include "nn/kernels_hi32.hpp"
#include "support/legacy_config_records.hpp"

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

TEST(AttentionHi32Weights, SettersReplaceWhatTheStepReads) {
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
    const std::vector<double> before(b.head_weights(0).begin(), b.head_weights(0).end());
    EXPECT_FALSE(b.set_head_weights(3, a.head_weights(0)));
    EXPECT_FALSE(b.set_head_weights(0, a.head_weights(0).first(3)));
    EXPECT_FALSE(b.set_output_weights(a.output_weights().first(2)));
    EXPECT_EQ(std::vector<double>(b.head_weights(0).begin(), b.head_weights(0).end()), before);
    // Off-grid values are stored rounded, and the step uses what is stored.
    std::vector<double> w(a.head_weights(1).begin(), a.head_weights(1).end());
    for (double& e : w) e *= 1.0 + 0x1p-22;
    ASSERT_TRUE(b.set_head_weights(1, w));
    for (std::size_t i = 0; i < w.size(); ++i) ASSERT_EQ(b.head_weights(1)[i], to_hi32(w[i]));
  }
}

// A version-1 layer record (f64 weights) or version-2 record (f32 weights),
// as written before the weights moved to the hi32 grid.
std::vector<std::uint8_t> encode_old(std::uint32_t version, const MultiHeadAttention& layer,
                                     const std::vector<double>& w_proj, const std::vector<double>& w_out) {
  ByteWriter w;
  w.u32(version);
  testing::encode_legacy(layer.config(), w);
  for (const std::vector<double>* m : {&w_proj, &w_out}) {
    if (version == 1) {
      w.f64s(*m);
    } else {
      w.u64(m->size());
      for (double e : *m) w.f32(static_cast<float>(e));
    }
  }
  w.f64s(layer.state());
  w.u64(layer.level_mask());
  w.u64(layer.tokens_seen());
  return w.take();
}

TEST(AttentionHi32Weights, OlderCheckpointsDecodeRoundedOntoTheGrid) {
  for (AttentionKind kind : {AttentionKind::kGLA, AttentionKind::kRWKV7, AttentionKind::kLogLinear}) {
    MultiHeadAttention a(config(kind, 5));
    Xorshift64 rng(8);
    std::vector<double> oa(10), ob(10);
    for (int t = 0; t < 9; ++t) a.forward(input(rng, 10), oa);
    std::vector<double> w_proj, w_out(a.output_weights().begin(), a.output_weights().end());
    for (std::size_t h = 0; h < 3; ++h) w_proj.insert(w_proj.end(), a.head_weights(h).begin(), a.head_weights(h).end());
    // Weights a hair off the grid (f64 in version 1; f32, 3 bits finer, in
    // version 2) round back onto it.
    for (double& e : w_proj) e *= 1.0 + 1e-12;
    for (std::uint32_t version : {1u, 2u}) {
      MultiHeadAttention a2 = a;
      const std::vector<std::uint8_t> bytes = encode_old(version, a2, w_proj, w_out);
      MultiHeadAttention b;
      ByteReader r(bytes);
      ASSERT_TRUE(b.decode(r, a.config()).is_ok()) << version;
      for (std::size_t h = 0; h < 3; ++h)
        for (std::size_t i = 0; i < a2.head_weights(h).size(); ++i)
          ASSERT_EQ(b.head_weights(h)[i], a2.head_weights(h)[i]) << version;
      Xorshift64 rng2(9);
      for (int t = 0; t < 10; ++t) {
        const auto x = input(rng2, 10);
        a2.forward(x, oa);
        b.forward(x, ob);
        ASSERT_EQ(oa, ob) << version;
      }
    }
    // f32 weights between grid points round to the nearer one.
    std::vector<double> fine(w_proj.size(), 0.0);
    fine[0] = 1.0 + 0x1p-23;
    fine[1] = 1.0 + 0x1p-21 + 0x1p-23;
    const std::vector<std::uint8_t> v2 = encode_old(2, a, fine, w_out);
    MultiHeadAttention f;
    ByteReader rf(v2);
    ASSERT_TRUE(f.decode(rf, a.config()).is_ok());
    EXPECT_EQ(f.head_weights(0)[0], 1.0);
    EXPECT_EQ(f.head_weights(0)[1], 1.0 + 0x1p-20);
    // The grid keeps f64's range: large weights stay finite; a NaN weight,
    // or one beyond what learning could reach (1e100), is refused.
    w_proj[0] = 1e90;
    w_proj[1] = -1e90;
    const std::vector<std::uint8_t> wild = encode_old(1, a, w_proj, w_out);
    MultiHeadAttention c;
    ByteReader rw(wild);
    ASSERT_TRUE(c.decode(rw, a.config()).is_ok());
    EXPECT_EQ(c.head_weights(0)[0], to_hi32(1e90));
    EXPECT_EQ(c.head_weights(0)[1], to_hi32(-1e90));
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), 1e300}) {
      std::vector<double> hostile = w_proj;
      hostile[2] = bad;
      const std::vector<std::uint8_t> refused = encode_old(1, a, hostile, w_out);
      MultiHeadAttention e;
      ByteReader re(refused);
      EXPECT_FALSE(e.decode(re, a.config()).is_ok()) << bad;
    }
    // And the current version stores grid values exactly.
    ByteWriter out;
    c.encode(out);
    const std::vector<std::uint8_t> v3 = out.take();
    MultiHeadAttention d;
    ByteReader rd(v3);
    ASSERT_TRUE(d.decode(rd, c.config()).is_ok());
    for (std::size_t h = 0; h < 3; ++h)
      for (std::size_t i = 0; i < c.head_weights(h).size(); ++i)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(d.head_weights(h)[i]), std::bit_cast<std::uint64_t>(c.head_weights(h)[i]));
  }
}

// Hawk packs and projects only its v and gate rows (separate runs of the
// packed copy, at any d_key / d_value): check it against the recurrence
// computed here from the row-major weights.
class HawkRuns : public ::testing::TestWithParam<std::pair<std::size_t, std::size_t>> {};

TEST_P(HawkRuns, ProjectionMatchesRecurrence) {
  AttentionConfig c = config(AttentionKind::kHawk, 9);
  c.d_key = GetParam().first;
  c.d_value = GetParam().second;
  MultiHeadAttention layer(c);
  const HeadLayout l = layer.layout();
  const std::size_t d = c.d_model, dv = c.d_value, nh = c.n_heads;
  std::vector<double> h(nh * dv, 0.0), out(d), expect(d);
  auto row_dot = [&](std::span<const double> w, std::size_t row, const std::vector<double>& x) {
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) s += w[row * d + j] * x[j];
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
      for (std::size_t j = 0; j < nh * dv; ++j) s += wo[r * nh * dv + j] * h[j];
      expect[r] = s;
    }
    for (std::size_t r = 0; r < d; ++r) ASSERT_NEAR(out[r], expect[r], 1e-12) << "t=" << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, HawkRuns,
                         ::testing::Values(std::pair<std::size_t, std::size_t>{8, 16},
                                           std::pair<std::size_t, std::size_t>{4, 5},
                                           std::pair<std::size_t, std::size_t>{3, 9}));

TEST(AttentionHi32Weights, DrawnWeightsAreRoundedDoubles) {
  // The first projection weight is N(0,1) * init_scale rounded once onto the grid.
  MultiHeadAttention a(config(AttentionKind::kRetNet, 77));
  Xorshift64 rng(77);
  EXPECT_EQ(a.head_weights(0)[0], to_hi32(rng.normal() * 0.4));
}

}  // namespace
}  // namespace irithyll::nn
