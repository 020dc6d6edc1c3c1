#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/rnn/delay_conv.hpp"
#include "nn/rnn/mingru.hpp"

namespace irithyll::nn {
namespace {

TEST(MinGru, CandidateHasNoRecurrenceAndShapes) {
  MinGruCell cell(MinGruConfig{3, 5, 1});
  EXPECT_EQ(cell.w_z().size(), 5u * (3 + 5));
  EXPECT_EQ(cell.w_h().size(), 5u * 3);  // the candidate sees x only
}

TEST(MinGru, UpdateFollowsDefinition) {
  MinGruCell cell(MinGruConfig{2, 3, 4});
  std::vector<double> x = {0.5, -1.0}, h(3);
  cell.forward(x, h);
  std::vector<double> h_prev(h);
  std::vector<double> x2 = {1.5, 0.25}, h2(3);
  cell.forward(x2, h2);
  for (std::size_t j = 0; j < 3; ++j) {
    double zp = cell.b_z()[j], cand = cell.b_h()[j];
    for (std::size_t k = 0; k < 2; ++k) zp += cell.w_z()[j * 5 + k] * x2[k];
    for (std::size_t k = 0; k < 3; ++k) zp += cell.w_z()[j * 5 + 2 + k] * h_prev[k];
    for (std::size_t k = 0; k < 2; ++k) cand += cell.w_h()[j * 2 + k] * x2[k];
    const double z = 1.0 / (1.0 + std::exp(-zp));
    EXPECT_NEAR(h2[j], (1 - z) * h_prev[j] + z * cand, 1e-14);
  }
}

TEST(MinGru, PredictEqualsForwardBoundedAndResetKeepsWeights) {
  MinGruCell cell(MinGruConfig{4, 8, 2});
  Xorshift64 rng(3);
  std::vector<double> x(4), h1(8), h2(8);
  double max_cand = 0.0, max_h = 0.0;
  for (int t = 0; t < 1000; ++t) {
    for (double& v : x) v = rng.normal();
    cell.forward_predict(x, h1);
    cell.forward(x, h2);
    for (int j = 0; j < 8; ++j) ASSERT_NEAR(h1[j], h2[j], 1e-12);
    for (std::size_t j = 0; j < 8; ++j) {
      double c = 0.0;
      for (std::size_t k = 0; k < 4; ++k) c += cell.w_h()[j * 4 + k] * x[k];
      max_cand = std::max(max_cand, std::abs(c));
      max_h = std::max(max_h, std::abs(h2[j]));
    }
  }
  EXPECT_LE(max_h, max_cand + 1e-12);  // convex combination of candidates
  const std::vector<double> w(cell.w_z().begin(), cell.w_z().end());
  cell.reset();
  for (double v : cell.state()) EXPECT_EQ(v, 0.0);
  EXPECT_TRUE(std::equal(w.begin(), w.end(), cell.w_z().begin()));
}

TEST(DelayConv, InitialDelaysAreFirAndBufferWraps) {
  DelayConv1d conv(2, 3, 5);
  EXPECT_EQ(conv.buffer_length(), 6u);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(conv.delays()[k], static_cast<double>(k));
  // Impulse on channel 0: y(t) = w[0, t] for t < 3, then 0 (a plain FIR).
  std::vector<double> x(2), y(2);
  for (int t = 0; t < 20; ++t) {
    x[0] = t == 0 ? 1.0 : 0.0;
    conv.forward(x, y);
    EXPECT_NEAR(y[0], t < 3 ? conv.weights()[static_cast<std::size_t>(t)] : 0.0, 1e-15) << t;
    EXPECT_EQ(conv.position(), static_cast<std::size_t>(t + 1) % 6);
  }
  // A delay of 5 (= L - 1) reaches back exactly 5 steps through the wrap.
  conv.set_delay(1, 0, 5.0);
  conv.set_delay(1, 1, 99.0);  // clamped to 5
  EXPECT_EQ(conv.delays()[4], 5.0);
  for (int t = 0; t < 20; ++t) {
    x[1] = t == 7 ? 1.0 : 0.0;
    conv.forward(x, y);
    const double expect = t == 12 ? conv.weights()[3] + conv.weights()[4] : (t == 9 ? conv.weights()[5] : 0.0);
    EXPECT_NEAR(y[1], expect, 1e-15) << t;
  }
}

TEST(DelayConv, PredictIsPureAndRoundTrip) {
  DelayConv1d conv(3, 4, 9);
  conv.set_delay(0, 1, 6.4);  // rounds to 6
  Xorshift64 rng(1);
  std::vector<double> x(3), y1(3), y2(3);
  for (int t = 0; t < 50; ++t) {
    for (double& v : x) v = rng.normal();
    const std::size_t pos = conv.position();
    conv.forward_predict(x, y1);
    EXPECT_EQ(conv.position(), pos);
    conv.forward(x, y2);
    EXPECT_EQ(y1, y2);
  }
  ByteWriter w;
  conv.encode(w);
  DelayConv1d copy(3, 4, 9);  // built with the settings that wrote the record
  ByteReader r(w.data());
  ASSERT_TRUE(copy.decode(r).is_ok());
  conv.forward(x, y1);
  copy.forward(x, y2);
  EXPECT_EQ(y1, y2);
  conv.reset();
  EXPECT_EQ(conv.position(), 0u);
  for (std::size_t cut = 0; cut < w.size(); cut += 5) {
    ByteReader rt(std::span(w.data()).first(cut));
    DelayConv1d bad(3, 4, 9);
    EXPECT_FALSE(bad.decode(rt).is_ok());
  }
}

}  // namespace
}  // namespace irithyll::nn
