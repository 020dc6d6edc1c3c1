#include "nn/attention/multi_head.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "nn/attention/fenwick.hpp"

namespace irithyll::nn {
namespace {

std::vector<AttentionMode> all_modes() {
  std::vector<AttentionMode> v;
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    AttentionMode m;
    m.kind = static_cast<AttentionKind>(k);
    m.max_levels = 8;
    v.push_back(m);
  }
  return v;
}

AttentionConfig small(const AttentionMode& m, std::uint64_t seed = 42, double scale = 0.3) {
  AttentionConfig c;
  c.d_model = 8;
  c.n_heads = 2;
  c.d_key = 4;
  c.d_value = 3;
  c.mode = m;
  c.seed = seed;
  c.init_scale = scale;
  return c;
}

std::vector<double> mh_input(Xorshift64& rng, std::size_t n, double scale = 1.0) {
  std::vector<double> x(n);
  for (double& e : x) e = rng.normal() * scale;
  return x;
}

TEST(AttentionConfig, ParsesEveryModeName) {
  for (const AttentionMode& m : all_modes()) {
    auto parsed = parse_attention_mode(attention_mode_name(m));
    ASSERT_TRUE(parsed.is_ok()) << attention_mode_name(m);
    EXPECT_EQ(parsed->kind, m.kind);
  }
  auto ll = parse_attention_mode("loglinear:deltanet");
  ASSERT_TRUE(ll.is_ok());
  EXPECT_EQ(ll->inner, AttentionKind::kDeltaNet);
  EXPECT_FALSE(parse_attention_mode("loglinear:loglinear").is_ok());
  EXPECT_FALSE(parse_attention_mode("transformer").is_ok());
  EXPECT_FALSE(parse_attention_mode("gla:deltanet").is_ok());
  AttentionMode d;
  EXPECT_DOUBLE_EQ(d.lambda_bias(), 1.0 / 32);
}

TEST(MultiHeadAttention, ShapesBoundsAndConstantState) {
  for (const AttentionMode& m : all_modes()) {
    MultiHeadAttention layer(small(m, 7, 1.0));
    const std::size_t n_state = layer.state().size();
    const std::size_t per_head = m.kind == AttentionKind::kHawk        ? 3u
                                 : has_levels(m.kind) ? 8u * 4u * 3u
                                                                       : 4u * 3u;
    EXPECT_EQ(n_state, 2 * per_head) << attention_mode_name(m);
    Xorshift64 rng(1);
    std::vector<double> out(8);
    for (int t = 0; t < 300; ++t) {
      ASSERT_TRUE(layer.forward(mh_input(rng, 8, 3.0), out));
      EXPECT_EQ(layer.state().size(), n_state);
      for (double o : out) {
        ASSERT_TRUE(std::isfinite(o)) << attention_mode_name(m);
        if (is_bounded(m.kind)) {
          ASSERT_LE(std::fabs(o), 1.0) << attention_mode_name(m);  // tanh rounds to 1.0 when saturated
        }
      }
    }
    EXPECT_EQ(layer.tokens_seen(), 300u);
  }
}

TEST(MultiHeadAttention, DeterministicPerSeedAndSeedMatters) {
  for (const AttentionMode& m : all_modes()) {
    MultiHeadAttention a(small(m, 5)), b(small(m, 5)), c(small(m, 6));
    Xorshift64 rng(2);
    std::vector<double> oa(8), ob(8), oc(8);
    bool differs = false;
    for (int t = 0; t < 50; ++t) {
      const auto x = mh_input(rng, 8);
      a.forward(x, oa);
      b.forward(x, ob);
      c.forward(x, oc);
      ASSERT_EQ(oa, ob);
      differs |= oa != oc;
    }
    EXPECT_TRUE(differs) << attention_mode_name(m);
  }
}

TEST(MultiHeadAttention, QueryStateIsReadOnlyAndReadsPreviousState) {
  for (const AttentionMode& m : all_modes()) {
    MultiHeadAttention layer(small(m));
    Xorshift64 rng(3);
    std::vector<double> out(8), q1(8), q2(8);
    for (int t = 0; t < 20; ++t) layer.forward(mh_input(rng, 8), out);
    const std::vector<double> before(layer.state().begin(), layer.state().end());
    const auto x = mh_input(rng, 8);
    layer.query_state(x, q1);
    layer.query_state(x, q2);
    EXPECT_EQ(q1, q2);
    EXPECT_EQ(std::vector<double>(layer.state().begin(), layer.state().end()), before);
    EXPECT_EQ(layer.tokens_seen(), 20u);
    // forward reads after its update, so it differs from the read-only query of S_{t-1}.
    layer.forward(x, out);
    if (m.kind != AttentionKind::kHawk) {
      EXPECT_NE(out, q1) << attention_mode_name(m);
    }
  }
}

TEST(MultiHeadAttention, NonFiniteInputLeavesStateUntouched) {
  for (const AttentionMode& m : all_modes()) {
    MultiHeadAttention layer(small(m));
    Xorshift64 rng(5);
    std::vector<double> out(8);
    for (int t = 0; t < 5; ++t) layer.forward(mh_input(rng, 8), out);
    const std::vector<double> s(layer.state().begin(), layer.state().end());
    auto bad = mh_input(rng, 8);
    bad[3] = std::nan("");
    EXPECT_FALSE(layer.forward(bad, out));
    bad[3] = INFINITY;
    EXPECT_FALSE(layer.forward(bad, out));
    for (double o : out) EXPECT_EQ(o, 0.0);
    EXPECT_EQ(std::vector<double>(layer.state().begin(), layer.state().end()), s);
    EXPECT_FALSE(layer.forward(std::vector<double>(3, 1.0), out));  // wrong size
  }
}

TEST(MultiHeadAttention, EncodeDecodeContinuesBitIdentically) {
  for (const AttentionMode& m : all_modes()) {
    MultiHeadAttention a(small(m));
    Xorshift64 rng(6);
    std::vector<double> oa(8), ob(8);
    for (int t = 0; t < 13; ++t) a.forward(mh_input(rng, 8), oa);
    ByteWriter w;
    a.encode(w);
    MultiHeadAttention b;
    ByteReader r(w.data());
    ASSERT_TRUE(b.decode(r, a.config()).is_ok());
    for (int t = 0; t < 20; ++t) {
      const auto x = mh_input(rng, 8);
      a.forward(x, oa);
      b.forward(x, ob);
      ASSERT_EQ(oa, ob);
    }
    // Every truncation fails cleanly.
    for (std::size_t cut = 0; cut < w.data().size(); cut += 7) {
      MultiHeadAttention c;
      ByteReader tr(std::span<const std::uint8_t>(w.data()).first(cut));
      EXPECT_FALSE(c.decode(tr, a.config()).is_ok());
    }
  }
}

TEST(Fenwick, ActiveLevelsAreTheBitsOfTAndOverflowFolds) {
  constexpr std::uint32_t kL = 5;
  const std::size_t dk = 2, dv = 2;
  std::vector<double> levels(kL * dk * dv, 0.0);
  std::uint64_t mask = 0;
  const double u[2] = {1.0, 0.0}, v[2] = {1.0, 0.0};
  for (std::uint64_t t = 1; t < (1u << kL); ++t) {
    const auto land = fenwick_landing_level(mask, kL);
    EXPECT_EQ(land, static_cast<std::uint32_t>(std::countr_one(t - 1)));
    fenwick_push(levels.data(), land, dk, dv, u, v);
    mask = fenwick_next_mask(mask, land);
    ASSERT_EQ(mask, t);
    // Level l holds exactly 2^l leaves when active, zeros when not.
    for (std::uint32_t l = 0; l < kL; ++l)
      EXPECT_EQ(levels[l * dk * dv], ((t >> l) & 1u) ? static_cast<double>(1u << l) : 0.0);
  }
  // All levels active: the next carry folds everything into the top level.
  const auto land = fenwick_landing_level(mask, kL);
  EXPECT_EQ(land, kL - 1);
  fenwick_push(levels.data(), land, dk, dv, u, v);
  mask = fenwick_next_mask(mask, land);
  EXPECT_EQ(mask, 1u << (kL - 1));
  EXPECT_EQ(levels[(kL - 1) * dk * dv], 32.0);  // total mass preserved
  for (std::uint32_t l = 0; l + 1 < kL; ++l) EXPECT_EQ(levels[l * dk * dv], 0.0);
}

}  // namespace
}  // namespace irithyll::nn

namespace irithyll::nn {
namespace {

// RWKV-7's two removal orders: named, checkpointed (bit 7 of the kind byte)
// and different; tests/reference/attention_ref.py checks both recurrences.
TEST(MultiHeadAttention, Rwkv7UpstreamOrderIsAModeOfItsOwn) {
  auto up = parse_attention_mode("rwkv7:upstream");
  ASSERT_TRUE(up.is_ok());
  EXPECT_TRUE(up->rwkv7_upstream_order);
  EXPECT_EQ(attention_mode_name(*up), "rwkv7:upstream");
  EXPECT_FALSE(parse_attention_mode("rwkv7:sideways").is_ok());
  EXPECT_FALSE(parse_attention_mode("rwkv7").value().rwkv7_upstream_order);
  AttentionMode bad;
  bad.kind = AttentionKind::kGLA;
  bad.rwkv7_upstream_order = true;
  EXPECT_FALSE(bad.validate().is_ok());
  AttentionConfig c;
  c.d_model = 8;
  c.n_heads = 2;
  c.d_key = 4;
  c.d_value = 3;
  c.init_scale = 0.5;
  c.mode = *up;
  MultiHeadAttention a(c);
  c.mode.rwkv7_upstream_order = false;
  MultiHeadAttention b(c);
  Xorshift64 rng(5);
  std::vector<double> x(8), oa(8), ob(8);
  double diff = 0.0;
  for (int t = 0; t < 50; ++t) {
    for (double& e : x) e = rng.normal();
    a.forward(x, oa);
    b.forward(x, ob);
    for (int i = 0; i < 8; ++i) diff = std::max(diff, std::fabs(oa[i] - ob[i]));
  }
  EXPECT_GT(diff, 1e-6);
  ByteWriter w;
  a.encode(w);
  MultiHeadAttention d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r, a.config()).is_ok());
  EXPECT_TRUE(d.config().mode.rwkv7_upstream_order);
  // Default modes keep their bytes: the kind byte's bit 7 stays clear.
  ByteWriter wb;
  b.encode(wb);
  MultiHeadAttention db;
  ByteReader rb(wb.data());
  ASSERT_TRUE(db.decode(rb, b.config()).is_ok());
  EXPECT_FALSE(db.config().mode.rwkv7_upstream_order);
}

}  // namespace
}  // namespace irithyll::nn
