// Multiclass export: a K-class SGBT has K committees and the version-1 packed
// formats hold one ensemble each, so the documented design (cmd_export.cpp,
// `irithyll export`) is one packed file per class whose raw output is that
// class's score. Trained here on a synthetic 3-class stream with f32-exact
// features, each class's packed f32 prediction must equal the trained
// model's raw score for that class to f32 rounding on every held-out row
// (and so pick the same class), and the int16 file must stay within its
// documented leaf-quantisation bound on the rows it routes like f32.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll {
namespace {

constexpr int kMulticlassFeatures = 5;
constexpr std::size_t kClasses = 3;

// Class = argmax of three fixed linear scores plus a little label noise.
double make_row(Xorshift64& rng, float* x) {
  for (int f = 0; f < kMulticlassFeatures; ++f) x[f] = static_cast<float>(rng.uniform() * 4.0 - 2.0);
  const double s[kClasses] = {x[0] + 0.5 * x[1], -x[0] + x[2], 0.7 * x[3] - x[1] + 0.3 * x[4]};
  std::size_t best = 0;
  for (std::size_t k = 1; k < kClasses; ++k)
    if (s[k] > s[best]) best = k;
  if (rng.uniform() < 0.05) best = rng.below(kClasses);
  return static_cast<double>(best);
}

TEST(PackedMulticlass, OneFilePerClassReproducesEachClassScore) {
  SGBTConfig config;
  config.n_steps = 20;
  config.learning_rate = 0.1;
  config.tree.grace_period = 100;
  auto made = SGBTLearner::make(config, {.task = Task::kClassification, .n_classes = kClasses, .seed = config.seed});
  ASSERT_TRUE(made.is_ok()) << made.status().to_string();
  SGBTLearner& model = **made;
  Xorshift64 rng(2024);
  float xf[kMulticlassFeatures];
  std::vector<double> x(kMulticlassFeatures);
  for (int i = 0; i < 6000; ++i) {
    const double y = make_row(rng, xf);
    for (int f = 0; f < kMulticlassFeatures; ++f) x[f] = xf[f];
    model.learn_one(x, y);
  }
  ASSERT_EQ(model.n_committees(), kClasses);

  std::vector<packed::PackedModel> f32, i16;
  std::vector<double> leaf_bound;
  std::uint32_t total_nodes = 0;
  for (std::size_t k = 0; k < kClasses; ++k) {
    const ExportModel em = model.export_model(k);
    auto a = packed::PackedModel::from_bytes(packed::export_f32(em).value());
    auto b = packed::PackedModel::from_bytes(packed::export_i16(em).value());
    ASSERT_TRUE(a.is_ok() && b.is_ok());
    total_nodes += a->info().total_nodes - a->info().n_trees;
    f32.push_back(std::move(*a));
    i16.push_back(std::move(*b));
    leaf_bound.push_back(static_cast<double>(em.trees.size()) / packed::i16_leaf_scale(em));
  }
  ASSERT_GT(total_nodes, 0u) << "expected trees with splits";

  constexpr std::size_t kRows = 2000;
  std::vector<float> rows(kRows * kMulticlassFeatures);
  for (std::size_t r = 0; r < kRows; ++r) (void)make_row(rng, rows.data() + r * kMulticlassFeatures);
  std::vector<std::vector<float>> batch(kClasses, std::vector<float>(kRows));
  for (std::size_t k = 0; k < kClasses; ++k) ASSERT_TRUE(f32[k].predict_batch(rows, kMulticlassFeatures, batch[k]).is_ok());

  double raw[kClasses];
  double max_err = 0.0;
  std::size_t argmax_differs = 0, rerouted = 0;
  for (std::size_t r = 0; r < kRows; ++r) {
    const std::span<const float> xr(rows.data() + r * kMulticlassFeatures, kMulticlassFeatures);
    for (int f = 0; f < kMulticlassFeatures; ++f) x[f] = xr[f];
    model.predict_raw(x, raw);
    std::size_t best_raw = 0, best_packed = 0;
    for (std::size_t k = 0; k < kClasses; ++k) {
      const float p = f32[k].predict(xr);
      ASSERT_EQ(p, batch[k][r]) << "single and batch differ, class " << k << " row " << r;
      max_err = std::fmax(max_err, std::fabs(p - raw[k]));
      if (raw[k] > raw[best_raw]) best_raw = k;
      if (p > f32[best_packed].predict(xr)) best_packed = k;
      const double ei = std::fabs(static_cast<double>(i16[k].predict(xr)) - p);
      if (ei > leaf_bound[k] + 1e-4) ++rerouted;
    }
    // Scores closer than f32 rounding may legitimately swap.
    if (best_raw != best_packed && std::fabs(raw[best_raw] - raw[best_packed]) > 1e-5) ++argmax_differs;
  }
  // 20 leaves and the base per class, each within half an ulp of a running
  // sum of magnitude < 4: well under 1e-5.
  EXPECT_LT(max_err, 1e-5);
  EXPECT_EQ(argmax_differs, 0u);
  EXPECT_LT(static_cast<double>(rerouted) / static_cast<double>(kRows * kClasses), 0.02) << rerouted;
}

}  // namespace
}  // namespace irithyll
