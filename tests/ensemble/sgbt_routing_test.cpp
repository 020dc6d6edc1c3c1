// SGBT's routing options and diagnostics: soft routing with automatic
// bandwidths (smooth in x from the first split on), the graduated handoff of
// a replaced tree (a linear blend over handoff-window samples), checkpoints
// that carry both bit-identically, packed export (refused for soft routing,
// exact for a handoff in progress), and diagnostics().
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt.hpp"
#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "ensemble/tree_slot.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

SGBTConfig config(std::initializer_list<std::pair<const char*, const char*>> settings) {
  SGBTConfig c;
  for (const auto& [k, v] : settings) EXPECT_TRUE(set_sgbt_config_field(c, k, v).is_ok()) << k << " = " << v;
  EXPECT_TRUE(c.validate().is_ok());
  return c;
}

// Friedman #1 (Friedman 1991): 10 features on U(0,1), 5 of them informative.
double friedman(const double* x, Xorshift64& rng) {
  return 10.0 * std::sin(3.14159265358979 * x[0] * x[1]) + 20.0 * (x[2] - 0.5) * (x[2] - 0.5) + 10.0 * x[3] +
         5.0 * x[4] + rng.normal();
}

void train_friedman(SGBT& m, int n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  double x[10];
  for (int i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    m.train_one(x, friedman(x, rng));
  }
}

// Largest |change| of the prediction between adjacent points of a 2001-point
// sweep of feature `f` over [0, 1], the other features held at 0.5.
double max_jump(const SGBT& m, std::size_t f, std::size_t d) {
  std::vector<double> x(d, 0.5);
  double prev = 0.0, worst = 0.0;
  for (int i = 0; i <= 2000; ++i) {
    x[f] = i / 2000.0;
    const double p = m.predict_raw(x);
    EXPECT_TRUE(std::isfinite(p));
    if (i > 0) worst = std::max(worst, std::abs(p - prev));
    prev = p;
  }
  return worst;
}

double r2(const SGBT& m, std::uint64_t seed) {
  Xorshift64 rng(seed);
  double x[10], ss_res = 0.0, ss_tot = 0.0, sum = 0.0;
  std::vector<double> ys;
  std::vector<double> ps;
  for (int i = 0; i < 5000; ++i) {
    for (double& v : x) v = rng.uniform();
    ys.push_back(friedman(x, rng));
    ps.push_back(m.predict_raw(x));
    sum += ys.back();
  }
  const double mean = sum / static_cast<double>(ys.size());
  for (std::size_t i = 0; i < ys.size(); ++i) {
    ss_res += (ys[i] - ps[i]) * (ys[i] - ps[i]);
    ss_tot += (ys[i] - mean) * (ys[i] - mean);
  }
  return 1.0 - ss_res / ss_tot;
}

TEST(SGBTSoftRouting, SweepIsContinuousOnlyWithSoftRouting) {
  // Training routes hard either way, so both models hold the same trees and
  // differ only in how they predict.
  SGBT hard(config({{"drift", "none"}}), Loss(LossKind::kSquared));
  SGBT soft(config({{"drift", "none"}, {"soft-routing", "on"}}), Loss(LossKind::kSquared));
  train_friedman(hard, 20000, 3);
  train_friedman(soft, 20000, 3);
  for (std::size_t f : {0u, 3u}) {
    const double jh = max_jump(hard, f, 10), js = max_jump(soft, f, 10);
    std::printf("feature %zu: max jump between grid points hard %.4g, soft %.4g\n", f, jh, js);
    EXPECT_GT(jh, 0.05);       // hard routing steps at the thresholds
    EXPECT_LT(js, 0.1 * jh);   // soft routing does not
    EXPECT_LT(js, 0.02);
  }
}

TEST(SGBTSoftRouting, LinearKernelSweepIsContinuousAndHardAwayFromThresholds) {
  // soft-kernel linear (sibling interpolation): no steps at the thresholds,
  // like the sigmoid, and the hard model's output wherever x is farther
  // than the bandwidth from every threshold (checked through the sweep's
  // grid points: most of them match hard routing exactly).
  SGBT hard(config({{"drift", "none"}}), Loss(LossKind::kSquared));
  SGBT lin(config({{"drift", "none"}, {"soft-routing", "on"}, {"soft-kernel", "linear"}, {"soft-bandwidth", "0.002"}}),
           Loss(LossKind::kSquared));
  train_friedman(hard, 20000, 3);
  train_friedman(lin, 20000, 3);
  const double jh = max_jump(hard, 3, 10), jl = max_jump(lin, 3, 10);
  std::printf("feature 3: max jump between grid points hard %.4g, linear kernel %.4g\n", jh, jl);
  EXPECT_GT(jh, 0.05);
  EXPECT_LT(jl, 0.5 * jh);
  Xorshift64 rng(17);
  int same = 0;
  double x[10];
  for (int i = 0; i < 500; ++i) {
    for (double& v : x) v = rng.uniform();
    same += lin.predict_raw(x) == hard.predict_raw(x);
  }
  EXPECT_GT(same, 100) << "a narrow margin leaves most points on their hard path";
  EXPECT_LT(same, 500) << "and blends the rest";
}

TEST(SGBTSoftRouting, FriedmanAccuracyMatchesHardRouting) {
  SGBT hard(config({}), Loss(LossKind::kSquared));
  SGBT soft(config({{"soft-routing", "on"}}), Loss(LossKind::kSquared));
  train_friedman(hard, 30000, 11);
  train_friedman(soft, 30000, 11);
  const double rh = r2(hard, 99), rs = r2(soft, 99);
  std::printf("friedman r2 (30k samples, defaults): hard %.4f, soft %.4f\n", rh, rs);
  EXPECT_GT(rh, 0.7);
  EXPECT_GT(rs, rh - 0.02);
}

TEST(SGBTSoftRouting, FreshModelHasFiniteBandwidthsFromTheFirstSplit) {
  // The Rust library's bandwidths stay infinite (hard routing) until the first
  // tree replacement; with drift off there is none. Here every feature gets
  // a finite bandwidth from its second sample on, so the first splits are
  // already soft. `hard` learns the same trees and shows the steps.
  const SGBTConfig soft_config = config({{"drift", "none"}, {"soft-routing", "on"}, {"n-steps", "10"}});
  SGBTConfig hard_config = soft_config;
  hard_config.soft_routing = false;
  SGBT m(soft_config, Loss(LossKind::kSquared)), hard(hard_config, Loss(LossKind::kSquared));
  Xorshift64 rng(8);
  double x[10];
  int checks = 0;
  for (int i = 0; i < 400; ++i) {
    for (double& v : x) v = rng.uniform();
    const double y = friedman(x, rng);
    m.train_one(x, y);
    hard.train_one(x, y);
    if (i >= 1) {
      ASSERT_EQ(m.soft_bandwidths().size(), 10u);
      for (double b : m.soft_bandwidths()) {
        EXPECT_TRUE(std::isfinite(b));
        EXPECT_GT(b, 0.0);
      }
    }
    // From the first split on (after the 50-sample warm-up and one grace
    // period), every 50 samples: no step along any axis.
    if (i % 50 == 49 && m.n_leaves() > m.n_steps()) {
      ++checks;
      for (std::size_t f = 0; f < 10; ++f) {
        const double jh = max_jump(hard, f, 10), js = max_jump(m, f, 10);
        if (jh > 0.0) {
          EXPECT_LT(js, 0.05 * jh) << "feature " << f << " at sample " << i;
        }
      }
    }
  }
  EXPECT_GE(checks, 5);
}

TEST(SGBTSoftRouting, FixedBandwidthAndDiagnostics) {
  SGBT m(config({{"drift", "none"}, {"soft-routing", "on"}, {"soft-bandwidth", "0.05"}}), Loss(LossKind::kSquared));
  train_friedman(m, 3000, 4);
  ASSERT_EQ(m.soft_bandwidths().size(), 10u);
  for (double b : m.soft_bandwidths()) EXPECT_EQ(b, 0.05);
  EXPECT_EQ(m.diagnostics().soft_bandwidths.size(), 10u);
  EXPECT_LT(max_jump(m, 0, 10), 0.05);
  // A bandwidth without soft routing is refused, naming the field.
  SGBTConfig bad;
  ASSERT_TRUE(set_sgbt_config_field(bad, "soft-bandwidth", "0.05").is_ok());
  const Status s = bad.validate();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("soft-bandwidth"), std::string::npos);
}

// A regression stream whose concept flips every `period` samples, so the
// drift detectors warn (an alternate starts) and then fire.
void train_flipping(SGBT& m, int from, int to, int period, const std::function<void(SGBT&, const double*)>& each = {}) {
  Xorshift64 rng(21);
  double x[3];
  for (int i = 0; i < to; ++i) {
    for (double& v : x) v = rng.uniform();
    const double sign = (i / period) % 2 == 0 ? 1.0 : -1.0;
    const double y = sign * (4.0 * x[0] - 3.0 * x[1]) + 0.1 * rng.normal();
    if (i < from) continue;
    m.train_one(x, y);
    if (each) each(m, x);
  }
}

TEST(SGBTHandoff, BlendRampsLinearlyOverTheWindow) {
  constexpr std::uint32_t kWindow = 40;
  SGBT m(config({{"handoff-window", "40"}, {"n-steps", "20"}}), Loss(LossKind::kSquared));
  std::vector<std::uint32_t> last_left(m.n_steps(), 0);
  std::size_t ramps_checked = 0, handoffs_started = 0;
  double max_blend_effect = 0.0;
  train_flipping(m, 0, 12000, 3000, [&](SGBT& s, const double* x) {
    std::span<const double> xs(x, 3);
    double expected = 0.0, active_only = 0.0;
    for (std::size_t k = 0; k < s.n_steps(); ++k) {
      const TreeSlot& slot = s.slot(k);
      const std::uint32_t left = slot.handoff_left();
      if (left == kWindow) {
        ++handoffs_started;
      } else if (left > 0) {
        EXPECT_EQ(left + 1, last_left[k]) << "slot " << k;  // one step per sample
        ++ramps_checked;
      }
      last_left[k] = left;
      const double a_pred = slot.active().predict(xs);
      active_only += a_pred;
      if (const GradientTree* r = slot.retiring()) {
        EXPECT_DOUBLE_EQ(slot.retiring_weight(), static_cast<double>(left) / kWindow);
        expected += slot.retiring_weight() * r->predict(xs) + (1.0 - slot.retiring_weight()) * a_pred;
      } else {
        expected += a_pred;
      }
    }
    const double lr = s.config().learning_rate;
    EXPECT_NEAR(s.predict_raw(xs), s.base_prediction() + lr * expected, 1e-9);
    max_blend_effect = std::max(max_blend_effect, std::abs(s.predict_raw(xs) - (s.base_prediction() + lr * active_only)));
  });
  std::printf("handoffs started %zu, ramp steps checked %zu, largest blend effect %.4g\n", handoffs_started,
              ramps_checked, max_blend_effect);
  EXPECT_GT(handoffs_started, 0u);
  EXPECT_GT(ramps_checked, 10u * kWindow);
  EXPECT_GT(max_blend_effect, 1e-3);  // the retired trees really contribute
  EXPECT_GT(m.diagnostics().replacements, 0u);
}

TEST(SGBTHandoff, WindowZeroIsTheAbruptSwap) {
  // handoff-window 0 (the default) keeps the plain path: the golden hashes
  // of sgbt_golden_test pin its predictions to the code before the handoff
  // existed. Here: the explicit 0 equals the default bit for bit, and a
  // window changes predictions once a handoff runs.
  SGBT plain(config({{"n-steps", "20"}}), Loss(LossKind::kSquared));
  SGBT zero(config({{"n-steps", "20"}, {"handoff-window", "0"}}), Loss(LossKind::kSquared));
  SGBT graded(config({{"n-steps", "20"}, {"handoff-window", "200"}}), Loss(LossKind::kSquared));
  train_flipping(plain, 0, 9000, 3000);
  train_flipping(zero, 0, 9000, 3000);
  train_flipping(graded, 0, 9000, 3000);
  ByteWriter a, b;
  plain.encode_state(a);
  zero.encode_state(b);
  EXPECT_EQ(a.data(), b.data());
  ASSERT_GT(plain.diagnostics().replacements, 0u);
  double differ = 0.0;
  Xorshift64 rng(5);
  for (int i = 0; i < 200; ++i) {
    const double x[3] = {rng.uniform(), rng.uniform(), rng.uniform()};
    EXPECT_EQ(std::bit_cast<std::uint64_t>(plain.predict_raw(x)), std::bit_cast<std::uint64_t>(zero.predict_raw(x)));
    differ = std::max(differ, std::abs(plain.predict_raw(x) - graded.predict_raw(x)));
  }
  EXPECT_GT(differ, 1e-6);
}

// Checkpoint halfway, decode, continue both: every prediction bit-identical
// and the final encodings equal.
void expect_resume_identical(const SGBTConfig& c) {
  SGBT a(c, Loss(LossKind::kSquared));
  train_flipping(a, 0, 4500, 3000);
  ByteWriter w;
  a.encode_state(w);
  SGBT b(c, Loss(LossKind::kSquared));
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode_state(r).is_ok());
  ASSERT_EQ(r.remaining(), 0u);
  std::vector<double> pa, pb;
  train_flipping(a, 4500, 9000, 3000, [&](SGBT& s, const double* x) { pa.push_back(s.predict_raw(std::span<const double>(x, 3))); });
  train_flipping(b, 4500, 9000, 3000, [&](SGBT& s, const double* x) { pb.push_back(s.predict_raw(std::span<const double>(x, 3))); });
  ASSERT_EQ(pa.size(), pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(pa[i]), std::bit_cast<std::uint64_t>(pb[i])) << "sample " << i;
  ByteWriter wa, wb;
  a.encode_state(wa);
  b.encode_state(wb);
  EXPECT_EQ(wa.data(), wb.data());
}

TEST(SGBTRoutingCheckpoint, ResumeIsBitIdentical) {
  expect_resume_identical(config({{"n-steps", "15"}, {"soft-routing", "on"}}));
  expect_resume_identical(config({{"n-steps", "15"}, {"soft-routing", "on"}, {"soft-bandwidth", "0.1"}}));
  expect_resume_identical(config({{"n-steps", "15"}, {"handoff-window", "300"}}));
  expect_resume_identical(config({{"n-steps", "15"}, {"handoff-window", "50"}, {"soft-routing", "on"}}));
  expect_resume_identical(config({{"n-steps", "15"}, {"soft-routing", "on"}, {"soft-kernel", "linear"}}));
}

TEST(SGBTRoutingCheckpoint, SoftKernelNeedsSoftRoutingAndRoundTripsByName) {
  SGBTConfig c;
  ASSERT_TRUE(set_sgbt_config_field(c, "soft-kernel", "linear").is_ok());
  const Status refused = c.validate();
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("soft-kernel linear needs --soft-routing on"), std::string::npos) << refused.message();
  ASSERT_TRUE(set_sgbt_config_field(c, "soft-routing", "on").is_ok());
  EXPECT_TRUE(c.validate().is_ok());
  EXPECT_FALSE(set_sgbt_config_field(c, "soft-kernel", "cubic").is_ok());
  EXPECT_EQ(c.soft_kernel, SoftKernel::kLinear);
}

TEST(SGBTRoutingCheckpoint, ConfigRoundTripsAndOldOptionBlocksStay) {
  const SGBTConfig c = config({{"soft-routing", "on"}, {"soft-bandwidth", "0.25"}, {"handoff-window", "77"}});
  ByteWriter w;
  testing::encode_legacy(c, w);
  SGBTConfig d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_TRUE(d.soft_routing);
  EXPECT_EQ(d.soft_bandwidth, 0.25);
  EXPECT_EQ(d.handoff_window, 77u);
  // An options block without routing options is still written as version 1.
  const SGBTConfig old = config({{"max-leaf-output", "2"}});
  ByteWriter wo;
  testing::encode_legacy(old, wo);
  SGBTConfig e;
  ByteReader ro(wo.data());
  ASSERT_TRUE(e.decode(ro).is_ok());
  EXPECT_FALSE(e.soft_routing);
  EXPECT_EQ(e.handoff_window, 0u);
  SGBTConfig plain = old;
  plain.handoff_window = 1;
  ByteWriter wp;
  testing::encode_legacy(plain, wp);
  // The version-2 tail: routing (u8 f64 u32), leaf options (u8 f64 u32 f64),
  // categorical list (u64 count, here empty).
  EXPECT_EQ(wp.data().size(), wo.data().size() + (1 + 8 + 4) + (1 + 8 + 4 + 8) + 8);
}

TEST(SGBTRoutingExport, SoftRoutingIsRefusedByName) {
  SGBT m(config({{"soft-routing", "on"}, {"n-steps", "5"}}), Loss(LossKind::kSquared));
  train_friedman(m, 500, 1);
  for (const auto& bytes : {packed::export_f32(m.export_model()), packed::export_i16(m.export_model())}) {
    ASSERT_FALSE(bytes.is_ok());
    EXPECT_NE(bytes.status().message().find("soft-routing"), std::string::npos) << bytes.status().message();
  }
}

TEST(SGBTRoutingExport, HandoffInProgressExportsTheBlend) {
  SGBT m(config({{"handoff-window", "1000000"}, {"n-steps", "20"}}), Loss(LossKind::kSquared));
  train_flipping(m, 0, 7000, 3000);
  const SGBTDiagnostics d = m.diagnostics();
  ASSERT_GT(d.handoffs, 0u);  // the window is long: handoffs are still running
  const ExportModel em = m.export_model();
  EXPECT_EQ(em.trees.size(), m.n_steps() + d.handoffs);
  auto packed_model = packed::PackedModel::from_bytes(packed::export_f32(em).value());
  ASSERT_TRUE(packed_model.is_ok());
  Xorshift64 rng(6);
  for (int i = 0; i < 200; ++i) {
    const double x[3] = {rng.uniform(), rng.uniform(), rng.uniform()};
    const float xf[3] = {static_cast<float>(x[0]), static_cast<float>(x[1]), static_cast<float>(x[2])};
    EXPECT_NEAR(packed_model->predict(xf), m.predict_raw(x), 1e-3 * (1.0 + std::abs(m.predict_raw(x))));
  }
}

TEST(SGBTDiagnostics, SummariseTheCommittee) {
  SGBT m(config({{"n-steps", "20"}, {"handoff-window", "100"}}), Loss(LossKind::kSquared));
  EXPECT_EQ(m.diagnostics().n_leaves, 20u);  // fresh: one leaf per tree
  train_flipping(m, 0, 9000, 3000);
  const SGBTDiagnostics d = m.diagnostics();
  ASSERT_EQ(d.trees.size(), 20u);
  EXPECT_EQ(d.n_samples, m.n_samples_seen());
  EXPECT_EQ(d.n_leaves, m.n_leaves());
  EXPECT_EQ(d.n_trees, m.n_trees());
  EXPECT_EQ(d.replacements, m.n_replacements());
  EXPECT_GT(d.replacements, 0u);
  EXPECT_LE(d.max_depth, m.config().tree.max_depth);
  EXPECT_GT(d.mean_depth, 0.0);
  EXPECT_EQ(d.base_prediction, m.base_prediction());
  std::uint64_t warnings = 0;
  double abs_sum = 0.0;
  for (std::size_t k = 0; k < d.trees.size(); ++k) {
    const SGBTTreeDiagnostics& t = d.trees[k];
    EXPECT_EQ(t.depth, m.slot(k).active().depth());
    EXPECT_EQ(t.n_samples, m.slot(k).active().n_samples_seen());
    EXPECT_EQ(t.has_alternate, m.slot(k).alternate() != nullptr);
    EXPECT_EQ(t.handoff_left, m.slot(k).handoff_left());
    EXPECT_LE(t.leaf_min, t.leaf_max);
    EXPECT_GE(t.contribution_abs, std::abs(t.contribution_mean) - 1e-12);
    EXPECT_GE(t.contribution_sd, 0.0);
    warnings += t.warnings;
    abs_sum += t.contribution_abs;
  }
  EXPECT_EQ(d.warnings, warnings);
  EXPECT_NEAR(d.mean_abs_contribution, abs_sum / 20.0, 1e-12);
  EXPECT_GT(d.mean_abs_contribution, 0.0);
}

}  // namespace
}  // namespace irithyll
