#include "histogram/histogram_pool.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace irithyll
