// hoeffding_tree's nominal-penalty and nominal-nb-prior: the tree's binary
// config (in tree records before the settings were derived) carries them
// only when non-zero (so a record written before them
// reads both as 0, the behaviour it was trained with), hostile flags are
// refused, and the learner's checkpoint keeps them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "irithyll/tree/vfdt_config.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

std::vector<std::uint8_t> bytes_of(const HoeffdingTreeConfig& c) {
  ByteWriter w;
  testing::encode_legacy(c, w);
  return w.take();
}

// Bytes of the fixed fields: a record with no list and both settings 0.
std::size_t fixed_size() {
  HoeffdingTreeConfig c;
  c.nominal_penalty = 0.0;
  c.nominal_nb_prior = 0.0;
  return bytes_of(c).size();
}

TEST(VfdtNominalSettings, ZeroSettingsWriteTheEarlierRecord) {
  HoeffdingTreeConfig c;
  c.categorical = {1, 2};
  c.nominal_penalty = 0.0;
  c.nominal_nb_prior = 0.0;
  const auto old_record = bytes_of(c);
  // The earlier layout: the fixed fields, then the list (8 + 4 per index).
  EXPECT_EQ(old_record.size(), fixed_size() + 8u + 8u);
  HoeffdingTreeConfig fresh;  // defaults: 4 and 10
  ByteReader in(old_record);
  ASSERT_TRUE(fresh.decode(in).is_ok());
  EXPECT_EQ(fresh.nominal_penalty, 0.0);
  EXPECT_EQ(fresh.nominal_nb_prior, 0.0);
}

TEST(VfdtNominalSettings, NonZeroSettingsRoundTrip) {
  for (double penalty : {0.0, 4.0, 0.5}) {
    for (double prior : {0.0, 10.0, 1000.0}) {
      HoeffdingTreeConfig c;
      c.nominal_penalty = penalty;
      c.nominal_nb_prior = prior;
      const auto b = bytes_of(c);
      HoeffdingTreeConfig d;
      ByteReader in(b);
      ASSERT_TRUE(d.decode(in).is_ok());
      EXPECT_EQ(d.nominal_penalty, penalty);
      EXPECT_EQ(d.nominal_nb_prior, prior);
      EXPECT_EQ(in.remaining(), 0u);
    }
  }
}

TEST(VfdtNominalSettings, HostileValuesAreRefused) {
  HoeffdingTreeConfig c;
  auto b = bytes_of(c);
  const std::size_t at = fixed_size();
  ASSERT_EQ(b.size(), at + 16u);  // both settings present
  // The penalty (first f64 after the fixed fields) out of range, then NaN.
  for (std::uint64_t bits : {0x4080000000000000ull /* 512 */, 0x7ff8000000000000ull}) {
    auto h = b;
    for (int i = 0; i < 8; ++i) h[at + i] = static_cast<std::uint8_t>(bits >> (8 * i));
    HoeffdingTreeConfig d;
    ByteReader in(h);
    EXPECT_FALSE(d.decode(in).is_ok());
  }
  // A flag with a zero value is not a record this build writes.
  auto z = b;
  for (int i = 0; i < 8; ++i) z[at + 8 + i] = 0;
  HoeffdingTreeConfig d;
  ByteReader in(z);
  EXPECT_FALSE(d.decode(in).is_ok());
  // Truncated.
  auto t = b;
  t.resize(t.size() - 3);
  ByteReader in2(t);
  EXPECT_FALSE(d.decode(in2).is_ok());
}

TEST(VfdtNominalSettings, LearnerCheckpointKeepsThemAndContinuesBitIdentically) {
  HoeffdingTreeConfig c;
  c.categorical = {0};
  c.nominal_penalty = 2.5;
  c.nominal_nb_prior = 3.0;
  auto m = HoeffdingTreeLearner::make(c, {Task::kClassification, 3, 2, 9});
  ASSERT_TRUE(m.is_ok());
  Xorshift64 rng(5);
  std::vector<double> x(2);
  auto next = [&] {
    x[0] = static_cast<double>(rng.below(12));
    x[1] = rng.uniform();
    return static_cast<double>((static_cast<int>(x[0]) % 3 + (x[1] < 0.2 ? 1 : 0)) % 3);
  };
  for (int i = 0; i < 3000; ++i) (*m)->learn_one(x, next());
  ByteWriter w;
  (*m)->encode(w);
  const auto b = w.take();
  HoeffdingTreeLearner d;
  ByteReader in(b);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.config().nominal_penalty, 2.5);
  EXPECT_EQ(d.config().nominal_nb_prior, 3.0);
  std::vector<double> pa(3), pb(3);
  for (int i = 0; i < 2000; ++i) {
    const double y = next();
    (*m)->predict_proba_one(x, pa);
    d.predict_proba_one(x, pb);
    ASSERT_EQ(pa, pb) << i;
    (*m)->learn_one(x, y);
    d.learn_one(x, y);
  }
}

}  // namespace
}  // namespace irithyll
