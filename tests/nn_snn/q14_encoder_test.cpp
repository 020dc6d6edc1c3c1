#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/snn/astrocyte_gate.hpp"
#include "nn/snn/delta_encoder.hpp"
#include "nn/snn/eprop_kernels.hpp"
#include "nn/snn/q14.hpp"

namespace irithyll::nn {
namespace {

TEST(Q14, MultiplyRoundsToNearestSymmetrically) {
  EXPECT_EQ(q14::mul(16384, 16384), 16384);
  EXPECT_EQ(q14::mul(8192, 3), 2);    // 1.5 rounds up
  EXPECT_EQ(q14::mul(-8192, 3), -1);  // -1.5 rounds up (ties toward +inf)
  EXPECT_EQ(q14::mul(-1, 100), 0);    // a floor (>> 14) would give -1: the bias we remove
  EXPECT_EQ(q14::sat16(40000), 32767);
  EXPECT_EQ(q14::sat16(-40000), -32768);
  EXPECT_EQ(q14::to_q14(0.5), 8192);
  EXPECT_EQ(q14::to_q14(100.0), 32767);
  EXPECT_EQ(q14::to_q14(-100.0), -32768);
}

TEST(Q14, LifFiresWithSubtractResetAndClamps) {
  auto r = q14::lif_step(0, 15565, 9000, 8192);
  EXPECT_TRUE(r.spike);
  EXPECT_EQ(r.v, 9000 - 8192);
  EXPECT_EQ(r.pre, 9000);
  r = q14::lif_step(1000, 15565, 100, 8192);
  EXPECT_FALSE(r.spike);
  EXPECT_EQ(r.v, q14::mul(1000, 15565) + 100);
  r = q14::lif_step(-30000, 16384, -30000, 8192);
  EXPECT_EQ(r.v, -32768);
  r = q14::lif_step(30000, 16384, 30000, 8192);
  EXPECT_TRUE(r.spike);
  EXPECT_EQ(r.v, 32767);  // 60000 - 8192 saturates
}

TEST(Q14, SurrogateIsATriangleAroundThreshold) {
  EXPECT_EQ(q14::surrogate(8192, 8192, 4915), 4915);
  EXPECT_EQ(q14::surrogate(0, 8192, 4915), 0);
  EXPECT_EQ(q14::surrogate(16384, 8192, 4915), 0);
  EXPECT_EQ(q14::surrogate(4096, 8192, 4915), 4915 / 2);
  EXPECT_EQ(q14::surrogate(12288, 8192, 4915), 4915 / 2);
  EXPECT_EQ(q14::surrogate(-32768, 8192, 4915), 0);
}

TEST(Q14, SurrogateByMultiplicationEqualsDivisionExhaustively) {
  for (std::int32_t thr : {1, 2, 3, 7, 1000, 8191, 8192, 12345, 32767}) {
    for (std::int32_t gamma : {0, 1, 4915, 16383}) {
      const std::uint64_t magic = q14::surrogate_magic(thr);
      for (std::int32_t v = -32768; v <= 32767; ++v) {
        const auto vv = static_cast<std::int16_t>(v);
        ASSERT_EQ(q14::surrogate(vv, thr, gamma), q14::surrogate_fast(vv, thr, gamma, magic)) << thr << " " << gamma << " " << v;
      }
    }
  }
}

TEST(DeltaEncoder, FirstCallSilentThenUpDownAndReferenceOnSpikeOnly) {
  std::vector<std::int16_t> ref(2, 0);
  std::uint64_t spikes[1] = {0};
  bool primed = false;
  std::int16_t x[2] = {1000, 1000};
  delta_encode(x, ref, primed, 819, spikes);
  EXPECT_EQ(spikes[0], 0u);
  EXPECT_TRUE(primed);
  x[0] = 1500, x[1] = 100;  // +500 (below threshold), -900 (DOWN on feature 1 = channel 3)
  delta_encode(x, ref, primed, 819, spikes);
  EXPECT_EQ(spikes[0], 1u << 3);
  x[0] = 1900;  // +900 from the unchanged reference 1000: UP on channel 0
  delta_encode(x, ref, primed, 819, spikes);
  EXPECT_EQ(spikes[0], 1u << 0);
  EXPECT_EQ(ref[0], 1900);
}

TEST(AstrocyteGate, SilentNeuronGetsDriveSaturatedOneIsHeldBack) {
  AstrocyteGateConfig c{1638, 4, 819};
  std::int16_t rate = 1638, drive = 0;
  for (int t = 0; t < 200; ++t) astrocyte_update(rate, drive, false, c, 8192);
  EXPECT_LT(rate, 100);
  EXPECT_GT(drive, 4000);
  EXPECT_LE(drive, 8192);
  rate = 1638, drive = 0;
  for (int t = 0; t < 200; ++t) astrocyte_update(rate, drive, true, c, 8192);
  EXPECT_GT(rate, 16000);
  EXPECT_EQ(drive, -8192);
}

TEST(EpropKernels, DispatchedRowIsBitExactWithReference) {
  Xorshift64 rng(5);
  for (std::size_t n : {1u, 15u, 16u, 17u, 64u, 100u}) {
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<std::int16_t> e(n), w(n), psi(n), l(n);
      auto r16 = [&] { return static_cast<std::int16_t>(static_cast<std::int64_t>(rng.below(65536)) - 32768); };
      for (std::size_t j = 0; j < n; ++j) e[j] = r16(), w[j] = r16(), psi[j] = static_cast<std::int16_t>(rng.below(16384)), l[j] = r16();
      auto e2 = e, w2 = w;
      // Kernel bounds: kappa in [1, 16383], eta in [0, 16383]; the extremes are hit on purpose.
      const auto tr = static_cast<std::int32_t>(trial == 0 ? -32768 : r16());
      const auto kappa = static_cast<std::int32_t>(trial == 1 ? 1 : trial == 2 ? 16383 : 1 + rng.below(16383));
      const auto eta = static_cast<std::int32_t>(trial == 3 ? 16383 : rng.below(16384));
      eprop_row_ref(e.data(), w.data(), psi.data(), l.data(), n, tr, kappa, eta);
      eprop_row(e2.data(), w2.data(), psi.data(), l.data(), n, tr, kappa, eta);
      ASSERT_EQ(e, e2) << "n=" << n;
      ASSERT_EQ(w, w2) << "n=" << n;
      std::vector<std::int32_t> acc(n, 7), acc2(n, 7);
      for (std::size_t j = 0; j < n; ++j) acc[j] += w[j];
      accumulate_row(acc2.data(), w.data(), n);
      ASSERT_EQ(acc, acc2);
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
