// HistogramPool storage: compaction keeps every live slab's contents and scale
// while renumbering references, growth leaves little slack, release_memory
// gives everything back, and an empty pool with a large bin layout (what a
// reset tree used to checkpoint) decodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "histogram/histogram_pool.hpp"

namespace irithyll {
namespace {

// Fills slab s with values derived from `tag` so moves can be checked.
void stamp(HistogramPool& p, std::uint32_t s, double tag) {
  for (std::size_t i = 0; i <= p.bins_per_slab(); ++i) {
    p.bins(s)[i].g = tag + static_cast<double>(i);
    p.bins(s)[i].h = -tag;
    p.bins(s)[i].count = static_cast<std::uint64_t>(tag) * 1000 + i;
  }
}

bool has_stamp(const HistogramPool& p, std::uint32_t s, double tag) {
  for (std::size_t i = 0; i <= p.bins_per_slab(); ++i) {
    const GradBin& b = p.bins(s)[i];
    if (b.g != tag + static_cast<double>(i) || b.h != -tag || b.count != static_cast<std::uint64_t>(tag) * 1000 + i)
      return false;
  }
  return true;
}

TEST(HistogramPoolMemory, CompactMovesLiveSlabsDownAndRenumbersReferences) {
  HistogramPool pool;
  pool.configure(7);
  std::vector<std::uint32_t> refs;
  for (int i = 0; i < 9; ++i) refs.push_back(pool.acquire());
  for (std::uint32_t s = 0; s < 9; ++s) stamp(pool, s, 10.0 + s);
  (void)pool.decay_step(5, 0.5);  // a non-unit scale must travel with its slab
  // Free slabs 0, 2, 3 and 7 (released out of order), keep the rest.
  for (std::uint32_t s : {3u, 0u, 7u, 2u}) {
    pool.release(s);
    refs[s] = HistogramPool::kNone;
  }
  refs.push_back(HistogramPool::kNone);
  pool.compact(refs);
  EXPECT_EQ(pool.n_slabs(), 5u);
  EXPECT_EQ(pool.live_slabs(), 5u);
  EXPECT_EQ(pool.free_slabs(), 0u);
  EXPECT_EQ(pool.capacity_slabs(), 5u);
  const std::uint32_t old_live[] = {1, 4, 5, 6, 8};
  for (std::uint32_t old : old_live) {
    ASSERT_LT(refs[old], 5u);
    EXPECT_TRUE(has_stamp(pool, refs[old], 10.0 + old)) << "slab " << old;
  }
  EXPECT_EQ(pool.scale(refs[5]), 0.5);
  EXPECT_EQ(pool.scale(refs[4]), 1.0);
  EXPECT_EQ(refs[0], HistogramPool::kNone);
  EXPECT_EQ(refs[9], HistogramPool::kNone);
  // Acquiring after a compaction appends and zero-fills.
  const std::uint32_t s = pool.acquire();
  EXPECT_EQ(s, 5u);
  EXPECT_EQ(pool.total(s).count, 0u);
  EXPECT_TRUE(has_stamp(pool, refs[8], 18.0));
}

TEST(HistogramPoolMemory, CompactingAnAllFreePoolReleasesEverything) {
  HistogramPool pool;
  pool.configure(100);
  std::vector<std::uint32_t> refs;
  for (int i = 0; i < 6; ++i) refs.push_back(pool.acquire());
  for (std::uint32_t& r : refs) {
    pool.release(r);
    r = HistogramPool::kNone;
  }
  const std::size_t held = pool.memory_bytes();
  pool.compact(refs);
  EXPECT_EQ(pool.n_slabs(), 0u);
  EXPECT_LT(pool.memory_bytes(), held - 5 * 101 * sizeof(GradBin));
}

TEST(HistogramPoolMemory, GrowthSlackStaysWithinAQuarter) {
  HistogramPool pool;
  pool.configure(63);
  for (std::size_t n = 1; n <= 64; ++n) {
    (void)pool.acquire();
    EXPECT_LE(pool.capacity_slabs(), n + std::max<std::size_t>(n / 4, 2)) << n << " slabs";
  }
}

TEST(HistogramPoolMemory, ReleaseMemoryDropsLayoutAndStorage) {
  HistogramPool pool;
  pool.configure(50);
  for (int i = 0; i < 4; ++i) (void)pool.acquire();
  pool.release_memory();
  EXPECT_EQ(pool.bins_per_slab(), 0u);
  EXPECT_EQ(pool.n_slabs(), 0u);
  EXPECT_EQ(pool.memory_bytes(), sizeof(HistogramPool));
}

// Regression: an empty pool that keeps a 193-bin layout used to fail to decode
// when fewer than 193 x 24 bytes followed it ("slab size exceeds the bytes
// left"), so some valid SGBT checkpoints did not load.
TEST(HistogramPoolMemory, EmptyPoolWithLargeLayoutDecodesNearTheEnd) {
  HistogramPool pool;
  pool.configure(192);
  ByteWriter w;
  pool.encode(w);
  w.u32(7);  // a few trailing bytes, far fewer than one slab
  HistogramPool back;
  ByteReader r(w.data());
  ASSERT_TRUE(back.decode(r).is_ok());
  EXPECT_EQ(back.bins_per_slab(), 192u);
  EXPECT_EQ(back.n_slabs(), 0u);
  EXPECT_EQ(r.u32("tail"), 7u);
  // Hostile: slabs claimed but not present still fail cleanly.
  ByteWriter h;
  h.u64(192);
  h.u64(1);
  h.f64(1.0);
  HistogramPool bad;
  ByteReader hr(h.data());
  EXPECT_FALSE(bad.decode(hr).is_ok());
}

}  // namespace
}  // namespace irithyll
