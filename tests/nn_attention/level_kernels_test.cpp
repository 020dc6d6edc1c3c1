// The dispatched log-linear level kernels (AVX2 fused sweeps where the CPU
// has AVX2 and FMA) agree with their step-by-step references: random level
// stacks, sparse and full masks, bits above n_levels, a zero level weight,
// both transitions (Mamba-2's scalar decay and Gated DeltaNet's delta rule),
// and shapes with full 4-wide chunks, masked tails and odd d_key. Repeated
// steps are compared, so a slip that needs history to show cannot hide.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/attention/level_kernels.hpp"

namespace irithyll::nn::attn {
namespace {

// Entries are O(1) sums of ~16 products per level and step; the fused forms
// reorder a few roundings per step (FMA, the level weight applied once), so
// after kSteps steps the paths stay within a few hundred ulps of 1.
constexpr double kTol = 1e-12;
constexpr int kSteps = 20;

std::vector<double> draw(Xorshift64& rng, std::size_t n, double scale = 1.0) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.normal() * scale;
  return v;
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], kTol) << what << " at " << i;
}

struct Shape {
  std::size_t dk, dv;
};
// One to four 4-wide chunks per group, with and without a masked tail, and
// more than one group.
const Shape kShapes[] = {{16, 16}, {4, 4}, {3, 5}, {16, 13}, {1, 9}, {7, 24}, {5, 1}, {2, 35}};
constexpr std::uint32_t kLevels = 6;
// Level 0 is always active (the paper step writes there); bit 7 lies above kLevels.
const std::uint64_t kMasks[] = {0x1, 0x3, 0x15, 0x3f, 0x81 | 0x4};

TEST(LevelKernels, BackendNamed) {
  const std::string b = level_kernels_backend();
  EXPECT_TRUE(b == "avx2" || b == "scalar");
}

TEST(LevelKernels, ReadMatchesReference) {
  Xorshift64 rng(31);
  for (const Shape sh : kShapes) {
    for (const std::uint64_t mask : kMasks) {
      const auto levels = draw(rng, kLevels * sh.dk * sh.dv), q = draw(rng, sh.dk);
      auto lambda = draw(rng, kLevels);
      lambda[2] = 0.0;
      std::vector<double> o1(sh.dv), o2(sh.dv);
      levels_read(levels.data(), mask, kLevels, sh.dk, sh.dv, lambda.data(), q.data(), o1.data());
      levels_read_ref(levels.data(), mask, kLevels, sh.dk, sh.dv, lambda.data(), q.data(), o2.data());
      expect_close(o1, o2, "read");
    }
  }
}

TEST(LevelKernels, PaperStepMatchesReference) {
  Xorshift64 rng(32);
  for (const Shape sh : kShapes) {
    for (const std::uint64_t mask : kMasks) {
      for (const bool delta : {false, true}) {
        auto s1 = draw(rng, kLevels * sh.dk * sh.dv), s2 = s1;
        std::vector<double> o1(sh.dv), o2(sh.dv), u(sh.dv);
        for (int t = 0; t < kSteps; ++t) {
          auto kh = draw(rng, sh.dk);
          if (delta) {  // unit key, as the Gated DeltaNet variant writes
            double ss = 0.0;
            for (double e : kh) ss += e * e;
            for (double& e : kh) e /= std::sqrt(ss);
          }
          const auto v = draw(rng, sh.dv), q = draw(rng, sh.dk);
          auto lambda = draw(rng, kLevels);
          if (t % 4 == 1) lambda[0] = 0.0;
          const double alpha = 0.8 + 0.19 * rng.uniform(), erase = delta ? rng.uniform() : 0.0;
          const double write = delta ? erase : 0.1 + rng.uniform();
          paper_step(s1.data(), mask, kLevels, sh.dk, sh.dv, alpha, erase, kh.data(), write, v.data(), lambda.data(),
                     q.data(), o1.data(), u.data());
          paper_step_ref(s2.data(), mask, kLevels, sh.dk, sh.dv, alpha, erase, kh.data(), write, v.data(),
                         lambda.data(), q.data(), o2.data(), u.data());
          const std::string what = std::string(delta ? "delta" : "decay") + " dk " + std::to_string(sh.dk) + " dv " +
                                   std::to_string(sh.dv) + " mask " + std::to_string(mask);
          expect_close(s1, s2, what + " state");
          expect_close(o1, o2, what + " readout");
        }
      }
    }
  }
}

}  // namespace
}  // namespace irithyll::nn::attn
