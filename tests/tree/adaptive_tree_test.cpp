// hoeffding_adaptive_tree and efdt: HAT switches to an alternate subtree
// after an abrupt concept change and then beats the plain Hoeffding tree;
// EFDT splits earlier than VFDT and revises a split when the concept
// changes; regression HAT on Friedman with drift; checkpoints resume
// bit-identically mid-stream (alternates pending, EFDT statistics at
// internal nodes) and truncated or altered records are refused.
//
// Every stream and model here is seeded, so each test is deterministic (no
// false failures); the accuracy margins were chosen well inside the gaps
// measured (given in the comments).
#include "irithyll/tree/adaptive_tree_learner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "tree/streams.hpp"
#include "support/prequential.hpp"

namespace irithyll {
namespace {

// Two classes on 4 uniform features, 5% label noise: class 1 when
// x0 + x1 > 1 before `drift`, when x2 + x3 > 1 after (the attributes that
// matter change, so the old tree's structure is useless).
struct SwitchStream {
  Xorshift64 rng{99};
  bool drift = false;
  std::array<double, 4> x{};
  double next() {
    for (double& v : x) v = rng.uniform();
    bool c = drift ? x[2] + x[3] > 1.0 : x[0] + x[1] > 1.0;
    if (rng.uniform() < 0.05) c = !c;
    return c ? 1.0 : 0.0;
  }
};

// Friedman #1, and after `drift` the same function of the features in
// another order (x5..x9 were noise before and carry it after).
struct DriftingFriedman {
  test::FriedmanStream base;
  bool drift = false;
  std::array<double, 10> x{};
  double next() {
    const double y = base.next();
    x = base.x;
    if (drift) std::rotate(x.begin(), x.begin() + 5, x.end());
    return y;
  }
};

template <class T>
std::unique_ptr<T> make(typename T::Config c, Task task = Task::kClassification, std::size_t k = 2, std::uint64_t seed = 7) {
  auto m = T::make(c, {task, task == Task::kClassification ? k : 0, 0, seed});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return std::move(*m);
}

template <class Stream>
double accuracy(Learner& m, Stream& s, int n) { return testing::prequential_accuracy(m, s, n); }

TEST(HoeffdingAdaptiveTree, SwitchesToTheAlternateAfterAConceptChangeAndBeatsTheHoeffdingTree) {
  auto hat = make<HoeffdingAdaptiveTree>({});
  auto ht = make<HoeffdingTreeLearner>({});
  SwitchStream s1, s2;
  const double before_hat = accuracy(*hat, s1, 20000), before_ht = accuracy(*ht, s2, 20000);
  EXPECT_GT(before_hat, 0.85);
  EXPECT_GT(before_ht, 0.85);
  // A false alarm on the stable concept may already have replaced a subtree
  // (an alternate takes its node's place when its leaf splits), so count
  // the switches that the change brings.
  const std::uint64_t switches_before = hat->tree()->counters().switches;
  const std::uint64_t alternates_before = hat->tree()->counters().alternates;
  s1.drift = s2.drift = true;
  const double after_hat = accuracy(*hat, s1, 20000), after_ht = accuracy(*ht, s2, 20000);
  const auto& c = hat->tree()->counters();
  EXPECT_GT(c.alternates, alternates_before);
  EXPECT_GT(c.switches, switches_before);
  // The new concept is on x2, x3: the switched-in tree splits on one of them.
  EXPECT_TRUE(hat->tree()->root_feature() == 2 || hat->tree()->root_feature() == 3) << hat->tree()->root_feature();
  RecordProperty("hat_after", std::to_string(after_hat));
  RecordProperty("ht_after", std::to_string(after_ht));
  // Measured: HAT 0.903, HT 0.706 over the 20,000 samples after the change.
  EXPECT_GT(after_hat, after_ht + 0.1) << "HAT " << after_hat << " HT " << after_ht;
  EXPECT_GT(after_hat, 0.8);
}

TEST(HoeffdingAdaptiveTree, RegressionAdaptsToADriftingFriedmanStream) {
  auto hat = make<HoeffdingAdaptiveTree>({}, Task::kRegression);
  auto ht = make<HoeffdingTreeLearner>({}, Task::kRegression);
  DriftingFriedman s1, s2;
  auto mae = [](Learner& m, DriftingFriedman& s, int n) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
      const double y = s.next();
      sum += std::abs(m.predict_one(s.x) - y);
      m.learn_one(s.x, y);
    }
    return sum / n;
  };
  mae(*hat, s1, 30000);
  mae(*ht, s2, 30000);
  s1.drift = s2.drift = true;
  const double after_hat = mae(*hat, s1, 30000), after_ht = mae(*ht, s2, 30000);
  EXPECT_GE(hat->tree()->counters().switches, 1u);
  RecordProperty("hat_mae_after", std::to_string(after_hat));
  RecordProperty("ht_mae_after", std::to_string(after_ht));
  // Measured: mean absolute error 2.29 (HAT) against 4.40 (HT) after the drift.
  EXPECT_LT(after_hat, after_ht * 0.75) << "HAT " << after_hat << " HT " << after_ht;
  EXPECT_TRUE(std::isfinite(after_hat));
}

TEST(HoeffdingAdaptiveTree, StableStreamStartsFewAlternates) {
  auto hat = make<HoeffdingAdaptiveTree>({});
  test::LineStream s;
  EXPECT_GT(accuracy(*hat, s, 30000), 0.88);
  EXPECT_EQ(hat->tree()->counters().switches, 0u);
}

TEST(Efdt, SplitsEarlierThanVfdt) {
  // x0 and x1 matter equally, so VFDT waits until the bound falls below the
  // tie threshold (about 3,200 samples at delta 1e-7); EFDT only needs the
  // best split to beat not splitting.
  auto efdt = make<ExtremelyFastDecisionTree>({});
  auto ht = make<HoeffdingTreeLearner>({});
  test::LineStream s1, s2;
  int ht_first = 0;
  for (int i = 1; i <= 10000 && ht_first == 0; ++i) {
    const double y = s2.next();
    ht->learn_one(s2.x, y);
    if (ht->tree()->n_nodes() > 1) ht_first = i;
  }
  for (int i = 1; i <= 10000; ++i) {
    const double y = s1.next();
    efdt->learn_one(s1.x, y);
    if (efdt->tree()->first_split_weight() > 0.0) break;
  }
  const double efdt_first = efdt->tree()->first_split_weight();
  ASSERT_GT(ht_first, 0);
  ASSERT_GT(efdt_first, 0.0);
  RecordProperty("efdt_first", std::to_string(efdt_first));
  RecordProperty("vfdt_first", std::to_string(ht_first));
  // Measured: EFDT's first split at weight 400, VFDT's at sample 3,400.
  EXPECT_LT(efdt_first * 4.0, ht_first) << "EFDT " << efdt_first << " VFDT " << ht_first;
}

TEST(Efdt, RevisesItsSplitWhenTheConceptChanges) {
  // EFDT forgets nothing: its nodes' statistics must come to favour the new
  // attributes, so the new concept runs four times as long as the old.
  auto efdt = make<ExtremelyFastDecisionTree>({});
  SwitchStream s;
  EXPECT_GT(accuracy(*efdt, s, 10000), 0.85);
  const std::int32_t before = efdt->tree()->root_feature();
  EXPECT_TRUE(before == 0 || before == 1) << before;
  s.drift = true;
  accuracy(*efdt, s, 40000);
  const auto& c = efdt->tree()->counters();
  EXPECT_GE(c.kills + c.replacements, 1u);
  const std::int32_t after = efdt->tree()->root_feature();
  EXPECT_TRUE(after == 2 || after == 3) << after;
  const double final_accuracy = accuracy(*efdt, s, 5000);
  RecordProperty("efdt_final", std::to_string(final_accuracy));
  EXPECT_GT(final_accuracy, 0.85);
}

TEST(Efdt, IsAClassifierOnly) {
  auto r = ExtremelyFastDecisionTree::make({}, {Task::kRegression, 0, 3, 1});
  EXPECT_FALSE(r.is_ok());
}

// Encode at `at`, decode into a blank instance, and check that both go on
// bit-identically for `more` samples.
template <class T, class Stream>
void check_resume(T& model, Stream& s, int at, int more) {
  for (int i = 0; i < at; ++i) {
    const double y = s.next();
    model.learn_one(s.x, y);
  }
  ByteWriter w;
  model.encode(w);
  T copy;
  ByteReader r(w.data());
  const Status st = copy.decode(r);
  ASSERT_TRUE(st.is_ok()) << st.to_string();
  ByteWriter w2;
  copy.encode(w2);
  ASSERT_EQ(w.data(), w2.data());
  for (int i = 0; i < more; ++i) {
    const double y = s.next();
    ASSERT_EQ(model.predict_one(s.x), copy.predict_one(s.x)) << i;
    model.learn_one(s.x, y);
    copy.learn_one(s.x, y);
  }
  ByteWriter a, b;
  model.encode(a);
  copy.encode(b);
  EXPECT_EQ(a.data(), b.data());
}

TEST(AdaptiveTrees, CheckpointResumesBitIdenticallyMidStream) {
  {
    // Across the drift, while alternates are growing.
    auto hat = make<HoeffdingAdaptiveTree>({});
    SwitchStream s;
    accuracy(*hat, s, 20000);
    s.drift = true;
    check_resume(*hat, s, 1500, 6000);
    EXPECT_GE(hat->tree()->counters().alternates, 1u);
  }
  {
    auto hat = make<HoeffdingAdaptiveTree>({}, Task::kRegression);
    DriftingFriedman s;
    check_resume(*hat, s, 5000, 3000);
  }
  {
    auto efdt = make<ExtremelyFastDecisionTree>({});
    SwitchStream s;
    accuracy(*efdt, s, 20000);
    s.drift = true;
    check_resume(*efdt, s, 500, 8000);
  }
}

TEST(AdaptiveTrees, TruncatedOrAlteredCheckpointsAreRefusedOrHarmless) {
  auto hat = make<HoeffdingAdaptiveTree>({});
  SwitchStream s;
  accuracy(*hat, s, 20000);
  s.drift = true;
  accuracy(*hat, s, 1500);
  ByteWriter w;
  hat->encode(w);
  const std::vector<std::uint8_t> bytes = w.data();
  for (std::size_t len = 0; len < bytes.size(); len += 1 + len / 16) {
    HoeffdingAdaptiveTree t;
    ByteReader r(std::span<const std::uint8_t>(bytes.data(), len));
    EXPECT_FALSE(t.decode(r).is_ok()) << len;
  }
  // Flipped bytes: refused, or a model that still predicts and learns.
  Xorshift64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::uint8_t> bad = bytes;
    bad[rng.below(bad.size())] ^= static_cast<std::uint8_t>(1u << rng.below(8));
    HoeffdingAdaptiveTree t;
    ByteReader r(bad);
    if (!t.decode(r).is_ok()) continue;
    for (int i = 0; i < 50; ++i) {
      const double y = s.next();
      (void)t.predict_one(s.x);
      t.learn_one(s.x, y);
    }
  }
}

}  // namespace
}  // namespace irithyll
