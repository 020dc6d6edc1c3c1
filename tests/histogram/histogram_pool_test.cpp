#include "histogram/histogram_pool.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

// Relative tolerance for lazy-vs-eager decay: both are the same products in a
// different order, so they agree to a few ulps per step.
constexpr double kDecayTol = 1e-12;

TEST(HistogramPool, LazyDecayEqualsEagerDecayAndCountsAreNotDecayed) {
  const double alpha = 0.97;
  HistogramPool pool;
  pool.configure(8);
  const std::uint32_t s = pool.acquire();
  std::vector<double> eg(8, 0.0), eh(8, 0.0);
  std::vector<std::uint64_t> ec(8, 0);
  Xorshift64 rng(5);
  for (int i = 0; i < 3000; ++i) {
    const auto b = static_cast<std::size_t>(rng.below(8));
    const double g = rng.normal(), h = rng.uniform();
    for (std::size_t k = 0; k < 8; ++k) {
      eg[k] *= alpha;
      eh[k] *= alpha;
    }
    eg[b] += g;
    eh[b] += h;
    ++ec[b];
    const double m = pool.decay_step(s, alpha);
    pool.bins(s)[b].g += g * m;
    pool.bins(s)[b].h += h * m;
    ++pool.bins(s)[b].count;
    if (i % 500 == 499) {
      for (std::size_t k = 0; k < 8; ++k) {
        EXPECT_NEAR(pool.bins(s)[k].g * pool.scale(s), eg[k], kDecayTol * (1.0 + std::abs(eg[k])));
        EXPECT_NEAR(pool.bins(s)[k].h * pool.scale(s), eh[k], kDecayTol * (1.0 + std::abs(eh[k])));
        EXPECT_EQ(pool.bins(s)[k].count, ec[k]);
      }
    }
  }
  // 3000 steps of 0.97 is 1e-40: no materialisation yet; force one.
  pool.materialize(s);
  EXPECT_EQ(pool.scale(s), 1.0);
  for (std::size_t k = 0; k < 8; ++k) EXPECT_NEAR(pool.bins(s)[k].g, eg[k], kDecayTol * (1.0 + std::abs(eg[k])));
}

TEST(HistogramPool, RenormalisesBelowThreshold) {
  HistogramPool pool;
  pool.configure(1);
  const std::uint32_t s = pool.acquire();
  double eager = 0.0;
  for (int i = 0; i < 400; ++i) {  // 0.5^400 ~ 1e-120 < 1e-100
    const double m = pool.decay_step(s, 0.5);
    EXPECT_GE(pool.scale(s), HistogramPool::kMaterializeBelow);
    pool.bins(s)[0].g += 1.0 * m;
    eager = 0.5 * eager + 1.0;
  }
  EXPECT_NEAR(pool.bins(s)[0].g * pool.scale(s), eager, 1e-12);
}

TEST(HistogramPool, ReleasedSlabsAreReusedZeroed) {
  HistogramPool pool;
  pool.configure(3);
  const std::uint32_t a = pool.acquire();
  pool.bins(a)[1].g = 5.0;
  pool.release(a);
  EXPECT_FALSE(pool.owns(a));
  const std::uint32_t b = pool.acquire();
  EXPECT_EQ(a, b);
  EXPECT_EQ(pool.bins(b)[1].g, 0.0);
  EXPECT_EQ(pool.n_slabs(), 1u);
}

TEST(HistogramPool, EncodeDecodeRoundTripAndTruncation) {
  HistogramPool pool;
  pool.configure(4);
  const std::uint32_t a = pool.acquire();
  pool.acquire();
  pool.bins(a)[2].g = 1.5;
  pool.release(a);
  ByteWriter w;
  pool.encode(w);
  HistogramPool d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.n_slabs(), 2u);
  EXPECT_EQ(d.live_slabs(), 1u);
  for (std::size_t cut = 0; cut < w.size(); cut += 7) {
    HistogramPool t;
    ByteReader tr(std::span<const std::uint8_t>(w.data()).first(cut));
    EXPECT_FALSE(t.decode(tr).is_ok()) << cut;
  }
}

// Bytes of `pool` in the dense layout every build before the sparse one
// wrote: bins, slab count, scales, every bin (g, h, count), the free list.
std::vector<std::uint8_t> dense_bytes(const HistogramPool& pool) {
  ByteWriter w;
  const std::size_t k = pool.bins_per_slab() + 1;
  w.u64(pool.bins_per_slab());
  w.u64(pool.n_slabs());
  for (std::uint32_t s = 0; s < pool.n_slabs(); ++s) w.f64(pool.scale(s));
  for (std::uint32_t s = 0; s < pool.n_slabs(); ++s)
    for (std::size_t i = 0; i < k; ++i) {
      w.f64(pool.bins(s)[i].g);
      w.f64(pool.bins(s)[i].h);
      w.u64(pool.bins(s)[i].count);
    }
  std::vector<std::uint32_t> free;
  for (std::uint32_t s = 0; s < pool.n_slabs(); ++s)
    if (!pool.owns(s)) free.push_back(s);
  w.u64(free.size());
  for (auto f : free) w.u32(f);
  return w.take();
}

bool same_bits(const HistogramPool& a, const HistogramPool& b) {
  if (a.n_slabs() != b.n_slabs() || a.bins_per_slab() != b.bins_per_slab()) return false;
  for (std::uint32_t s = 0; s < a.n_slabs(); ++s) {
    if (a.owns(s) != b.owns(s) || std::bit_cast<std::uint64_t>(a.scale(s)) != std::bit_cast<std::uint64_t>(b.scale(s)))
      return false;
    for (std::size_t i = 0; i <= a.bins_per_slab(); ++i) {
      const GradBin &x = a.bins(s)[i], &y = b.bins(s)[i];
      if (std::bit_cast<std::uint64_t>(x.g) != std::bit_cast<std::uint64_t>(y.g) ||
          std::bit_cast<std::uint64_t>(x.h) != std::bit_cast<std::uint64_t>(y.h) || x.count != y.count)
        return false;
    }
  }
  return true;
}

// A pool like a young tree's: 40 slabs of 20 bins, a few bins filled per
// slab, one decayed scale, a -0.0 (not zero bit for bit), a freed slab.
HistogramPool sample_pool() {
  HistogramPool pool;
  pool.configure(19);
  Xorshift64 rng(3);
  for (int s = 0; s < 40; ++s) {
    const std::uint32_t slab = pool.acquire();
    for (int j = 0; j < 3; ++j) {
      GradBin& b = pool.bins(slab)[rng.next_u64() % 20];
      b.g += rng.uniform() - 0.5;
      b.h += 1.0;
      ++b.count;
    }
  }
  pool.decay_step(5, 0.5);  // h no longer equal to the count: written out
  pool.bins(7)[19].g = -0.0;
  pool.bins(3)[0].count = (1ull << 40) + 5;  // a five-byte varint
  pool.bins(3)[0].h = static_cast<double>(pool.bins(3)[0].count);
  pool.release(11);
  return pool;
}

TEST(HistogramPool, SparseLayoutRoundTripsBitForBitAndIsSmaller) {
  const HistogramPool pool = sample_pool();
  ByteWriter w;
  pool.encode(w);
  const auto dense = dense_bytes(pool);
  EXPECT_LT(w.size() * 4, dense.size()) << "sparse " << w.size() << " vs dense " << dense.size();
  HistogramPool d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok()) << r.status().to_string();
  EXPECT_TRUE(r.at_end());
  EXPECT_TRUE(same_bits(pool, d));
  ByteWriter again;
  d.encode(again);
  EXPECT_EQ(again.data(), w.data());
}

// Files written before the sparse layout still decode, to the same pool.
TEST(HistogramPool, DenseLayoutStillDecodes) {
  const HistogramPool pool = sample_pool();
  const auto dense = dense_bytes(pool);
  HistogramPool d;
  ByteReader r(dense);
  ASSERT_TRUE(d.decode(r).is_ok()) << r.status().to_string();
  EXPECT_TRUE(r.at_end());
  EXPECT_TRUE(same_bits(pool, d));
}

// Builds before the sparse layout left a freed slab's bins in place and
// wrote them out. Decoding clears them: the slab comes back zero from
// acquire(), and the pool re-encodes as one that never held them.
TEST(HistogramPool, DenseLayoutsStaleFreeSlabsDecodeZero) {
  const HistogramPool pool = sample_pool();
  auto dense = dense_bytes(pool);
  const std::size_t k = pool.bins_per_slab() + 1;
  const std::size_t at = 16 + 8 * pool.n_slabs() + 11 * k * 24;  // slab 11's first g
  ByteWriter stale;
  stale.f64(3.5);
  std::copy(stale.data().begin(), stale.data().end(), dense.begin() + static_cast<std::ptrdiff_t>(at));
  HistogramPool d;
  ByteReader r(dense);
  ASSERT_TRUE(d.decode(r).is_ok()) << r.status().to_string();
  ByteWriter want, got;
  pool.encode(want);
  d.encode(got);
  EXPECT_EQ(got.data(), want.data());
  ASSERT_EQ(d.acquire(), 11u);
  for (std::size_t i = 0; i < k; ++i) {
    EXPECT_EQ(d.bins(11)[i].g, 0.0) << i;
    EXPECT_EQ(d.bins(11)[i].count, 0u) << i;
  }
}

// Hostile sparse bytes: a bitmap bit past the slab, a marked bin that is
// zero, and a slab count the bitmaps cannot fit in the bytes left (which
// must be refused before anything is allocated).
TEST(HistogramPool, SparseLayoutRefusesInconsistentBitmaps) {
  HistogramPool pool;
  pool.configure(4);  // 5 bins a slab: one bitmap byte, bits 5-7 unused
  pool.bins(pool.acquire())[1].g = 2.0;
  ByteWriter w;
  pool.encode(w);
  auto bytes = w.take();
  const std::size_t bitmap_at = 8 + 8 + 8 + 8;  // bins, count, one scale, free count
  ASSERT_EQ(bytes[bitmap_at], 0x02);
  auto past = bytes;
  past[bitmap_at] |= 0x80;
  HistogramPool d;
  ByteReader r1(past);
  EXPECT_EQ(d.decode(r1).code(), StatusCode::kCorruption);
  // Bin 1 follows the bitmap: tag 1 (h is the count, 0), g = 2.0, count 0.
  ASSERT_EQ(bytes[bitmap_at + 1], 1);
  auto zero = bytes;
  for (std::size_t i = bitmap_at + 2; i < bitmap_at + 10; ++i) zero[i] = 0;
  ByteReader r2(zero);
  EXPECT_EQ(d.decode(r2).code(), StatusCode::kCorruption);
  auto tag = bytes;
  tag[bitmap_at + 1] = 2;
  ByteReader r4(tag);
  EXPECT_EQ(d.decode(r4).code(), StatusCode::kCorruption);
  auto endless = bytes;  // a count varint that never ends within 64 bits
  endless.resize(bitmap_at + 10);
  for (int i = 0; i < 11; ++i) endless.push_back(0xFF);
  ByteReader r5(endless);
  EXPECT_EQ(d.decode(r5).code(), StatusCode::kCorruption);
  ByteWriter huge;
  huge.u64((1ull << 63) | 0xFFFFFFFEull);  // 2^32 - 1 bins a slab
  huge.u64(4);
  for (int i = 0; i < 4; ++i) huge.f64(1.0);
  huge.u64(0);
  ByteReader r3(huge.data());
  EXPECT_EQ(d.decode(r3).code(), StatusCode::kCorruption);
  EXPECT_EQ(d.n_slabs(), 0u);  // nothing adopted
}

}  // namespace
}  // namespace irithyll
