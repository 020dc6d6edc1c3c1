// The drift monitor's scaling (sgbt.hpp): a squared-loss |gradient| is
// divided by the target's running spread, so the per-tree detectors make the
// same decisions whatever the target's units, stay quiet on a stationary
// stream, and still fire on a real change. Bounded-gradient losses are
// monitored raw, and records without the target statistics (learner state
// version 1) resume on the raw monitor they were written with.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "core/file_io.hpp"
#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Friedman #1 (Friedman 1991): 10 uniform features, 5 of them relevant,
// target spread ~5; `flip` negates the signal part after sample `change`.
struct Friedman {
  Xorshift64 rng;
  double scale;
  std::size_t change;
  std::size_t t = 0;
  std::vector<double> x = std::vector<double>(10);
  double next() {
    for (double& e : x) e = rng.uniform();
    double y = 10.0 * std::sin(kPi * x[0] * x[1]) + 20.0 * (x[2] - 0.5) * (x[2] - 0.5) + 10.0 * x[3] + 5.0 * x[4];
    if (t++ >= change) y = 30.0 - y;
    return scale * (y + rng.normal());
  }
};

struct Outcome {
  // Replacements in the 2,000 samples before the change and the 2,000 after.
  std::uint64_t window_before = 0, window_after = 0, replacements = 0;
  double mse_tail = 0.0;  // prequential MSE over the last 5,000 samples, in units of scale^2
};

Outcome train(double scale, std::size_t n, std::size_t change, std::uint64_t seed) {
  SGBTConfig c;  // defaults: Page-Hinkley per tree (delta 0.005, lambda 50)
  c.seed = seed;
  SGBT m(c, Loss(LossKind::kSquared));
  Friedman f{Xorshift64(seed), scale, change};
  Outcome r;
  double sse = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = f.next();
    const double p = m.predict(f.x);
    if (i + 5000 >= n) sse += (p - y) * (p - y) / (scale * scale);
    m.train_one(f.x, y);
    if (i + 2000 == change) r.window_before = m.n_replacements();
    if (i + 1 == change) r.window_before = m.n_replacements() - r.window_before;
    if (i + 1 == change + 2000) r.window_after = m.n_replacements() - r.replacements;
    if (i + 1 == change) r.replacements = m.n_replacements();
  }
  r.replacements = m.n_replacements();
  r.mse_tail = sse / 5000.0;
  return r;
}

// Before the scaling, Page-Hinkley's decisions depended on the target's
// units: at scale 1 (spread ~5) it replaced trees every few hundred samples
// and the model never grew (r2 0.05 with the CLI defaults), at 1000x it fired
// almost every sample, at 0.001x never. Now the counts agree across six
// orders of magnitude, and the model they leave fits the stream.
TEST(SGBTDriftMonitor, DecisionsDoNotDependOnTheTargetsUnits) {
  for (std::uint64_t seed : {1u, 2u}) {
    const Outcome unit = train(1.0, 20000, 20000, seed);
    const Outcome big = train(1000.0, 20000, 20000, seed);
    const Outcome small = train(0.001, 20000, 20000, seed);
    // Measured 320-381 (100 trees; the two-sided test also fires while the
    // error falls during learning). Budget: 500, and within 25% of scale 1.
    for (const Outcome* o : {&unit, &big, &small}) {
      EXPECT_LE(o->replacements, 500u) << seed;
      EXPECT_LE(std::fabs(static_cast<double>(o->replacements) - static_cast<double>(unit.replacements)),
                0.25 * static_cast<double>(unit.replacements))
          << seed;
    }
    // Friedman #1 has noise variance 1 and signal variance ~24: measured tail
    // MSE ~7 (r2 ~0.72); the unscaled monitor left ~24 (r2 ~0.05). Not at
    // 0.001x: there the Hoeffding bound (range 1, as in the Rust library) dwarfs
    // the split gains, which scale with the target squared, so trees barely
    // split whatever the monitor does (a separate, known limit).
    EXPECT_LT(unit.mse_tail, 8.0) << seed;
    EXPECT_LT(big.mse_tail, 8.0) << seed;
  }
}

TEST(SGBTDriftMonitor, RealChangeStillReplacesTrees) {
  for (double scale : {1.0, 1000.0}) {
    const Outcome r = train(scale, 20000, 10000, 4);
    // Measured: ~24 replacements in the 2,000 samples before, ~227 after.
    EXPECT_GE(r.window_after, 4 * r.window_before + 50) << scale;
    EXPECT_LT(r.mse_tail, 10.0) << scale;  // re-learned the flipped target
  }
}

TEST(SGBTDriftMonitor, ScaleIsTheTargetSpreadForResidualLossesOnly) {
  SGBTConfig c;
  c.initial_target_count = 5;
  SGBT sq(c, Loss(LossKind::kSquared)), lg(c, Loss(LossKind::kLogistic)), hu(c, Loss(LossKind::kHuber));
  EXPECT_EQ(sq.drift_monitor_scale(), 1.0);  // nothing seen yet
  const double ys[] = {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};  // population sd 2
  const std::vector<double> x = {0.5};
  for (double y : ys) {
    sq.train_one(x, y);
    lg.train_one(x, y > 4.5 ? 1.0 : 0.0);
    hu.train_one(x, y);
  }
  EXPECT_DOUBLE_EQ(sq.drift_monitor_scale(), 2.0);
  EXPECT_EQ(lg.drift_monitor_scale(), 1.0);
  EXPECT_EQ(hu.drift_monitor_scale(), 1.0);
}

// A learner record of state version 1 (binary config; committees without
// the target statistics), written by the build before settings were saved by
// name: the same 20-step committee (8 bins, depth 3) after the same 3,000 Friedman samples.
// It decodes onto the raw monitor it was trained with, predicts what the
// committee it recorded predicts, and keeps learning; the current record
// round-trips with its statistics and continues bit-identically.
TEST(SGBTDriftMonitor, RecordsWithoutTargetSpreadResumeOnTheRawMonitor) {
  SGBTConfig c;
  c.n_steps = 20;
  c.tree.n_bins = 8;
  c.tree.max_depth = 3;
  SGBT m(c, Loss(LossKind::kSquared));
  Friedman f{Xorshift64(9), 1.0, 1u << 30};
  for (int i = 0; i < 3000; ++i) {
    const double y = f.next();
    m.train_one(f.x, y);
  }
  const auto old_bytes = read_file_bytes(std::string(IRITHYLL_SOURCE_DIR) + "/tests/data/legacy/sgbt_learner_v1.bin");
  ASSERT_TRUE(old_bytes.is_ok()) << old_bytes.status().to_string();
  SGBTLearner a;
  ByteReader ra(*old_bytes);
  ASSERT_TRUE(a.decode(ra).is_ok());
  EXPECT_TRUE(ra.at_end());
  EXPECT_EQ(a.committee(0).drift_monitor_scale(), 1.0);
  EXPECT_EQ(a.n_samples_seen(), 3000u);
  ByteWriter new_form;
  m.encode_state(new_form);
  SGBT b(c, Loss(LossKind::kSquared));
  ByteReader rb(new_form.data());
  ASSERT_TRUE(b.decode_state(rb).is_ok());
  EXPECT_EQ(b.drift_monitor_scale(), m.drift_monitor_scale());
  EXPECT_GT(m.drift_monitor_scale(), 2.0);
  for (int i = 0; i < 2000; ++i) {
    const double y = f.next();
    ASSERT_EQ(b.predict(f.x), m.predict(f.x));
    if (i == 0) {
      EXPECT_EQ(a.committee(0).predict(f.x), m.predict(f.x));
    }
    m.train_one(f.x, y);
    b.train_one(f.x, y);
    a.learn_one(f.x, y);
  }
  EXPECT_EQ(a.n_samples_seen(), 5000u);
  // A version-1 record read as the current state layout is an error, not a
  // silent misread.
  SGBT wrong(c, Loss(LossKind::kSquared));
  ByteReader rw(std::span<const std::uint8_t>(*old_bytes).subspan(4));
  EXPECT_FALSE(wrong.decode_state(rw).is_ok());
}

}  // namespace
}  // namespace irithyll
