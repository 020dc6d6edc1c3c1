#include "nn/ssm/selective_ssm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/scan_kernels.hpp"

namespace irithyll::nn {
namespace {

// The AVX2 scan fuses multiply-adds and sums in 4 lanes; over N <= 64 terms of
// magnitude O(1) that moves results by a few ulps of the largest term.
constexpr double kFastVsRefTol = 1e-12;

std::vector<double> ssm_random_vec(Xorshift64& rng, std::size_t n, double scale = 1.0) {
  std::vector<double> v(n);
  for (double& x : v) x = scale * rng.normal();
  return v;
}

TEST(ScanKernels, FastMatchesReference) {
  Xorshift64 rng(5);
  for (std::size_t n : {1u, 3u, 4u, 7u, 16u, 33u}) {
    const std::size_t d = 5;
    auto h1 = ssm_random_vec(rng, d * n), alpha = ssm_random_vec(rng, n), bb = ssm_random_vec(rng, n), c = ssm_random_vec(rng, n);
    auto x = ssm_random_vec(rng, d), skip = ssm_random_vec(rng, d);
    auto h2 = h1;
    std::vector<double> y1(d), y2(d), y3(d);
    detail::scan_update_ref(h1.data(), alpha.data(), bb.data(), c.data(), x.data(), skip.data(), y1.data(), d, n);
    detail::scan_peek(h2.data(), alpha.data(), bb.data(), c.data(), x.data(), skip.data(), y3.data(), d, n);
    detail::scan_update(h2.data(), alpha.data(), bb.data(), c.data(), x.data(), skip.data(), y2.data(), d, n);
    for (std::size_t i = 0; i < d; ++i) {
      EXPECT_NEAR(y1[i], y2[i], kFastVsRefTol) << "n=" << n;
      EXPECT_NEAR(y3[i], y2[i], kFastVsRefTol);
    }
    for (std::size_t i = 0; i < h1.size(); ++i) EXPECT_NEAR(h1[i], h2[i], kFastVsRefTol);
  }
}

TEST(SelectiveSsm, ShapesAndZeroInZeroOut) {
  SelectiveSsm ssm({.d_in = 4, .n_state = 8, .seed = 1});
  EXPECT_EQ(ssm.state().size(), 32u);
  EXPECT_EQ(ssm.output_dim(), 4u);
  std::vector<double> x(4, 0.0), y(4, 1.0);
  for (int t = 0; t < 10; ++t) ssm.forward(x, y);
  for (double v : y) EXPECT_EQ(v, 0.0);
  for (double v : ssm.state()) EXPECT_EQ(v, 0.0);
}

TEST(SelectiveSsm, MakeRejectsBadConfig) {
  EXPECT_FALSE(SelectiveSsm::make({.d_in = 0}).is_ok());
  EXPECT_FALSE(SelectiveSsm::make({.d_in = 2, .n_state = 0}).is_ok());
  EXPECT_FALSE(SelectiveSsm::make({.d_in = 2, .n_state = 2, .seed = 1, .weight_scale = 0.1, .dt_init = -1.0}).is_ok());
  EXPECT_TRUE(SelectiveSsm::make({.d_in = 2, .n_state = 2}).is_ok());
}

TEST(SelectiveSsm, PredictIsPureAndEqualsForward) {
  SelectiveSsm ssm({.d_in = 6, .n_state = 16, .seed = 9});
  Xorshift64 rng(2);
  std::vector<double> y1(6), y2(6);
  for (int t = 0; t < 100; ++t) {
    auto x = ssm_random_vec(rng, 6);
    const std::vector<double> before(ssm.state().begin(), ssm.state().end());
    ssm.forward_predict(x, y1);
    EXPECT_TRUE(std::equal(before.begin(), before.end(), ssm.state().begin()));
    ssm.forward(x, y2);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(y1[i], y2[i]);
  }
}

TEST(SelectiveSsm, FastPathMatchesReferencePath) {
  SelectiveSsm a({.d_in = 16, .n_state = 16, .seed = 4}), b({.d_in = 16, .n_state = 16, .seed = 4});
  Xorshift64 rng(8);
  std::vector<double> ya(16), yb(16);
  for (int t = 0; t < 200; ++t) {
    auto x = ssm_random_vec(rng, 16);
    a.forward(x, ya);
    b.forward_ref(x, yb);
    for (int i = 0; i < 16; ++i) ASSERT_NEAR(ya[i], yb[i], 1e-10);
  }
}

TEST(SelectiveSsm, StateBoundedOverLongRun) {
  SelectiveSsm ssm({.d_in = 8, .n_state = 16, .seed = 3});
  Xorshift64 rng(1);
  std::vector<double> y(8);
  double max_abs = 0.0;
  for (int t = 0; t < 5000; ++t) {
    auto x = ssm_random_vec(rng, 8, 3.0);
    ssm.forward(x, y);
    for (double v : ssm.state()) max_abs = std::max(max_abs, std::abs(v));
  }
  EXPECT_TRUE(std::isfinite(max_abs));
  EXPECT_LT(max_abs, 1e3);
}

TEST(SelectiveSsm, ResetAndDeterminismAndRoundTrip) {
  SelectiveSsm a({.d_in = 3, .n_state = 5, .seed = 77}), b({.d_in = 3, .n_state = 5, .seed = 77});
  Xorshift64 rng(4);
  std::vector<double> ya(3), yb(3);
  for (int t = 0; t < 20; ++t) {
    auto x = ssm_random_vec(rng, 3);
    a.forward(x, ya);
    b.forward(x, yb);
    EXPECT_EQ(ya, yb);
  }
  ByteWriter w;
  a.encode(w);
  // A block built with other settings than the record's refuses it.
  SelectiveSsm other({.d_in = 3, .n_state = 5, .seed = 78});
  ByteReader ro(w.data());
  EXPECT_FALSE(other.decode(ro).is_ok());
  SelectiveSsm c(a.config());  // built with the settings that wrote the record
  ByteReader r(w.data());
  ASSERT_TRUE(c.decode(r).is_ok());
  auto x = ssm_random_vec(rng, 3);
  std::vector<double> yc(3);
  a.forward(x, ya);
  c.forward(x, yc);
  EXPECT_EQ(ya, yc);
  a.reset();
  for (double v : a.state()) EXPECT_EQ(v, 0.0);
  // Truncated bytes fail cleanly.
  for (std::size_t cut = 0; cut < w.size(); cut += 7) {
    ByteReader rt(std::span(w.data()).first(cut));
    SelectiveSsm d(a.config());
    EXPECT_FALSE(d.decode(rt).is_ok());
  }
}

}  // namespace
}  // namespace irithyll::nn
