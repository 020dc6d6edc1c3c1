#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "irithyll/tree/adaptive_vfdt.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "irithyll/tree/vfdt.hpp"
#include "tree/streams.hpp"
#include "support/encoded.hpp"

namespace irithyll {
namespace {

using testing::encoded;

void train(Learner& m, test::LineStream& s, int n) {
  for (int i = 0; i < n; ++i) {
    const double y = s.next();
    m.learn_one(s.x, y);
  }
}

// A tree's record holds its state, not its settings: the owner derives them
// from its named settings and passes them to decode(). Two fresh trees that
// differ only in settings that keep no state of their own write the same
// bytes (a record with the config in it would differ), which is what lets a
// new setting need no record-version bump; decode() with each config gives
// back the tree it was built as.
TEST(TreeRecord, HoldsTheStateAndNotTheSettings) {
  HoeffdingTreeConfig a, b;
  b.grace_period = 77;
  b.delta = 1e-3;
  b.tie_threshold = 0.2;
  b.max_depth = 9;
  b.nominal_penalty = 1.5;
  b.learning_rate = 0.3;
  const Vfdt ta(a, Task::kClassification, 3, 4, 0, 11), tb(b, Task::kClassification, 3, 4, 0, 11);
  EXPECT_EQ(encoded(ta), encoded(tb));
  Vfdt back;
  const auto bytes = encoded(tb);
  ByteReader in(bytes);
  ASSERT_TRUE(back.decode(in, b).is_ok());
  EXPECT_EQ(back.config().grace_period, 77u);
  EXPECT_EQ(back.config().delta, 1e-3);
  AdaptiveTreeOptions oa, ob;
  ob.adwin_delta = 0.01;
  ob.drift_window = 50;
  ob.switch_significance = 0.1;
  const AdaptiveVfdt ha(a, oa, Task::kClassification, 3, 4, 11), hb(b, ob, Task::kClassification, 3, 4, 11);
  EXPECT_EQ(encoded(ha), encoded(hb));
  AdaptiveVfdt hat_back;
  const auto hat_bytes = encoded(hb);
  ByteReader hin(hat_bytes);
  ASSERT_TRUE(hat_back.decode(hin, b, ob).is_ok());
  EXPECT_EQ(hat_back.options().drift_window, 50u);
  EXPECT_TRUE(hin.at_end());
}

class Codec : public ::testing::TestWithParam<int> {};

// Resume equality: a model decoded mid-stream continues bit-identically.
TEST_P(Codec, ResumeIsBitIdentical) {
  HoeffdingTreeConfig c;
  Task task = Task::kClassification;
  std::size_t k = 2;
  if (GetParam() == 1) c.numeric = NumericEstimator::kHistogram;
  if (GetParam() == 2) task = Task::kRegression, k = 0, c.leaf_model = LeafModel::kLinear;
  auto a = HoeffdingTreeLearner::make(c, {task, k, 0, 5}).value();
  test::LineStream s;
  train(*a, s, 4000);
  const auto bytes = encoded(*a);
  HoeffdingTreeLearner b;
  ByteReader in(bytes);
  ASSERT_TRUE(b.decode(in).is_ok());
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(encoded(b), bytes);
  test::LineStream s2 = s;
  for (int i = 0; i < 4000; ++i) {
    const double y = s.next();
    s2.next();
    ASSERT_EQ(a->predict_one(s.x), b.predict_one(s2.x));
    a->learn_one(s.x, y);
    b.learn_one(s2.x, y);
  }
  EXPECT_EQ(encoded(*a), encoded(b));
  EXPECT_GT(a->tree()->n_nodes(), 1u);
}

INSTANTIATE_TEST_SUITE_P(HoeffdingTreeLearner, Codec, ::testing::Values(0, 1, 2));

// Readers never trust bytes: every truncation and many corruptions give a
// Status or a model that still predicts; never a crash or a hang.
TEST(HoeffdingTreeLearnerCodec, HostileBytesGiveStatus) {
  auto a = HoeffdingTreeLearner::make({}, {Task::kClassification, 2, 0, 5}).value();
  test::LineStream s;
  train(*a, s, 3000);
  const auto bytes = encoded(*a);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
    HoeffdingTreeLearner b;
    ByteReader in(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(b.decode(in).is_ok()) << "cut " << cut;
  }
  Xorshift64 rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    auto bad = bytes;
    for (int f = 0; f < 3; ++f) bad[rng.below(bad.size())] ^= static_cast<std::uint8_t>(1u << rng.below(8));
    HoeffdingTreeLearner b;
    ByteReader in(bad);
    if (b.decode(in).is_ok()) {
      std::vector<double> p(2);
      b.predict_proba_one(s.x, p);
      b.learn_one(s.x, 1.0);
    }
  }
}

// A regression tree with linear leaves: any double of its record set to
// NaN, +-1e300 or -infinity is refused, or the decoded tree predicts and
// learns with finite outputs (a NaN linear weight once decoded, and the
// next sample routed to its leaf predicted NaN).
TEST(HoeffdingTreeLearnerCodec, NonFiniteOrHugeValuesNeverReachAPrediction) {
  HoeffdingTreeConfig c;
  c.leaf_model = LeafModel::kLinear;
  c.grace_period = 50;
  auto a = HoeffdingTreeLearner::make(c, {Task::kRegression, 0, 0, 5}).value();
  test::FriedmanStream s;
  for (int i = 0; i < 1500; ++i) {
    const double y = s.next();
    a->learn_one(s.x, y);
  }
  const auto bytes = encoded(*a);
  const double poison[] = {std::numeric_limits<double>::quiet_NaN(), 1e300, -1e300,
                           -std::numeric_limits<double>::infinity()};
  std::vector<double> probe(10, 0.5), odd(10, -3.0);
  odd[1] = std::numeric_limits<double>::quiet_NaN();
  int decoded = 0;
  for (std::size_t at = 0; at + 8 <= bytes.size(); ++at) {
    // The record's doubles: 8 bytes that read as a normal, moderate double
    // (counts, lengths and flags read as zero or denormal numbers).
    double was;
    std::memcpy(&was, bytes.data() + at, 8);
    if (!std::isnormal(was) || std::abs(was) > 1e12 || std::abs(was) < 1e-12) continue;
    for (const double v : poison) {
      auto bad = bytes;
      std::memcpy(bad.data() + at, &v, 8);
      HoeffdingTreeLearner b;
      ByteReader in(bad);
      if (!b.decode(in).is_ok()) continue;
      ++decoded;
      for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(std::isfinite(b.predict_one(probe))) << "offset " << at << " value " << v;
        ASSERT_TRUE(std::isfinite(b.predict_one(odd))) << "offset " << at << " value " << v;
        b.learn_one(i % 2 ? odd : probe, 2.5 * i);
      }
    }
  }
  EXPECT_GT(decoded, 0);  // some slots (split evidence, counters) take any value
}

TEST(HoeffdingTreeLearnerCodec, BlankModelRoundTrips) {
  HoeffdingTreeLearner a;
  const auto bytes = encoded(a);
  HoeffdingTreeLearner b;
  ByteReader in(bytes);
  ASSERT_TRUE(b.decode(in).is_ok());
  EXPECT_EQ(encoded(b), bytes);
}

}  // namespace
}  // namespace irithyll
