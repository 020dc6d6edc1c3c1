// Golden prediction hashes for SGBT: the memory work on trees, histogram pools
// and tree slots (no full-size histograms up front, exact slab growth, retired
// trees giving their storage back) must not change a single prediction bit.
//
// Each case trains prequentially on a fixed stream and folds the bit pattern of
// every pre-training prediction into an FNV-1a hash; the expected constants
// were recorded with the code as it was before those changes. Halfway, the
// model is checkpointed, decoded into a fresh learner, and both continue: the
// decoded copy must predict bit-identically to the original. The streams are
// chosen to exercise every storage path: drift replacements with and without
// an alternate tree (SEA-style concept jumps), max_tree_samples resets, lazy
// leaf decay (materialise), quantile bins, NaN features and a 3-class softmax.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "ensemble/tree_slot.hpp"
#include "support/shared_data.hpp"

namespace irithyll {
namespace {

struct Row {
  std::vector<double> x;
  double y = 0.0;
};

// SEA concepts (Street & Kim 2001): x ~ U(0,10)^3, y = [x0 + x1 <= theta],
// theta cycling 8, 9, 7, 9.5 every `period` samples, 10% of labels flipped.
std::vector<Row> sea_rows(std::size_t n, std::size_t period, std::uint64_t seed) {
  const double theta[4] = {8.0, 9.0, 7.0, 9.5};
  Xorshift64 rng(seed);
  std::vector<Row> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    Row& r = rows[i];
    r.x = {10.0 * rng.uniform(), 10.0 * rng.uniform(), 10.0 * rng.uniform()};
    double y = (r.x[0] + r.x[1] <= theta[(i / period) % 4]) ? 1.0 : 0.0;
    if (rng.uniform() < 0.1) y = 1.0 - y;
    r.y = y;
  }
  return rows;
}

// Regression with an abrupt change and 5% missing values in feature 2.
std::vector<Row> drifting_regression_rows(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<Row> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    Row& r = rows[i];
    r.x = {rng.uniform(), rng.uniform(), rng.uniform(), rng.normal()};
    const double sign = i < n / 2 ? 1.0 : -1.0;
    r.y = sign * (3.0 * r.x[0] - 2.0 * r.x[1] * r.x[1]) + r.x[2] + 0.1 * rng.normal();
    if (rng.uniform() < 0.05) r.x[2] = std::nan("");
  }
  return rows;
}

// Three classes by the sector of (x0, x1) around the centre of the unit square.
std::vector<Row> three_class_rows(std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<Row> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    Row& r = rows[i];
    r.x = {rng.uniform(), rng.uniform(), rng.uniform()};
    const double a = std::atan2(r.x[1] - 0.5, r.x[0] - 0.5) + 3.14159265358979;
    r.y = std::floor(a / (2.0 * 3.14159265358979 / 3.0));
    if (r.y > 2.0) r.y = 2.0;
    if (rng.uniform() < 0.05) r.y = static_cast<double>(rng.below(3));
  }
  return rows;
}

std::vector<Row> elec_rows() {
  std::vector<Row> rows;
  std::ifstream in(testing::shared_path("datasets/elec.csv"));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string cell;
    Row r;
    while (std::getline(ss, cell, ',')) r.x.push_back(std::stod(cell));
    if (r.x.empty()) continue;
    r.y = r.x.back();
    r.x.pop_back();
    rows.push_back(std::move(r));
  }
  return rows;
}

// Model bytes of the default configuration after the 30,000-sample SEA
// stream below: 10,212,488 when recorded (28,109,512 before the memory work).
// The budget leaves 15% for future changes.
constexpr std::size_t kSeaDefaultBudgetBytes = 11'750'000;

struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void add(double v) {
    std::uint64_t b = std::bit_cast<std::uint64_t>(v);
    for (int i = 0; i < 8; ++i, b >>= 8) {
      h ^= b & 0xFF;
      h *= 1099511628211ull;
    }
  }
};

struct GoldenOutcome {
  std::uint64_t hash = 0;
  std::uint64_t replacements = 0;
  std::size_t memory_bytes = 0;
};

std::uint64_t replacements(const SGBTLearner& m) {
  std::uint64_t n = 0;
  for (std::size_t c = 0; c < m.n_committees(); ++c) n += m.committee(c).n_replacements();
  return n;
}

// The pins below predate the measured defaults: every test starts from the
// original library's settings (the "original" preset), so the pinned
// behaviour is the one these hashes were recorded with.
SGBTConfig original() {
  SGBTConfig c;
  const Status st = apply_sgbt_preset(c, "original");
  EXPECT_TRUE(st.is_ok()) << st.to_string();
  return c;
}

// Prequential run: hashes every pre-training prediction (all probabilities for
// classification, the value for regression). At the midpoint the model is
// checkpointed and a decoded copy shadows it; every later prediction of the
// copy must equal the uninterrupted model's bit for bit.
GoldenOutcome run(const SGBTConfig& config, Task task, std::size_t n_classes, const std::vector<Row>& rows) {
  auto made = SGBTLearner::make(config, {.task = task, .n_classes = n_classes, .seed = config.seed});
  EXPECT_TRUE(made.is_ok());
  if (!made.is_ok()) return {};
  SGBTLearner& model = **made;
  SGBTLearner copy;
  bool shadow = false;
  std::size_t mismatches = 0;
  Fnv fnv;
  std::vector<double> p(std::max<std::size_t>(n_classes, 1)), q(p.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (i == rows.size() / 2) {
      ByteWriter w;
      model.encode(w);
      ByteReader rd(w.data());
      const Status st = copy.decode(rd);
      EXPECT_TRUE(st.is_ok()) << st.to_string();
      shadow = st.is_ok();
    }
    if (task == Task::kClassification) {
      model.predict_proba_one(r.x, p);
      for (double v : p) fnv.add(v);
      if (shadow) {
        copy.predict_proba_one(r.x, q);
        mismatches += p != q;
      }
    } else {
      const double v = model.predict_one(r.x);
      fnv.add(v);
      if (shadow) mismatches += std::bit_cast<std::uint64_t>(v) != std::bit_cast<std::uint64_t>(copy.predict_one(r.x));
    }
    model.learn_one(r.x, r.y);
    if (shadow) copy.learn_one(r.x, r.y);
  }
  EXPECT_EQ(mismatches, 0u) << "the checkpointed copy diverged from the original";
  return {fnv.h, replacements(model), model.memory_bytes()};
}

// Re-pinned on purpose: ADWIN, the trees' default drift detector, now drops
// everything older than the strongest split when it detects a change (one
// detection per change instead of one per dropped bucket), so trees are
// replaced at other samples. Prequential accuracy with the defaults is
// unchanged on SEA (0.88393), Agrawal (0.92864) and elec8 (0.91717).
TEST(SGBTGolden, SeaDefaultConfigPredictionsUnchanged) {
  // Concept jumps every 5,000 samples drive Page-Hinkley warnings and drifts,
  // so alternates are started, promoted and retired.
  const GoldenOutcome o = run(original(), Task::kClassification, 2, sea_rows(30000, 5000, 7));
  EXPECT_GT(o.replacements, 0u);
  EXPECT_EQ(o.hash, 16630733276125330421ull);
}

TEST(SGBTGolden, SeaSmallBinsDeepTreesPredictionsUnchanged) {
  SGBTConfig c = original();
  c.n_steps = 30;
  c.tree.n_bins = 32;
  c.tree.grace_period = 50;
  c.tree.max_depth = 8;
  c.learning_rate = 0.1;
  const GoldenOutcome o = run(c, Task::kClassification, 2, sea_rows(30000, 4000, 11));
  EXPECT_GT(o.replacements, 0u);
  EXPECT_EQ(o.hash, 13726981324925580896ull);
}

TEST(SGBTGolden, RegressionDecayResetsQuantileBinsUnchanged) {
  SGBTConfig c = original();
  c.n_steps = 25;
  c.tree.grace_period = 100;
  c.learning_rate = 0.1;
  c.leaf_half_life = 400.0;
  c.max_tree_samples = 3000;
  c.tree.bin_strategy = BinStrategy::kQuantile;
  const GoldenOutcome o = run(c, Task::kRegression, 0, drifting_regression_rows(20000, 3));
  EXPECT_GT(o.replacements, 0u);
  // Re-pinned once, deliberately, when the drift monitor began dividing a
  // squared-loss |gradient| by the target's spread (sgbt.hpp); the memory
  // work before it left this hash unchanged (5821933178837369342).
  EXPECT_EQ(o.hash, 4907902794885560955ull);
}

TEST(SGBTGolden, SoftmaxThreeClassesUnchanged) {
  SGBTConfig c = original();
  c.n_steps = 20;
  c.tree.grace_period = 100;
  c.tree.max_depth = 5;
  c.learning_rate = 0.1;
  c.variant = SGBTVariant::kSkip;
  const GoldenOutcome o = run(c, Task::kClassification, 3, three_class_rows(15000, 5));
  EXPECT_EQ(o.hash, 11675082210413079728ull);
}

TEST(SGBTGolden, ElectricityDefaultConfigPredictionsUnchanged) {
  IRITHYLL_REQUIRE_SHARED("datasets/elec.csv");
  const std::vector<Row> rows = elec_rows();
  ASSERT_EQ(rows.size(), 45312u);
  const GoldenOutcome o = run(original(), Task::kClassification, 2, rows);
  EXPECT_EQ(o.hash, 1977979773011053107ull);
}

// Memory: a slot whose alternate is idle (none started, or the last one was
// promoted) holds no storage for it beyond a never-trained tree's object, and
// the whole model stays within a budget recorded for this stream. Before the
// memory work the same run reported 2.75x the recorded bytes (retired trees
// kept their histograms and nodes as idle alternates; slabs grew by doubling
// and never shrank).
TEST(SGBTMemory, IdleAlternatesHoldNoStorageAndModelFitsBudget) {
  const SGBTConfig config = original();
  auto made = SGBTLearner::make(config, {.task = Task::kClassification, .n_classes = 2, .seed = config.seed});
  ASSERT_TRUE(made.is_ok());
  SGBTLearner& model = **made;
  for (const Row& r : sea_rows(30000, 5000, 7)) model.learn_one(r.x, r.y);
  const SGBT& k = model.committee(0);
  ASSERT_GT(k.n_replacements(), 0u);
  std::size_t idle = 0;
  for (std::size_t s = 0; s < k.n_steps(); ++s) {
    const TreeSlot& slot = k.slot(s);
    if (slot.alternate() != nullptr) continue;
    ++idle;
    const std::size_t detector = slot.detector() != nullptr ? slot.detector()->memory_bytes() : 0;
    const std::size_t parked = slot.memory_bytes() - slot.active().memory_bytes() - detector - sizeof(TreeSlot) + 2 *
                               sizeof(GradientTree);
    EXPECT_EQ(parked, GradientTree(config.tree_config(static_cast<std::uint32_t>(s))).memory_bytes()) << "slot " << s;
  }
  EXPECT_GT(idle, 0u);
  EXPECT_LT(model.memory_bytes(), kSeaDefaultBudgetBytes);
}

}  // namespace
}  // namespace irithyll
