// FastWeightLayer: one step of W checked against steps worked by hand on
// d = m = 2 (identity projections, so k = v = q = x / |x| for |x| >= 1 or
// x itself below), for the plain, momentum, batch and prediction-directed
// rules, plus the guard and the output map.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "nn/ttt/fast_weights.hpp"

namespace irithyll::nn {
namespace {

constexpr double kTol = 1e-12;

void expect_w(const FastWeightLayer& l, std::vector<double> want) {
  ASSERT_EQ(l.w().size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(l.w()[i], want[i], kTol) << "entry " << i;
}

const std::vector<double> kW0 = {0.5, -1.0, 2.0, 0.25};
const std::vector<double> kX1 = {0.6, 0.8};  // unit length: k = v = q = x

TEST(FastWeights, IdentityProjectionsWhenSquare) {
  FastWeightLayer l(2, 2, 0.1, 0.0, false, 7);
  EXPECT_EQ(l.w_k()[0], 1.0);
  EXPECT_EQ(l.w_k()[1], 0.0);
  l.prepare(kX1);
  EXPECT_NEAR(l.k()[0], 0.6, kTol);
  EXPECT_NEAR(l.v()[1], 0.8, kTol);
  EXPECT_NEAR(l.q()[1], 0.8, kTol);
}

TEST(FastWeights, PlainReconstructionStepByHand) {
  // r = W k - (v - k) = W k = (-0.5, 1.4); G = clamp(r k') = [[-0.3, -0.4], [0.84, 1 (1.12 clamped)]];
  // W' = 0.9 W - 0.1 G.
  FastWeightLayer l(2, 2, 0.1, 0.0, false, 7);
  l.set_w(kW0);
  l.prepare(kX1);
  l.step(0.1, false, 0.0);
  expect_w(l, {0.48, -0.86, 1.716, 0.125});
}

TEST(FastWeights, MomentumTwoStepsByHand) {
  // Step 1: S = -0.1 G1 = [[0.03, 0.04], [-0.084, -0.1]], W1 = 0.9 W0 + S (as plain).
  // Step 2: W1 k = (-0.4, 1.1296), G2 = [[-0.24, -0.32], [0.67776, 0.90368]],
  // S2 = 0.5 S - 0.1 G2, W2 = 0.9 W1 + S2.
  FastWeightLayer l(2, 2, 0.1, 0.5, false, 7);
  l.set_w(kW0);
  l.prepare(kX1);
  l.step(0.1, false, 0.0);
  expect_w(l, {0.48, -0.86, 1.716, 0.125});
  l.step(0.1, false, 0.0);
  expect_w(l, {0.471, -0.722, 1.434624, -0.027868});
  ASSERT_EQ(l.momentum_buffer().size(), 4u);
  EXPECT_NEAR(l.momentum_buffer()[3], -0.140368, kTol);
}

TEST(FastWeights, BatchAveragesThenAppliesOnFlush) {
  // x1 gives G1 above; x2 = (1, 0): W0 k = (0.5, 2), G2 = [[0.5, 0], [1 (2 clamped), 0]].
  // Mean [[0.1, -0.2], [0.92, 0.5]]; W' = 0.9 W0 - 0.1 mean.
  FastWeightLayer l(2, 2, 0.1, 0.0, true, 7);
  l.set_w(kW0);
  l.prepare(kX1);
  l.step(0.1, false, 0.0);
  const std::vector<double> x2 = {1.0, 0.0};
  l.prepare(x2);
  l.step(0.1, false, 0.0);
  expect_w(l, kW0);  // nothing applied before the flush
  EXPECT_EQ(l.batch_count(), 2u);
  l.flush(0.1);
  expect_w(l, {0.44, -0.88, 1.708, 0.175});
  EXPECT_EQ(l.batch_count(), 0u);
  l.flush(0.1);  // an empty flush changes nothing
  expect_w(l, {0.44, -0.88, 1.708, 0.175});
}

TEST(FastWeights, PredictionDirectedStepByHand) {
  // e = 2, d = 2: r = -e q / d = -q = (-0.6, -0.8); G = r k' = [[-0.36, -0.48], [-0.48, -0.64]];
  // from W = 0 with alpha 0: W = -0.1 G.
  FastWeightLayer l(2, 2, 0.0, 0.0, false, 7);
  l.prepare(kX1);
  l.step(0.1, true, 2.0);
  expect_w(l, {0.036, 0.048, 0.048, 0.064});
}

TEST(FastWeights, InputScaledDownOnlyAboveUnitNorm) {
  FastWeightLayer l(2, 2, 0.0, 0.0, false, 7);
  const std::vector<double> big = {3.0, 4.0};
  l.prepare(big);  // x^ = (0.6, 0.8); v keeps the scaled length
  EXPECT_NEAR(l.v()[0], 0.6, kTol);
  const std::vector<double> small = {0.3, 0.4};
  l.prepare(small);  // x^ = x; k and q unit length, v not
  EXPECT_NEAR(l.v()[0], 0.3, kTol);
  EXPECT_NEAR(l.k()[0], 0.6, kTol);
}

TEST(FastWeights, RandomProjectionsFollowTheFormula) {
  // d != m: Glorot draws; check a step against the formula on the layer's own k, v.
  FastWeightLayer l(3, 2, 0.05, 0.0, false, 11);
  const std::vector<double> w0 = {0.1, -0.2, 0.3, 0.0, 0.5, -0.4, 0.2, 0.2, -0.1};
  l.set_w(w0);
  l.prepare(kX1);
  std::vector<double> k(l.k().begin(), l.k().end()), v(l.v().begin(), l.v().end());
  std::vector<double> want(9);
  for (int i = 0; i < 3; ++i) {
    double wk = 0.0;
    for (int j = 0; j < 3; ++j) wk += w0[i * 3 + j] * k[j];
    const double r = wk - (v[i] - k[i]);
    for (int j = 0; j < 3; ++j) want[i * 3 + j] = 0.95 * w0[i * 3 + j] - 0.2 * std::clamp(r * k[j], -1.0, 1.0);
  }
  l.step(0.2, false, 0.0);
  expect_w(l, want);
  double kn = 0.0;
  for (double u : k) kn += u * u;
  EXPECT_NEAR(kn, 1.0, 1e-12);
}

TEST(FastWeights, GuardRescalesLargeWeights) {
  FastWeightLayer l(2, 2, 0.0, 0.0, false, 7);
  l.set_w(std::vector<double>{2e4, -1e4, 1.0, 0.0});
  expect_w(l, {1e3, -500.0, 0.05, 0.0});
  l.set_w(std::vector<double>{1e4, 1.0, 1.0, 1.0});  // at the limit: untouched
  expect_w(l, {1e4, 1.0, 1.0, 1.0});
}

TEST(FastWeights, GuardClearsNonFiniteWeights) {
  // A NaN anywhere (or every entry NaN, where a max-based rescale would
  // itself be NaN) clears the fast state instead of spreading.
  FastWeightLayer l(2, 2, 0.0, 0.5, false, 7);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  l.set_w(std::vector<double>{nan, nan, nan, nan});
  expect_w(l, {0.0, 0.0, 0.0, 0.0});
  l.set_w(std::vector<double>{1.0, std::numeric_limits<double>::infinity(), 1.0, 1.0});
  expect_w(l, {0.0, 0.0, 0.0, 0.0});
  // A huge step size: the guard keeps W finite and bounded.
  l.set_w(kW0);
  l.prepare(kX1);
  for (int t = 0; t < 50; ++t) l.step(1e300, false, 0.0);
  for (double w : l.w()) {
    EXPECT_TRUE(std::isfinite(w));
    EXPECT_LE(std::fabs(w), FastWeightLayer::kGuardLimit);
  }
}

TEST(FastWeights, OutputIsQPlusLayerNormOfGelu) {
  FastWeightLayer l(3, 3, 0.0, 0.0, false, 7);
  const std::vector<double> w = {0.2, 0.0, -0.1, 0.3, 0.1, 0.0, -0.4, 0.2, 0.5};
  l.set_w(w);
  const std::vector<double> x = {0.2, -0.5, 0.4};
  l.prepare(x);
  std::vector<double> q(l.q().begin(), l.q().end()), u(3), y(3);
  for (int i = 0; i < 3; ++i) {
    u[i] = q[i];
    for (int j = 0; j < 3; ++j) u[i] += w[i * 3 + j] * q[j];
    u[i] = 0.5 * u[i] * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (u[i] + 0.044715 * u[i] * u[i] * u[i])));
  }
  const double mean = (u[0] + u[1] + u[2]) / 3.0;
  double var = 0.0;
  for (double a : u) var += (a - mean) * (a - mean) / 3.0;
  l.output(y);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(y[i], q[i] + (u[i] - mean) / std::sqrt(var + 1e-8), 1e-12);
}

TEST(FastWeights, SameSeedSameProjectionsOtherSeedOthers) {
  FastWeightLayer a(4, 3, 0.0, 0.0, false, 5), b(4, 3, 0.0, 0.0, false, 5), c(4, 3, 0.0, 0.0, false, 6);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(a.w_q()[i], b.w_q()[i]);
  bool differ = false;
  for (std::size_t i = 0; i < 12; ++i) differ |= a.w_q()[i] != c.w_q()[i];
  EXPECT_TRUE(differ);
}

}  // namespace
}  // namespace irithyll::nn
