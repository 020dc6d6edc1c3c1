// HoeffdingTreeConfig::count_observations (SRP's regression members): the
// Hoeffding bound and the grace period count observations while the
// statistics stay weighted, so a tree fed every sample with weight 6 grows
// as one fed weight 1, where counting the weight grows a larger tree on
// noise. The flag and the leaves' counts survive a checkpoint, and a config
// without the flag encodes as before.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/tree/vfdt.hpp"
#include "streams.hpp"
#include "support/legacy_config_records.hpp"

namespace irithyll {
namespace {

HoeffdingTreeConfig member_config(bool count) {
  HoeffdingTreeConfig c;
  c.grace_period = 50;
  c.delta = 0.01;
  c.leaf_model = LeafModel::kMean;
  c.count_observations = count;
  return c;
}

// Learns n friedman samples, each with weight w.
Vfdt grown(bool count, double w, int n) {
  Vfdt t(member_config(count), Task::kRegression, 0, 10, 0, 5);
  test::FriedmanStream s;
  for (int i = 0; i < n; ++i) {
    const double y = s.next();
    t.learn_one(s.x, y, w);
  }
  return t;
}

TEST(VfdtObservations, ReplicationWeightsGrowTheTreeOneObservationAtATime) {
  const Vfdt unit = grown(true, 1.0, 4000), counted = grown(true, 6.0, 4000), weighted = grown(false, 6.0, 4000);
  // The merits are ratios of weighted moments, so scaling every weight by 6
  // leaves them unchanged: the same splits at the same observations.
  EXPECT_EQ(counted.n_nodes(), unit.n_nodes());
  test::FriedmanStream probe;
  probe.rng = Xorshift64(99);
  for (int i = 0; i < 200; ++i) {
    probe.next();
    EXPECT_NEAR(counted.predict_one(probe.x), unit.predict_one(probe.x), 1e-9 * (1.0 + std::abs(unit.predict_one(probe.x))));
  }
  // Counting the weight: the bound is sqrt(6) tighter and attempts come 6
  // times as often, so the tree splits more.
  EXPECT_GT(weighted.n_nodes(), counted.n_nodes() + 10) << "weighted " << weighted.n_nodes() << ", counted "
                                                        << counted.n_nodes();
}

TEST(VfdtObservations, CheckpointKeepsTheCountsAndOldRecordsAreUnchanged) {
  Vfdt a = grown(true, 3.0, 1500);
  ByteWriter w;
  a.encode(w);
  Vfdt b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r, a.config()).is_ok());
  EXPECT_TRUE(b.config().count_observations);
  test::FriedmanStream s;
  s.rng = Xorshift64(3);
  for (int i = 0; i < 1500; ++i) {
    const double y = s.next();
    ASSERT_EQ(a.learn_one(s.x, y, 3.0), b.learn_one(s.x, y, 3.0)) << i;
  }
  EXPECT_EQ(a.n_nodes(), b.n_nodes());
  // Every truncation is refused, never a crash.
  for (std::size_t cut = 0; cut < w.data().size(); cut += 97) {
    Vfdt c;
    ByteReader rc(std::span<const std::uint8_t>(w.data().data(), cut));
    EXPECT_FALSE(c.decode(rc, a.config()).is_ok()) << cut;
  }
  // Without the flag the config record is the one before it.
  ByteWriter plain, flagged;
  testing::encode_legacy(member_config(false), plain);
  testing::encode_legacy(member_config(true), flagged);
  ASSERT_EQ(plain.data().size(), flagged.data().size());
  HoeffdingTreeConfig back;
  ByteReader rp(plain.data());
  ASSERT_TRUE(back.decode(rp).is_ok());
  EXPECT_FALSE(back.count_observations);
}

}  // namespace
}  // namespace irithyll
