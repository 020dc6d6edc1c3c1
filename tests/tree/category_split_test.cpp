// Category-set splits in the gradient Hoeffding tree (GradientTreeConfig::categorical):
// code and routing rules, the Fisher-ordered search, a tree that learns a
// category set in one split, its dump, and a bit-identical checkpoint resume.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "tree/gradient_tree.hpp"
#include "tree/tree_dump.hpp"
#include "tree/category_split.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(CategoryCode, IntegersInRangeOnly) {
  EXPECT_EQ(category_code(0.0), 0);
  EXPECT_EQ(category_code(5.0), 5);
  EXPECT_EQ(category_code(63.0), 63);
  for (double v : {-1.0, 64.0, 2.5, kNaN, std::numeric_limits<double>::infinity(), -0.5, 1e300})
    EXPECT_EQ(category_code(v), -1) << v;
}

TEST(CategoryCode, RoutingFollowsTheMaskAndSendsMissingRight) {
  const std::uint64_t mask = (1u << 1) | (1u << 4) | (std::uint64_t{1} << 63);
  EXPECT_TRUE(category_goes_left(mask, 1.0));
  EXPECT_TRUE(category_goes_left(mask, 4.0));
  EXPECT_TRUE(category_goes_left(mask, 63.0));
  EXPECT_FALSE(category_goes_left(mask, 0.0));
  EXPECT_FALSE(category_goes_left(mask, 2.0));
  for (double v : {kNaN, -1.0, 64.0, 1.5}) EXPECT_FALSE(category_goes_left(mask, v)) << v;
}

// Eight categories of 50 samples; {1, 4, 6} pull the other way from the
// rest. The bins and their totals.
struct ScatteredSet {
  std::vector<GradBin> bins = std::vector<GradBin>(kCategoryBins);
  double g = 0.0, h = 0.0;
  std::uint64_t n = 0;
  ScatteredSet() {
    for (int c = 0; c < 8; ++c) {
      const bool in = c == 1 || c == 4 || c == 6;
      bins[c] = GradBin{in ? -40.0 : 30.0, 50.0, 50};
      g += bins[c].g;
      h += bins[c].h;
      n += 50;
    }
  }
};

// Bins whose gradients put categories {1, 4, 6} on one side: the sorted
// prefix scan finds exactly that set (or its complement) in one split.
TEST(BestCategorySplit, FindsAScatteredSet) {
  const ScatteredSet set8;
  const auto& [bins, g, h, n] = set8;
  SplitCandidate out;
  std::uint64_t mask = 0;
  ASSERT_TRUE(best_category_split(bins.data(), g, h, GainParams{}, out, mask, n));
  const std::uint64_t set = (1u << 1) | (1u << 4) | (1u << 6);
  EXPECT_EQ(mask, set);  // the negative ratios sort first
  EXPECT_DOUBLE_EQ(out.gl, -120.0);
  EXPECT_DOUBLE_EQ(out.hl, 150.0);
  EXPECT_GT(out.gain, 0.0);
}

TEST(BestCategorySplit, MissingMassStaysRightAndOneCategoryCannotSplit) {
  std::vector<GradBin> bins(kCategoryBins);
  bins[3] = GradBin{-10.0, 20.0, 20};
  SplitCandidate out;
  std::uint64_t mask = 0;
  // One category seen, the rest of the total is missing: nothing to split.
  EXPECT_FALSE(best_category_split(bins.data(), 10.0, 40.0, GainParams{}, out, mask, 40));
  bins[5] = GradBin{-9.0, 20.0, 20};
  // Two categories with similar ratios and a large missing mass (g = +29):
  // whichever category goes left, the right child holds the missing mass.
  ASSERT_TRUE(best_category_split(bins.data(), 10.0, 80.0, GainParams{}, out, mask, 80));
  EXPECT_DOUBLE_EQ(out.hl + out.hr, 80.0);
  EXPECT_GE(out.hr, 40.0);
}

// The penalty takes penalty x (K - 2) / 2 off the gain of the same split
// (K categories seen) and withholds a split it leaves without gain; two
// categories pay nothing (a threshold's degrees of freedom).
TEST(BestCategorySplit, PenaltyChargesTheCategoriesBeyondTwo) {
  const ScatteredSet set8;
  const auto& [bins, g, h, n] = set8;
  SplitCandidate plain, charged;
  std::uint64_t mask = 0, charged_mask = 0;
  ASSERT_TRUE(best_category_split(bins.data(), g, h, GainParams{}, plain, mask, n));
  ASSERT_TRUE(best_category_split(bins.data(), g, h, GainParams{}, charged, charged_mask, n, 2.0));
  EXPECT_EQ(charged_mask, mask);
  EXPECT_DOUBLE_EQ(charged.gain, plain.gain - 2.0 * 6 / 2);
  // A penalty that costs more than the gain: no split.
  const double all = 2.0 * plain.gain / 6 + 0.01;
  EXPECT_FALSE(best_category_split(bins.data(), g, h, GainParams{}, charged, charged_mask, n, all));
  // Two categories: unchanged.
  std::vector<GradBin> two(kCategoryBins);
  two[0] = GradBin{-40.0, 50.0, 50};
  two[1] = GradBin{30.0, 50.0, 50};
  ASSERT_TRUE(best_category_split(two.data(), -10.0, 100.0, GainParams{}, plain, mask, 100));
  ASSERT_TRUE(best_category_split(two.data(), -10.0, 100.0, GainParams{}, charged, mask, 100, 50.0));
  EXPECT_EQ(charged.gain, plain.gain);
}

// y = 1 iff the category (of 8) is in {1, 4, 6}; x1 is noise.
struct SetStream {
  Xorshift64 rng{11};
  double x[2] = {0, 0};
  double next() {
    const auto c = static_cast<int>(rng.uniform() * 8.0);
    x[0] = c;
    x[1] = rng.uniform();
    return c == 1 || c == 4 || c == 6 ? 1.0 : 0.0;
  }
};

GradientTreeConfig set_config(bool categorical) {
  GradientTreeConfig c;
  c.max_depth = 2;
  c.grace_period = 100;
  c.lambda = 1.0;
  if (categorical) c.categorical = {0};
  return c;
}

// Squared loss around a constant 0 prediction: g = -y, h = 1, so a leaf's
// value -G/(H+lambda) estimates the mean of y there.
void train(GradientTree& t, SetStream& s, int n) {
  for (int i = 0; i < n; ++i) {
    const double y = s.next();
    t.learn_one(s.x, -y, 1.0);
  }
}

double mean_abs_error(const GradientTree& t) {
  double err = 0.0;
  for (int c = 0; c < 8; ++c) {
    const double x[2] = {static_cast<double>(c), 0.5};
    err += std::abs(t.predict(x) - ((c == 1 || c == 4 || c == 6) ? 1.0 : 0.0));
  }
  return err / 8.0;
}

TEST(CategoricalTree, OneSplitSeparatesTheSet) {
  GradientTree t(set_config(true));
  SetStream s;
  train(t, s, 3000);
  ASSERT_FALSE(t.is_leaf(0));
  EXPECT_TRUE(t.is_categorical_split(0));
  const std::uint64_t set = (1u << 1) | (1u << 4) | (1u << 6);
  const std::uint64_t m = t.category_mask(0);
  EXPECT_TRUE(m == set || m == (0xFFu & ~set)) << std::hex << m;
  // The set's leaves near 1, the others near 0.
  EXPECT_LT(mean_abs_error(t), 0.05);
  // Missing and out-of-range categories follow the right branch.
  const double miss[2] = {kNaN, 0.5}, big[2] = {70.0, 0.5};
  EXPECT_EQ(t.leaf_index(miss), t.leaf_index(big));
}

// The same tree without the option must do clearly worse: thresholds on the
// codes need 6 cuts to isolate {1}, {4}, {6} and depth 2 allows 3.
TEST(CategoricalTree, ThresholdsAloneCannotAtThisDepth) {
  GradientTree with(set_config(true)), without(set_config(false));
  SetStream a, b;
  train(with, a, 3000);
  train(without, b, 3000);
  EXPECT_FALSE(without.is_categorical_split(0));
  EXPECT_GT(mean_abs_error(without), mean_abs_error(with) + 0.1);
}

TEST(CategoricalTree, DumpPrintsTheSet) {
  GradientTree t(set_config(true));
  SetStream s;
  train(t, s, 3000);
  const std::vector<std::string> names = {"colour", "noise"};
  const std::string text = dump_tree_text(t, names);
  const bool in_set = text.find("colour in {1,4,6}") != std::string::npos ||
                      text.find("colour in {0,2,3,5,7}") != std::string::npos;
  EXPECT_TRUE(in_set) << text;
  EXPECT_NE(dump_tree_dot(t, names).find("colour in {"), std::string::npos);
  // With the values' names (code order), the set is spelled by name.
  const std::vector<std::vector<std::string>> values = {{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"}, {}};
  const std::string named = dump_tree_text(t, names, values);
  EXPECT_TRUE(named.find("colour in {c1,c4,c6}") != std::string::npos ||
              named.find("colour in {c0,c2,c3,c5,c7}") != std::string::npos)
      << named;
}

std::vector<std::uint8_t> bytes_of(const GradientTree& t) {
  ByteWriter w;
  t.encode(w);
  return w.take();
}

TEST(CategoricalTree, CheckpointResumesBitIdentically) {
  GradientTreeConfig c = set_config(true);
  c.max_depth = 4;
  GradientTree a(c);
  SetStream s;
  train(a, s, 1700);
  ASSERT_TRUE(a.has_categorical_splits());
  const auto saved = bytes_of(a);
  GradientTree b(c);
  ByteReader in(saved);
  ASSERT_TRUE(b.decode(in).is_ok());
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(b.config().categorical, c.categorical);
  EXPECT_EQ(bytes_of(b), saved);
  SetStream s2 = s;
  for (int i = 0; i < 3000; ++i) {
    const double y = s.next();
    s2.next();
    ASSERT_EQ(a.predict(s.x), b.predict(s2.x)) << i;
    a.learn_one(s.x, a.predict(s.x) - y, 1.0);
    b.learn_one(s2.x, b.predict(s2.x) - y, 1.0);  // a gradient that depends on the state
  }
  EXPECT_EQ(bytes_of(a), bytes_of(b));
}

TEST(CategoricalTree, DecodeRefusesAnEmptyMaskOnACategorySplit) {
  GradientTree a(set_config(true));
  SetStream s;
  train(a, s, 3000);
  ASSERT_TRUE(a.is_categorical_split(0));
  auto bytes = bytes_of(a);
  // The masks are the record's last 8 * n_nodes bytes; the root's is first.
  const std::size_t at = bytes.size() - 8 * a.n_nodes();
  for (std::size_t i = 0; i < 8; ++i) bytes[at + i] = 0;
  GradientTree b(a.config());
  ByteReader in(bytes);
  EXPECT_FALSE(b.decode(in).is_ok());
}

// A config without categorical features encodes exactly as before the field
// (options block absent or version 1), so older records and goldens decode.
TEST(CategoricalTree, ConfigWithoutCategoricalKeepsTheOldEncoding) {
  GradientTreeConfig c;
  c.monotone = {1};
  ByteWriter w;
  testing::encode_legacy(c, w);
  const auto bytes = w.take();
  // Version byte of the options block follows the 0x80-flagged strategy byte.
  std::size_t flag = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] == 0x80) {
      flag = i;
      break;
    }
  ASSERT_GT(flag, 0u);
  EXPECT_EQ(bytes[flag + 1], 1);
  c.categorical = {2, 5};
  ByteWriter w2;
  testing::encode_legacy(c, w2);
  const auto bytes2 = w2.take();
  EXPECT_EQ(bytes2[flag + 1], 2);
  GradientTreeConfig d;
  ByteReader in(bytes2);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.categorical, (std::vector<std::uint32_t>{2, 5}));
}

}  // namespace
}  // namespace irithyll
