// Exporters: BFS re-indexing, learning-rate baking, refusals, int16 scales,
// and the round-trip guarantees against the trained model's f64 prediction.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "packed_test_util.hpp"

namespace irithyll::packed {
namespace {

// Nodes stored out of order: root at 2; 2 splits to (0, 3); 3 splits to (4, 1).
ExportModel hand_model() {
  ExportModel m;
  m.base_prediction = 0.5;
  m.learning_rate = 0.1;
  m.n_features = 3;
  ExportTree t;
  t.nodes.resize(5);
  t.nodes[0] = ExportNode{true, 0, 0.0, 0, 0, 10.0};
  t.nodes[1] = ExportNode{true, 0, 0.0, 0, 0, -20.0};
  t.nodes[2] = ExportNode{false, 2, 1.5, 0, 3, 0.0};
  t.nodes[3] = ExportNode{false, 1, -4.0, 4, 1, 0.0};
  t.nodes[4] = ExportNode{true, 0, 0.0, 0, 0, 30.0};
  t.root = 2;
  m.trees.push_back(t);
  return m;
}

TEST(PackedExport, BfsOrderRootZeroAndLearningRateBaked) {
  auto bytes = export_f32(hand_model());
  ASSERT_TRUE(bytes.is_ok());
  auto m = PackedModel::from_bytes(std::move(bytes.value()));
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  const F32View& v = m->f32_view();
  ASSERT_EQ(v.tree_nodes(0), 5u);
  // BFS: 0 = old 2, 1 = old 0, 2 = old 3, 3 = old 4, 4 = old 1.
  EXPECT_EQ(load_u16(v.node(0, 0) + 8), 2);
  EXPECT_EQ(load_u32(v.node(0, 0) + 4), 1u | (2u << 16));
  EXPECT_EQ(load_f32(v.node(0, 0)), 1.5f);
  EXPECT_EQ(load_u16(v.node(0, 1) + 8), kLeafFlag);
  EXPECT_EQ(load_f32(v.node(0, 1)), static_cast<float>(0.1 * 10.0));
  EXPECT_EQ(load_u32(v.node(0, 2) + 4), 3u | (4u << 16));
  EXPECT_EQ(load_f32(v.node(0, 3)), static_cast<float>(0.1 * 30.0));
  EXPECT_EQ(load_f32(v.node(0, 4)), static_cast<float>(0.1 * -20.0));
  const float x[3] = {0.0f, 0.0f, 2.0f};  // right at root, x1 = 0 > -4: right -> leaf -20
  EXPECT_FLOAT_EQ(m->predict(x), 0.5f - 2.0f);
}

TEST(PackedExport, RefusesWhatTheFormatsCannotHold) {
  ExportModel m = hand_model();
  m.trees[0].nodes[3].left = 2;  // back to the root: a cycle
  EXPECT_FALSE(export_f32(m).is_ok());
  m = hand_model();
  m.trees[0].nodes[3].left = 0;  // node 0 reachable twice
  EXPECT_FALSE(export_i16(m).is_ok());
  m = hand_model();
  m.trees[0].nodes[2].feature = 3;  // >= n_features
  EXPECT_FALSE(export_f32(m).is_ok());
  m = hand_model();
  m.trees[0].nodes[3].right = 99;
  EXPECT_FALSE(export_f32(m).is_ok());
  m = hand_model();
  m.trees[0].root = 5;
  EXPECT_FALSE(export_f32(m).is_ok());
  m = hand_model();
  m.n_features = 32768;
  EXPECT_FALSE(export_f32(m).is_ok());
  m = hand_model();
  m.trees[0].nodes[2].threshold = NAN;
  EXPECT_FALSE(export_f32(m).is_ok());
  // A chain of 32768 splits has 65537 nodes: one more than a tree may hold.
  ExportModel big;
  big.n_features = 1;
  ExportTree t;
  for (std::uint32_t i = 0; i < 32768; ++i) {
    const auto idx = static_cast<std::uint32_t>(t.nodes.size());
    t.nodes.push_back(ExportNode{false, 0, static_cast<double>(i), idx + 1, idx + 2, 0.0});
    t.nodes.push_back(ExportNode{true, 0, 0.0, 0, 0, 1.0});
    std::swap(t.nodes.back(), t.nodes.back());
  }
  // Fix the chain: node 2k splits to (2k+1 leaf, 2k+2 next split).
  for (std::uint32_t k = 0; k < 32768; ++k) {
    t.nodes[2 * k] = ExportNode{false, 0, static_cast<double>(k), 2 * k + 1, 2 * k + 2, 0.0};
    t.nodes[2 * k + 1] = ExportNode{true, 0, 0.0, 0, 0, 1.0};
  }
  t.nodes.push_back(ExportNode{true, 0, 0.0, 0, 0, 1.0});  // 65537 nodes
  big.trees.push_back(t);
  auto r = export_f32(big);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("65535"), std::string::npos);
  big.trees[0].nodes.resize(65535 - 2);  // drop the last split's children
  big.trees[0].nodes[65532] = ExportNode{true, 0, 0.0, 0, 0, 1.0};
  // 32766 splits + 32767 leaves = 65533 nodes: fine.
  EXPECT_TRUE(export_f32(big).is_ok());
}

TEST(PackedExport, ThresholdRoundingKeepsF64Routing) {
  Xorshift64 rng(17);
  std::size_t nearest_would_differ = 0;
  for (int i = 0; i < 200000; ++i) {
    const double t = rng.normal() * std::pow(10.0, static_cast<double>(rng.below(9)) - 4.0);
    const float lo = threshold_to_f32(t);
    ASSERT_LE(static_cast<double>(lo), t);
    // The f32 values around t: the ones that can disagree.
    const float near = static_cast<float>(t);
    for (float x : {near, std::nextafter(near, INFINITY), std::nextafter(near, -INFINITY), lo}) {
      ASSERT_EQ(x > lo, static_cast<double>(x) > t) << t;
      nearest_would_differ += (x > near) != (static_cast<double>(x) > t);
    }
  }
  EXPECT_GT(nearest_would_differ, 0u);  // round-to-nearest (the Rust library) does misroute
  EXPECT_EQ(threshold_to_f32(1e39), std::numeric_limits<float>::max());
  EXPECT_EQ(threshold_to_f32(-1e39), -INFINITY);
}

TEST(PackedExport, I16ScalesFollowTheOriginalScheme) {
  ExportModel m = hand_model();
  m.n_features = 4;  // feature 0 and 3 unused -> 1.0
  EXPECT_EQ(i16_feature_scale(m, 0), 1.0f);
  EXPECT_EQ(i16_feature_scale(m, 3), 1.0f);
  EXPECT_EQ(i16_feature_scale(m, 1), static_cast<float>(32767.0 / 4.0));
  EXPECT_EQ(i16_feature_scale(m, 2), static_cast<float>(32767.0 / 1.5));
  EXPECT_EQ(i16_leaf_scale(m), static_cast<float>(32767.0 / 3.0));  // max |0.1 * leaf| = 3
  auto bytes = export_i16(m);
  ASSERT_TRUE(bytes.is_ok());
  auto pm = PackedModel::from_bytes(std::move(bytes.value()));
  ASSERT_TRUE(pm.is_ok()) << pm.status().to_string();
  const I16View& v = pm->i16_view();
  EXPECT_EQ(v.leaf_scale(), i16_leaf_scale(m));
  EXPECT_EQ(load_i16(v.node(0, 0)), 32766);   // 1.5 * 32767/1.5, capped at 32766
  EXPECT_EQ(load_i16(v.node(0, 2)), -32767);  // -4 * 32767/4
  EXPECT_GE(load_i16(v.node(0, 3)), 32766);   // leaf 3 * scale, truncated
  // Above the largest threshold a feature saturates to 32767 and must still go right.
  const float above[4] = {0.0f, 0.0f, 100.0f, 0.0f};
  EXPECT_EQ(pm->predict(above), pm->predict_ref(above));
  EXPECT_NEAR(pm->predict(above), 0.5f - 2.0f, 1e-3f);  // right (saturated), x1 = 0 > -4: right, leaf 0.1 * -20

  ExportModel zero = hand_model();
  for (auto& nd : zero.trees[0].nodes) nd.leaf_value = 0.0;
  EXPECT_EQ(i16_leaf_scale(zero), 1.0f);
}

// Round trip over many random ensembles: the f32 file equals the f64 model to
// f32 rounding; the int16 file is within n_trees / leaf_scale (plus rounding)
// of the f32 file for every sample whose path is not changed by quantising a
// threshold, and such changes are rare.
TEST(PackedExport, RoundTripErrorBudgetsOverSeeds) {
  std::size_t samples = 0, rerouted = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Xorshift64 rng(seed * 7919);
    const std::uint32_t nf = 1 + static_cast<std::uint32_t>(rng.below(10));
    const ExportModel em = testing::random_model(rng, 1 + static_cast<std::uint32_t>(rng.below(60)), nf, 6);
    auto f32 = PackedModel::from_bytes(export_f32(em).value());
    auto i16 = PackedModel::from_bytes(export_i16(em).value());
    ASSERT_TRUE(f32.is_ok() && i16.is_ok());
    const double leaf_bound = static_cast<double>(em.trees.size()) / i16_leaf_scale(em);
    double max_leaf_sum = 0;
    for (const auto& t : em.trees) {
      double mx = 0;
      for (const auto& nd : t.nodes) if (nd.is_leaf) mx = std::fmax(mx, std::fabs(em.learning_rate * nd.leaf_value));
      max_leaf_sum += mx;
    }
    // f32 accumulation: each of n_trees additions rounds by <= half an ulp of the running sum.
    const double f32_bound = (em.trees.size() + 2) * 0.6e-7 * (std::fabs(em.base_prediction) + max_leaf_sum) + 1e-6;
    for (int s = 0; s < 300; ++s) {
      std::vector<float> x(nf);
      for (auto& v : x) v = static_cast<float>((rng.uniform() * 2.4 - 1.2) * 10.0);
      const double want = testing::predict_f64(em, x);
      const float pf = f32->predict(x);
      ASSERT_LE(std::fabs(pf - want), f32_bound) << "seed " << seed;
      const float pi = i16->predict(x);
      ++samples;
      if (std::fabs(pi - pf) > leaf_bound + f32_bound) ++rerouted;
    }
  }
  // Thresholds are grid values, features continuous: a path changes only when
  // a feature lies within 1/scale (< 1e-3 here) of a threshold.
  EXPECT_LT(static_cast<double>(rerouted) / samples, 0.01) << rerouted << " of " << samples;
}

}  // namespace
}  // namespace irithyll::packed
