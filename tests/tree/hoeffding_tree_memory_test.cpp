// GradientTree storage: a tree that never learned holds no node or histogram
// storage, a full-grown tree gives its histograms back, reset() frees them,
// release_storage() returns the tree to its constructed size, and none of it
// changes what the tree learns (bit-identical to a fresh tree).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "tree/gradient_tree.hpp"

namespace irithyll {
namespace {

GradientTreeConfig config(std::uint32_t depth) {
  GradientTreeConfig c;
  c.grace_period = 50;
  c.n_bins = 32;
  c.max_depth = depth;
  c.delta = 0.01;
  return c;
}

// A target with structure on both features so every level can split.
double target(const double* x) { return (x[0] > 0.5 ? 2.0 : -1.0) + (x[1] > 0.3 ? 1.0 : 0.0) + 0.5 * x[2]; }

// Trains n samples from `seed`; returns the bit patterns of the pre-training
// leaf values (learn_one's return).
std::vector<std::uint64_t> train(GradientTree& t, std::uint64_t seed, int n) {
  Xorshift64 rng(seed);
  std::vector<std::uint64_t> out;
  double x[3];
  for (int i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    out.push_back(std::bit_cast<std::uint64_t>(t.learn_one(x, -target(x) + 0.2 * rng.normal(), 1.0)));
  }
  return out;
}

TEST(HoeffdingTreeMemory, UntrainedTreeHoldsOnlyItsObject) {
  const GradientTree t(config(6));
  // One root leaf: a few bytes per node vector, no 127-node reservation.
  EXPECT_LT(t.memory_bytes(), sizeof(GradientTree) + 256);
  EXPECT_EQ(t.histograms().n_slabs(), 0u);
}

TEST(HoeffdingTreeMemory, FullGrownTreeKeepsNoHistograms) {
  GradientTree t(config(2));
  (void)train(t, 1, 20000);
  ASSERT_EQ(t.n_leaves(), 4u) << "the stream should grow the tree to max_depth everywhere";
  EXPECT_EQ(t.histograms().live_slabs(), 0u);
  EXPECT_EQ(t.histograms().n_slabs(), 0u);
  EXPECT_EQ(t.histograms().capacity_slabs(), 0u);
}

TEST(HoeffdingTreeMemory, LiveSlabsMatchSplittableLeavesWithBoundedSlack) {
  GradientTree t(config(6));
  Xorshift64 rng(3);
  double x[3];
  for (int i = 0; i < 40000; ++i) {
    for (double& v : x) v = rng.uniform();
    t.learn_one(x, -target(x) + 0.2 * rng.normal(), 1.0);
    if (i % 997 != 0 || !t.edges_ready()) continue;
    std::size_t splittable = 0;
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n) splittable += t.is_leaf(n) && t.node_depth(n) < 6;
    const HistogramPool& p = t.histograms();
    ASSERT_EQ(p.live_slabs(), splittable) << i;
    // Free slabs exceed live ones by at most one between compactions;
    // capacity is within a quarter (at least 2) of the slabs allocated.
    EXPECT_LE(p.free_slabs(), p.live_slabs() + 1) << i;
    EXPECT_LE(p.capacity_slabs(), p.n_slabs() + std::max<std::size_t>(p.n_slabs() / 4, 2)) << i;
  }
}

TEST(HoeffdingTreeMemory, ResetAndReleaseLearnExactlyLikeAFreshTree) {
  GradientTree fresh(config(5));
  const std::vector<std::uint64_t> want = train(fresh, 9, 6000);

  GradientTree reused(config(5));
  (void)train(reused, 4, 6000);
  reused.reset();
  EXPECT_EQ(reused.histograms().n_slabs(), 0u);
  EXPECT_EQ(reused.histograms().capacity_slabs(), 0u);
  EXPECT_EQ(train(reused, 9, 6000), want);

  GradientTree released(config(5));
  (void)train(released, 4, 6000);
  released.release_storage();
  EXPECT_EQ(released.memory_bytes(), GradientTree(config(5)).memory_bytes());
  EXPECT_EQ(train(released, 9, 6000), want);

  ByteWriter a, b;
  fresh.encode(a);
  released.encode(b);
  EXPECT_EQ(a.data(), b.data());
}

TEST(HoeffdingTreeMemory, CheckpointOfACompactedTreeContinuesIdentically) {
  GradientTree t(config(4));
  (void)train(t, 5, 8000);
  ByteWriter w;
  t.encode(w);
  GradientTree back(t.config());
  ByteReader r(w.data());
  ASSERT_TRUE(back.decode(r).is_ok());
  EXPECT_EQ(train(back, 6, 4000), train(t, 6, 4000));
}

// Golden: hashes of every pre-training leaf value over 60,000 samples,
// recorded with the tree as it was before histogram compaction and lazy node
// reservation. Depths 3 and 5 grow to full trees (so slabs are freed and
// compacted many times, with live slabs renumbered); depth 7 stays partial.
TEST(HoeffdingTreeMemory, LeafValuesMatchThePreCompactionTree) {
  struct Case {
    std::uint32_t depth;
    std::uint64_t hash;
    std::size_t nodes;
  };
  const Case cases[] = {{3, 3840499052994353996ull, 15}, {5, 5728101250193158780ull, 63}, {7, 305589049918451401ull, 169}};
  for (const Case& k : cases) {
    GradientTreeConfig c = config(k.depth);
    c.tie_threshold = 0.2;
    GradientTree t(c);
    Xorshift64 rng(21);
    std::uint64_t h = 1469598103934665603ull;
    double x[4];
    for (int i = 0; i < 60000; ++i) {
      for (double& v : x) v = rng.uniform();
      const double y = (x[0] > 0.5 ? 2.0 : -1.0) + (x[1] > 0.3 ? 1.0 : 0.0) + 0.5 * x[2] + (x[3] > 0.7 ? 1.5 : 0.0) +
                       0.3 * rng.normal();
      std::uint64_t b = std::bit_cast<std::uint64_t>(t.learn_one(x, -y, 1.0));
      for (int j = 0; j < 8; ++j, b >>= 8) {
        h ^= b & 0xFF;
        h *= 1099511628211ull;
      }
    }
    EXPECT_EQ(h, k.hash) << "depth " << k.depth;
    EXPECT_EQ(t.n_nodes(), k.nodes) << "depth " << k.depth;
  }
}

}  // namespace
}  // namespace irithyll
