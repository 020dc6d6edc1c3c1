// Nominal attributes in the VFDT (`hoeffding_tree`, categorical-features):
// a class that depends on a set of values is learned with one multiway
// split, which thresholds on the codes cannot match; checkpoints resume
// bit-identically; configs without the list encode as before.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "support/prequential.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

// Category of 8 in x0 (class 1 iff in {1, 4, 6}, 5% label noise), uniform noise in x1.
struct NominalSetStream {
  Xorshift64 rng{21};
  double x[2] = {0, 0};
  static bool in_set(int c) { return c == 1 || c == 4 || c == 6; }
  double next() {
    const auto c = static_cast<int>(rng.uniform() * 8.0);
    x[0] = c;
    x[1] = rng.uniform();
    return (in_set(c) != (rng.uniform() < 0.05)) ? 1.0 : 0.0;
  }
};

std::unique_ptr<HoeffdingTreeLearner> make(bool nominal, const char* leaf = "mc") {
  HoeffdingTreeConfig c;
  for (const auto& f : hoeffding_tree_config_fields()) {
    if (f.info.name == "leaf-model") {
      EXPECT_TRUE(f.set(c, leaf).is_ok());
    }
    if (f.info.name == "categorical-features") {
      EXPECT_TRUE(f.set(c, nominal ? "0" : "").is_ok());
    }
  }
  c.max_depth = 2;
  auto m = HoeffdingTreeLearner::make(c, {Task::kClassification, 2, 2, 7});
  EXPECT_TRUE(m.is_ok());
  return std::move(*m);
}

double accuracy(Learner& m, NominalSetStream& s, int n) { return testing::prequential_accuracy(m, s, n); }

// Deterministic (fixed seeds). Majority leaves and depth 2: thresholds on
// the codes reach 3 intervals, not the 6 cuts the set needs; one multiway
// split on the nominal attribute is exact (best possible 0.95).
TEST(VfdtNominal, SetTargetNeedsTheNominalSplit) {
  auto with = make(true), without = make(false);
  NominalSetStream a, b;
  const double acc_with = accuracy(*with, a, 8000), acc_without = accuracy(*without, b, 8000);
  EXPECT_GT(acc_with, 0.9);
  EXPECT_GT(acc_with, acc_without + 0.05) << "with " << acc_with << ", without " << acc_without;
}

// The dump shows every branch of a multiway split, by value name when the
// names are given (by code otherwise), and which branch takes missing and
// unseen values. (It once printed such a node as "x0 <= 8" with two of its
// eight branches.)
TEST(VfdtNominal, DumpShowsEveryBranchByName) {
  auto m = make(true);
  NominalSetStream s;
  accuracy(*m, s, 8000);
  ASSERT_EQ(m->n_dump_trees(), 1u);
  const std::vector<std::string> features = {"colour", "noise"};
  const std::vector<std::vector<std::string>> values = {
      {"red", "green", "blue", "cyan", "plum", "grey", "teal", "gold"}, {}};
  const std::string text = m->dump_tree(0, TreeDumpFormat::kText, features, values);
  for (const auto& v : values[0]) EXPECT_NE(text.find("  = " + v + "\n"), std::string::npos) << v << "\n" << text;
  EXPECT_NE(text.find("colour (missing or unseen: "), std::string::npos) << text;
  EXPECT_EQ(text.find("colour <= "), std::string::npos) << text;
  const std::string codes = m->dump_tree(0, TreeDumpFormat::kText, features);
  for (int c = 0; c < 8; ++c) EXPECT_NE(codes.find("  = " + std::to_string(c) + "\n"), std::string::npos) << codes;
  const std::string dot = m->dump_tree(0, TreeDumpFormat::kDot, features, values);
  for (const auto& v : values[0]) EXPECT_NE(dot.find("[label=\"" + v), std::string::npos) << v << "\n" << dot;
  EXPECT_NE(dot.find("(and missing)"), std::string::npos) << dot;
}

TEST(VfdtNominal, MissingAndUnseenValuesFollowADefinedBranch) {
  auto m = make(true);
  NominalSetStream s;
  accuracy(*m, s, 8000);
  ASSERT_GT(m->tree()->n_nodes(), 1u);
  // Every code goes somewhere valid; missing and out-of-range ones agree
  // with each other (the heaviest branch) and predict a class.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double miss[2] = {nan, 0.5}, big[2] = {70.0, 0.5}, frac[2] = {2.5, 0.5};
  const double p = m->predict_one(miss);
  EXPECT_EQ(m->predict_one(big), p);
  EXPECT_EQ(m->predict_one(frac), p);
  for (int c = 0; c < 8; ++c) {
    const double x[2] = {static_cast<double>(c), 0.5};
    EXPECT_EQ(m->predict_one(x), NominalSetStream::in_set(c) ? 1.0 : 0.0) << c;
  }
}

std::vector<std::uint8_t> bytes_of(const Learner& m) {
  ByteWriter w;
  m.encode(w);
  return w.take();
}

class VfdtNominalResume : public ::testing::TestWithParam<const char*> {};

TEST_P(VfdtNominalResume, BitIdentical) {
  auto a = make(true, GetParam());
  NominalSetStream s;
  accuracy(*a, s, 3000);
  ASSERT_GT(a->tree()->n_nodes(), 1u);
  const auto saved = bytes_of(*a);
  HoeffdingTreeLearner b;
  ByteReader in(saved);
  ASSERT_TRUE(b.decode(in).is_ok());
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(b.config().categorical, (std::vector<std::uint32_t>{0}));
  NominalSetStream s2 = s;
  for (int i = 0; i < 3000; ++i) {
    const double y = s.next();
    s2.next();
    double pa[2], pb[2];
    a->predict_proba_one(s.x, pa);
    b.predict_proba_one(s2.x, pb);
    ASSERT_EQ(pa[0], pb[0]) << i;
    a->learn_one(s.x, y);
    b.learn_one(s2.x, y);
  }
  EXPECT_EQ(bytes_of(*a), bytes_of(b));
}

INSTANTIATE_TEST_SUITE_P(Leaves, VfdtNominalResume, ::testing::Values("mc", "nb", "nba"));

// Regression: variance reduction over the value branches.
TEST(VfdtNominal, RegressionSplitsByValue) {
  HoeffdingTreeConfig c;
  c.categorical = {0};
  c.max_depth = 1;
  auto m = HoeffdingTreeLearner::make(c, {Task::kRegression, 0, 2, 3}).value();
  Xorshift64 rng(8);
  const double level[5] = {3.0, -1.0, 7.0, 0.0, 3.5};
  for (int i = 0; i < 5000; ++i) {
    const auto k = static_cast<int>(rng.uniform() * 5.0);
    const double x[2] = {static_cast<double>(k), rng.uniform()};
    m->learn_one(x, level[k] + 0.1 * rng.normal());
  }
  for (int k = 0; k < 5; ++k) {
    const double x[2] = {static_cast<double>(k), 0.5};
    EXPECT_NEAR(m->predict_one(x), level[k], 0.3) << k;
  }
  // Its checkpoint (value rows beside histogram blocks) decodes to the same model.
  ByteWriter w;
  m->encode(w);
  const auto bytes = w.take();
  HoeffdingTreeLearner b;
  ByteReader in(bytes);
  ASSERT_TRUE(b.decode(in).is_ok());
  for (int k = 0; k < 5; ++k) {
    const double x[2] = {static_cast<double>(k), 0.5};
    EXPECT_EQ(b.predict_one(x), m->predict_one(x)) << k;
  }
}

TEST(VfdtNominal, ConfigWithoutTheListEncodesAsBefore) {
  HoeffdingTreeConfig c;
  ByteWriter w;
  testing::encode_legacy(c, w);
  const auto plain = w.take();
  c.categorical = {1, 3};
  ByteWriter w2;
  testing::encode_legacy(c, w2);
  const auto with = w2.take();
  ASSERT_EQ(with.size(), plain.size() + 8 + 8);
  HoeffdingTreeConfig d;
  ByteReader in(with);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.categorical, c.categorical);
  HoeffdingTreeConfig e;
  ByteReader in2(plain);
  ASSERT_TRUE(e.decode(in2).is_ok());
  EXPECT_TRUE(e.categorical.empty());
}

}  // namespace
}  // namespace irithyll
