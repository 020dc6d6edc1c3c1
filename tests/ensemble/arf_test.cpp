#include "irithyll/ensemble/arf.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tree/streams.hpp"
#include "support/prequential.hpp"
#include "support/encoded.hpp"

namespace irithyll {
namespace {

std::unique_ptr<AdaptiveRandomForest> make_arf(ARFConfig c = {}, Task task = Task::kClassification, std::size_t k = 2,
                                               std::uint64_t seed = 11) {
  auto m = AdaptiveRandomForest::make(c, {task, k, 0, seed});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return std::move(m).value();
}

using testing::encoded;

using testing::prequential_accuracy;

TEST(ARF, LearnsTheLineFarAboveMajority) {
  auto m = make_arf();
  test::LineStream s;
  EXPECT_GT(prequential_accuracy(*m, s, 20000), 0.85);  // majority class: ~0.5
  std::vector<double> p(2);
  m->predict_proba_one(s.x, p);
  EXPECT_NEAR(p[0] + p[1], 1.0, 1e-12);
}

TEST(ARF, RecoversFromAbruptDriftThroughBackgroundTrees) {
  // The concept flips at 10000: every member's error jumps, ADWIN warns
  // (starting background trees) and then signals drift (swapping them in).
  for (ARFVote vote : {ARFVote::kWeighted, ARFVote::kMajority}) {
    ARFConfig c;
    c.vote = vote;
    auto m = make_arf(c);
    test::LineStream s;
    prequential_accuracy(*m, s, 10000);
    s.flip = true;
    prequential_accuracy(*m, s, 4000);
    EXPECT_GT(m->n_warnings(), 0u);
    EXPECT_GT(m->n_drifts(), 0u);
    EXPECT_GT(prequential_accuracy(*m, s, 4000), 0.8) << arf_vote_name(vote);
  }
}

TEST(ARF, WithoutDetectorsNothingIsReplaced) {
  ARFConfig c;
  c.warning_delta = 0.0;
  c.drift_delta = 0.0;
  auto m = make_arf(c);
  test::LineStream s;
  prequential_accuracy(*m, s, 5000);
  s.flip = true;
  prequential_accuracy(*m, s, 3000);
  EXPECT_EQ(m->n_warnings(), 0u);
  EXPECT_EQ(m->n_drifts(), 0u);
  EXPECT_EQ(m->n_background(), 0u);
}

TEST(ARF, RegressionBeatsTheMean) {
  auto m = make_arf({}, Task::kRegression, 0);
  test::FriedmanStream s;
  double se = 0.0;
  int n = 0;
  for (int i = 0; i < 20000; ++i) {
    const double y = s.next();
    const double p = m->predict_one(s.x);
    if (i >= 15000) se += (p - y) * (p - y), ++n;
    m->learn_one(s.x, y);
  }
  EXPECT_LT(std::sqrt(se / n), 3.5);  // target sd ~4.9
}

TEST(ARF, ResumeIsBitIdentical) {
  auto a = make_arf();
  test::LineStream s;
  prequential_accuracy(*a, s, 6000);
  s.flip = true;
  prequential_accuracy(*a, s, 1500);  // mid-drift: background trees alive
  const auto bytes = encoded(*a);
  AdaptiveRandomForest b;
  ByteReader in(bytes);
  ASSERT_TRUE(b.decode(in).is_ok());
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(encoded(b), bytes);
  test::LineStream s2 = s;
  for (int i = 0; i < 3000; ++i) {
    const double y = s.next();
    s2.next();
    ASSERT_EQ(a->predict_one(s.x), b.predict_one(s2.x));
    a->learn_one(s.x, y);
    b.learn_one(s2.x, y);
  }
  EXPECT_EQ(encoded(*a), encoded(b));
}

TEST(ARF, DeterministicGivenSeedAndResetRestarts) {
  auto a = make_arf(), b = make_arf();
  test::LineStream s1, s2;
  prequential_accuracy(*a, s1, 3000);
  prequential_accuracy(*b, s2, 3000);
  EXPECT_EQ(encoded(*a), encoded(*b));
  a->reset();
  auto fresh = make_arf();
  test::LineStream s3, s4;
  prequential_accuracy(*a, s3, 500);
  prequential_accuracy(*fresh, s4, 500);
  EXPECT_EQ(encoded(*a), encoded(*fresh));
  auto other = make_arf({}, Task::kClassification, 2, 12);
  test::LineStream s5;
  prequential_accuracy(*other, s5, 500);
  EXPECT_NE(encoded(*other), encoded(*fresh));
}

TEST(ARF, HostileBytesGiveStatus) {
  ARFConfig c;
  c.n_trees = 3;
  auto a = make_arf(c);
  test::LineStream s;
  prequential_accuracy(*a, s, 2000);
  const auto bytes = encoded(*a);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 97) {
    AdaptiveRandomForest b;
    ByteReader in(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(b.decode(in).is_ok()) << "cut " << cut;
  }
  Xorshift64 rng(9);
  for (int trial = 0; trial < 300; ++trial) {
    auto bad = bytes;
    for (int f = 0; f < 3; ++f) bad[rng.below(bad.size())] ^= static_cast<std::uint8_t>(1u << rng.below(8));
    AdaptiveRandomForest b;
    ByteReader in(bad);
    if (b.decode(in).is_ok()) {
      std::vector<double> p(b.n_classes());
      b.predict_proba_one(s.x, p);
      b.learn_one(s.x, 1.0);
    }
  }
}

TEST(ARF, SettingsAndGuards) {
  ARFConfig c;
  c.lambda = 0.0;
  auto m = AdaptiveRandomForest::make(c, {Task::kClassification, 2, 0, 1});
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("lambda"), std::string::npos);
  EXPECT_EQ(ARFConfig{}.subspace(6), 3u);  // round(sqrt(6)) + 1
  EXPECT_EQ(ARFConfig{}.subspace(8), 4u);
  EXPECT_EQ(ARFConfig{}.subspace(100), 11u);
  EXPECT_EQ(ARFConfig{}.subspace(3), 3u);
  EXPECT_EQ(ARFConfig{}.subspace(1), 1u);
  ARFConfig d;
  ASSERT_TRUE(apply_settings<ARFConfig>("arf", arf_config_fields(), ModelSettings{{"n-trees", "3"}, {"grace-period", "20"}}, d).is_ok());
  EXPECT_EQ(d.n_trees, 3u);
  EXPECT_EQ(d.tree.grace_period, 20u);
  auto f = make_arf();
  f->learn_one(std::vector<double>{0.1, 0.2}, 5.0);
  EXPECT_EQ(f->n_skipped(), 1u);
  EXPECT_EQ(f->memory_bytes(), sizeof(AdaptiveRandomForest));  // no members before the feature count is known
  f->learn_one(std::vector<double>{0.1, 0.2}, 1.0);
  EXPECT_GT(f->memory_bytes(), 10 * 2 * sizeof(Adwin));  // ten members, two detectors each
}

}  // namespace
}  // namespace irithyll
