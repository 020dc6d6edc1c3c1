#include "nn/ssm/mamba3.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nn/ssm/discretize.hpp"

namespace irithyll::nn {
namespace {

std::vector<double> random_vec(Xorshift64& rng, std::size_t n, double scale = 1.0) {
  std::vector<double> v(n);
  for (double& x : v) x = scale * rng.normal();
  return v;
}

Mamba3Config cfg(std::size_t d, std::size_t n, std::size_t g, std::size_t rank, bool bcnorm,
                 Mamba3Discretization m = Mamba3Discretization::kExpTrapezoidal) {
  Mamba3Config c;
  c.d_in = d;
  c.n_state = n;
  c.n_groups = g;
  c.rank = rank;
  c.use_bcnorm = bcnorm;
  c.discretization = m;
  c.seed = 5;
  return c;
}

// Numerical rank by Gaussian elimination with partial pivoting.
std::size_t matrix_rank(std::vector<double> m, std::size_t rows, std::size_t cols, double tol) {
  std::size_t rank = 0;
  for (std::size_t c = 0; c < cols && rank < rows; ++c) {
    std::size_t piv = rank;
    for (std::size_t r = rank; r < rows; ++r)
      if (std::abs(m[r * cols + c]) > std::abs(m[piv * cols + c])) piv = r;
    if (std::abs(m[piv * cols + c]) < tol) continue;
    for (std::size_t k = 0; k < cols; ++k) std::swap(m[rank * cols + k], m[piv * cols + k]);
    for (std::size_t r = rank + 1; r < rows; ++r) {
      const double f = m[r * cols + c] / m[rank * cols + c];
      for (std::size_t k = 0; k < cols; ++k) m[r * cols + k] -= f * m[rank * cols + k];
    }
    ++rank;
  }
  return rank;
}

TEST(Mamba3, ValidateRejectsBadConfig) {
  EXPECT_FALSE(Mamba3::make(cfg(6, 4, 4, 0, true)).is_ok());  // 4 does not divide 6
  EXPECT_FALSE(Mamba3::make(cfg(0, 4, 1, 0, true)).is_ok());
  EXPECT_FALSE(Mamba3::make(cfg(6, 4, 2, 17, true)).is_ok());
  EXPECT_TRUE(Mamba3::make(cfg(6, 4, 2, 2, true)).is_ok());
}

TEST(Mamba3, StateSizes) {
  EXPECT_EQ(Mamba3(cfg(8, 6, 2, 0, true)).state().size(), 2u * 2 * 6);       // 2 G N
  EXPECT_EQ(Mamba3(cfg(8, 6, 2, 3, true)).state().size(), 2u * 2 * 6 * 4);   // 2 G N P
}

TEST(Mamba3, PredictIsPureAndEqualsForwardAllVariants) {
  for (auto m : {Mamba3Discretization::kExpTrapezoidal, Mamba3Discretization::kTustin})
    for (std::size_t rank : {0u, 1u, 3u})
      for (bool bc : {false, true}) {
        Mamba3 ssm(cfg(6, 5, 2, rank, bc, m));
        Xorshift64 rng(3);
        std::vector<double> y1(6), y2(6);
        for (int t = 0; t < 50; ++t) {
          auto x = random_vec(rng, 6);
          const std::vector<double> h(ssm.state().begin(), ssm.state().end());
          ssm.forward_predict(x, y1);
          ASSERT_TRUE(std::equal(h.begin(), h.end(), ssm.state().begin()));
          ssm.forward(x, y2);
          for (int i = 0; i < 6; ++i) ASSERT_EQ(y1[i], y2[i]);
        }
      }
}

TEST(Mamba3, ZeroInputZeroOutputAndResetClearsPreviousInput) {
  Mamba3 ssm(cfg(4, 4, 2, 0, true));
  std::vector<double> zero(4, 0.0), y(4);
  ssm.forward(zero, y);
  for (double v : y) EXPECT_EQ(v, 0.0);
  Xorshift64 rng(1);
  auto x = random_vec(rng, 4);
  ssm.forward(x, y);
  double prev = 0.0;
  for (double v : ssm.previous_input()) prev += std::abs(v);
  EXPECT_GT(prev, 0.0);
  ssm.reset();
  for (double v : ssm.previous_input()) EXPECT_EQ(v, 0.0);
  for (double v : ssm.state()) EXPECT_EQ(v, 0.0);
}

TEST(Mamba3, ThreeTermRecurrenceUsesPreviousInput) {
  // Step x1, then x2 = 0: X = 0 so u2 = 0, Delta = dt_init and lambda = 1/2,
  // hence H2 = alpha H1 + beta u1 exactly (the carried endpoint u1 moves H2).
  Mamba3 ssm(cfg(2, 3, 1, 0, false));
  std::vector<double> x1 = {1.0, 0.5}, zero = {0.0, 0.0}, y(2);
  ssm.forward(x1, y);
  const std::vector<double> h1(ssm.state().begin(), ssm.state().end());
  const std::vector<double> u1(ssm.previous_input().begin(), ssm.previous_input().end());
  ssm.forward(zero, y);
  for (std::size_t k = 0; k < 3; ++k) {
    const double a_re = -std::exp(ssm.log_a()[2 * k]), a_im = ssm.log_a()[2 * k + 1];
    const ExpTrapezoidal e = exp_trapezoidal(a_re, a_im, 0.1, 0.5);
    const double er = e.alpha_re * h1[2 * k] - e.alpha_im * h1[2 * k + 1] + e.beta_re * u1[k];
    const double ei = e.alpha_re * h1[2 * k + 1] + e.alpha_im * h1[2 * k] + e.beta_im * u1[k];
    EXPECT_NEAR(ssm.state()[2 * k], er, 1e-12);
    EXPECT_NEAR(ssm.state()[2 * k + 1], ei, 1e-12);
    EXPECT_NE(u1[k], 0.0);
    EXPECT_EQ(ssm.previous_input()[k], 0.0);
  }
}

TEST(Mamba3, BcnormChangesOutputAndBoundsScale) {
  Mamba3 on(cfg(4, 4, 1, 0, true)), off(cfg(4, 4, 1, 0, false));
  std::vector<double> x = {100.0, -50.0, 20.0, 10.0}, y_on(4), y_off(4);
  on.forward(x, y_on);
  off.forward(x, y_off);
  EXPECT_NE(y_on[0], y_off[0]);
  // With BCNorm, |B|_rms = 1 regardless of |x|, so the state grows linearly in
  // |x| (through X) instead of quadratically (through B and X).
  double h_on = 0.0, h_off = 0.0;
  for (double v : on.state()) h_on = std::max(h_on, std::abs(v));
  for (double v : off.state()) h_off = std::max(h_off, std::abs(v));
  EXPECT_LT(h_on, h_off);
}

TEST(Mamba3, MimoInputIsTrueRankR) {
  // First step from rest: H = gamma * B_g X_g^T, whose rank must be min(R, N, P).
  for (std::size_t rank : {1u, 2u, 3u}) {
    Mamba3 ssm(cfg(8, 6, 2, rank, true));
    Xorshift64 rng(9);
    auto x = random_vec(rng, 8);
    std::vector<double> y(8);
    ssm.forward(x, y);
    const std::size_t n = 6, p = 4;
    std::vector<double> re(n * p);
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t c = 0; c < p; ++c) re[k * p + c] = ssm.state()[2 * (k * p + c)];  // group 0
    EXPECT_EQ(matrix_rank(re, n, p, 1e-9), rank) << "rank " << rank;
  }
}

TEST(Mamba3, ReinitializeGroupIsIsolated) {
  Mamba3 ssm(cfg(8, 4, 2, 2, true));
  Xorshift64 rng(2);
  std::vector<double> y(8);
  for (int t = 0; t < 20; ++t) {
    auto x = random_vec(rng, 8);
    ssm.forward(x, y);
  }
  const std::vector<double> h(ssm.state().begin(), ssm.state().end());
  const std::vector<double> wb(ssm.w_b().begin(), ssm.w_b().end());
  Xorshift64 r2(99);
  ssm.reinitialize_group(1, r2);
  const std::size_t half_h = h.size() / 2, half_w = wb.size() / 2;
  for (std::size_t i = 0; i < half_h; ++i) EXPECT_EQ(ssm.state()[i], h[i]);
  for (std::size_t i = half_h; i < h.size(); ++i) EXPECT_EQ(ssm.state()[i], 0.0);
  for (std::size_t i = 0; i < half_w; ++i) EXPECT_EQ(ssm.w_b()[i], wb[i]);
  std::size_t changed = 0;
  for (std::size_t i = half_w; i < wb.size(); ++i) changed += ssm.w_b()[i] != wb[i];
  EXPECT_EQ(changed, half_w);
}

TEST(Mamba3, StableOverLongRunAndRoundTrip) {
  for (std::size_t rank : {0u, 2u}) {
    Mamba3 ssm(cfg(8, 8, 2, rank, true));
    Xorshift64 rng(4);
    std::vector<double> y(8), y2(8);
    double max_abs = 0.0;
    for (int t = 0; t < 3000; ++t) {
      auto x = random_vec(rng, 8, 3.0);
      ssm.forward(x, y);
      for (double v : ssm.state()) max_abs = std::max(max_abs, std::abs(v));
    }
    EXPECT_TRUE(std::isfinite(max_abs));
    EXPECT_LT(max_abs, 1e3);
    ByteWriter w;
    ssm.encode(w);
    Mamba3 copy(ssm.config());  // built with the settings that wrote the record
    ByteReader r(w.data());
    ASSERT_TRUE(copy.decode(r).is_ok());
    auto x = random_vec(rng, 8);
    ssm.forward(x, y);
    copy.forward(x, y2);
    EXPECT_EQ(y, y2);
    for (std::size_t cut = 0; cut < w.size(); cut += 13) {
      ByteReader rt(std::span(w.data()).first(cut));
      Mamba3 bad(ssm.config());
      EXPECT_FALSE(bad.decode(rt).is_ok());
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
