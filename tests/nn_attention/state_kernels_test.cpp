// The dispatched per-head state kernels (AVX-512 or AVX2 fused sweeps where
// the CPU has them) agree with their step-by-step references on random states and
// shapes that exercise full 8-wide chunks, masked tails and odd d_key, with
// and without the readout. Repeated updates are compared too, so a slip that
// only shows once the state has history cannot hide.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/attention/state_kernels.hpp"

namespace irithyll::nn::attn {
namespace {

// Entries are O(1) sums of at most ~16 products per step; fused FMAs and the
// folded gate reorder a few roundings per step, so after kStateSteps updates the
// two paths stay within a few hundred ulps of 1.
constexpr double kStateTol = 1e-13;
constexpr int kStateSteps = 20;

std::vector<double> state_draw(Xorshift64& rng, std::size_t n, double scale = 1.0) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.normal() * scale;
  return v;
}

std::vector<double> unit(std::vector<double> k) {
  double ss = 0.0;
  for (double e : k) ss += e * e;
  for (double& e : k) e /= std::sqrt(ss);
  return k;
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], kStateTol) << what << " at " << i;
}

struct StateShape {
  std::size_t dk, dv;
};
// Column groups of up to four 8-wide chunks: one chunk, two, three, a full
// group of four plus a partial one, each with and without a masked tail.
// 13 and 29 leave four chunks with a partial last one (AVX2 and AVX-512 widths).
const StateShape kStateShapes[] = {{16, 16}, {4, 4}, {3, 5}, {16, 13}, {1, 9}, {7, 24}, {5, 1},
                         {6, 32}, {5, 41}, {2, 70}, {3, 29}, {4, 15}};

TEST(StateKernels, BackendNamed) {
  const std::string b = state_kernels_backend();
  EXPECT_TRUE(b == "avx512" || b == "avx2" || b == "scalar");
}

TEST(StateKernels, DecayWriteReadMatchesReference) {
  Xorshift64 rng(21);
  for (const StateShape sh : kStateShapes) {
    for (std::size_t stride : {0u, 1u}) {
      auto s1 = state_draw(rng, sh.dk * sh.dv), s2 = s1;
      std::vector<double> o1(sh.dv), o2(sh.dv);
      for (int t = 0; t < kStateSteps; ++t) {
        auto a = state_draw(rng, sh.dk, 0.1);
        for (double& e : a) e = 0.9 + e * 0.1;
        const auto k = state_draw(rng, sh.dk), v = state_draw(rng, sh.dv), q = state_draw(rng, sh.dk);
        const bool with_read = t % 3 != 0;
        decay_write_read(s1.data(), a.data(), stride, k.data(), v.data(), with_read ? q.data() : nullptr, o1.data(),
                         sh.dk, sh.dv);
        decay_write_read_ref(s2.data(), a.data(), stride, k.data(), v.data(), with_read ? q.data() : nullptr,
                             o2.data(), sh.dk, sh.dv);
        expect_close(s1, s2, "state");
        if (with_read) expect_close(o1, o2, "readout");
      }
      std::vector<double> r1(sh.dv), r2(sh.dv);
      const auto q = state_draw(rng, sh.dk);
      read(s1.data(), q.data(), r1.data(), sh.dk, sh.dv);
      read_ref(s1.data(), q.data(), r2.data(), sh.dk, sh.dv);
      expect_close(r1, r2, "read");
    }
  }
}

TEST(StateKernels, DeltaRuleMatchesReference) {
  Xorshift64 rng(22);
  for (const StateShape sh : kStateShapes) {
    for (double g : {1.0, 0.73}) {
      auto s1 = state_draw(rng, sh.dk * sh.dv, 0.3), s2 = s1;
      std::vector<double> o1(sh.dv), o2(sh.dv), u(sh.dv);
      for (int t = 0; t < kStateSteps; ++t) {
        const auto kh = unit(state_draw(rng, sh.dk));
        const auto v = state_draw(rng, sh.dv), q = state_draw(rng, sh.dk);
        const double beta = 0.2 + 1.6 * rng.uniform();  // reflections reach (0, 2)
        const bool with_read = t % 3 != 0;
        delta_write_read(s1.data(), g, kh.data(), v.data(), beta, with_read ? q.data() : nullptr, o1.data(), sh.dk,
                         sh.dv, u.data());
        delta_write_read_ref(s2.data(), g, kh.data(), v.data(), beta, with_read ? q.data() : nullptr, o2.data(),
                             sh.dk, sh.dv, u.data());
        expect_close(s1, s2, "state");
        if (with_read) expect_close(o1, o2, "readout");
      }
    }
  }
}

TEST(StateKernels, Rwkv7MatchesReference) {
  Xorshift64 rng(23);
  for (const StateShape sh : kStateShapes) {
    auto s1 = state_draw(rng, sh.dk * sh.dv, 0.3), s2 = s1;
    std::vector<double> o1(sh.dv), o2(sh.dv), u(sh.dv);
    for (int t = 0; t < kStateSteps; ++t) {
      const auto kh = unit(state_draw(rng, sh.dk));
      std::vector<double> w(sh.dk), kt(sh.dk), r(sh.dk);
      for (std::size_t i = 0; i < sh.dk; ++i) {
        w[i] = 0.6 + 0.4 * rng.uniform();
        const double a = rng.uniform();
        kt[i] = rng.normal() * (1.0 + 0.5 * (a - 1.0));
        r[i] = a * kh[i];
      }
      const auto v = state_draw(rng, sh.dv), q = state_draw(rng, sh.dk);
      const bool with_read = t % 3 != 0;
      rwkv7_write_read(s1.data(), w.data(), kh.data(), kt.data(), r.data(), v.data(), with_read ? q.data() : nullptr,
                       o1.data(), sh.dk, sh.dv, u.data());
      rwkv7_write_read_ref(s2.data(), w.data(), kh.data(), kt.data(), r.data(), v.data(),
                           with_read ? q.data() : nullptr, o2.data(), sh.dk, sh.dv, u.data());
      expect_close(s1, s2, "state");
      if (with_read) expect_close(o1, o2, "readout");
    }
  }
}

// Kernels touch exactly the d_key x d_value block and d_value outputs: the
// masked tails must not write past either.
TEST(StateKernels, WritesStayInsideTheirArrays) {
  Xorshift64 rng(24);
  for (const StateShape sh : kStateShapes) {
    const std::size_t n = sh.dk * sh.dv;
    auto s = state_draw(rng, n + 8);
    std::vector<double> o(sh.dv + 8, 5.0), u(sh.dv);
    const auto k = unit(state_draw(rng, sh.dk)), v = state_draw(rng, sh.dv), q = state_draw(rng, sh.dk);
    const std::vector<double> guard(s.begin() + static_cast<std::ptrdiff_t>(n), s.end());
    const double a = 0.9;
    decay_write_read(s.data(), &a, 0, k.data(), v.data(), q.data(), o.data(), sh.dk, sh.dv);
    delta_write_read(s.data(), 0.8, k.data(), v.data(), 0.5, q.data(), o.data(), sh.dk, sh.dv, u.data());
    const std::vector<double> w(sh.dk, 0.7), r(sh.dk, 0.2);
    rwkv7_write_read(s.data(), w.data(), k.data(), k.data(), r.data(), v.data(), q.data(), o.data(), sh.dk, sh.dv,
                     u.data());
    read(s.data(), q.data(), o.data(), sh.dk, sh.dv);
    for (std::size_t i = 0; i < 8; ++i) {
      EXPECT_EQ(s[n + i], guard[i]);
      EXPECT_EQ(o[sh.dv + i], 5.0);
    }
  }
}

}  // namespace
}  // namespace irithyll::nn::attn
