#include "nn/kan/bspline.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace irithyll::nn {
namespace {

TEST(KanBSpline, ClampedUniformKnots) {
  const BSplineBasis b(3, 4);
  const std::vector<double> want = {-1, -1, -1, -1, -0.5, 0, 0.5, 1, 1, 1, 1};
  EXPECT_EQ(b.knots(), want);
  EXPECT_EQ(b.n_basis(), 7u);
}

TEST(KanBSpline, SpanAtEndsAndInside) {
  const BSplineBasis b(3, 8);
  EXPECT_EQ(b.find_span(-1.0), 3u);
  EXPECT_EQ(b.find_span(-5.0), 3u);
  EXPECT_EQ(b.find_span(1.0), 10u);  // g + k - 1
  EXPECT_EQ(b.find_span(7.0), 10u);
  EXPECT_EQ(b.find_span(-0.75), 4u);  // a knot starts its own interval
  EXPECT_EQ(b.find_span(-0.76), 3u);
  EXPECT_EQ(b.find_span(0.99), 10u);
}

// Sum to 1 and never negative, at many points, the ends and knots included,
// for every order the model allows.
TEST(KanBSpline, PartitionOfUnityAndNonNegative) {
  for (std::size_t k = 1; k <= BSplineBasis::kMaxOrder; ++k) {
    for (std::size_t g : {1u, 2u, 5u, 8u, 31u}) {
      const BSplineBasis b(k, g);
      std::array<double, BSplineBasis::kMaxOrder + 1> v{};
      for (int s = 0; s <= 400; ++s) {
        const double x = -1.0 + 2.0 * s / 400.0;
        b.evaluate(x, v.data(), nullptr);
        double sum = 0.0;
        for (std::size_t q = 0; q <= k; ++q) {
          EXPECT_GE(v[q], 0.0) << "k=" << k << " g=" << g << " x=" << x;
          sum += v[q];
        }
        EXPECT_NEAR(sum, 1.0, 1e-12) << "k=" << k << " g=" << g << " x=" << x;
      }
    }
  }
}

// Clamped ends: B_0(lo) = 1 and B_last(hi) = 1; beyond the ends the basis is
// the end's (no extrapolation), and NaN or inf input stays finite.
TEST(KanBSpline, BoundaryBehaviour) {
  const BSplineBasis b(3, 8);
  std::array<double, 4> v{}, d{};
  std::size_t span = b.evaluate(-1.0, v.data(), nullptr);
  EXPECT_EQ(span, 3u);
  EXPECT_DOUBLE_EQ(v[0], 1.0);
  span = b.evaluate(1.0, v.data(), nullptr);
  EXPECT_EQ(span, 10u);
  EXPECT_DOUBLE_EQ(v[3], 1.0);
  std::array<double, 4> w{};
  b.evaluate(3.5, w.data(), nullptr);
  EXPECT_EQ(v, w);
  for (double x : {std::nan(""), double(INFINITY), -double(INFINITY), 1e308}) {
    span = b.evaluate(x, v.data(), d.data());
    EXPECT_GE(span, 3u);
    EXPECT_LE(span, 10u);
    for (std::size_t q = 0; q < 4; ++q) EXPECT_TRUE(std::isfinite(v[q]) && std::isfinite(d[q])) << x;
  }
}

// Derivatives against central differences of the whole basis (all g + k
// functions, so a function entering or leaving the active window counts).
TEST(KanBSpline, DerivativeMatchesFiniteDifferences) {
  for (std::size_t k = 1; k <= 5; ++k) {
    const BSplineBasis b(k, 6);
    const std::size_t n = b.n_basis();
    auto full = [&](double x, std::vector<double>& out, std::vector<double>* dout) {
      std::array<double, BSplineBasis::kMaxOrder + 1> v{}, d{};
      const std::size_t span = b.evaluate(x, v.data(), d.data());
      out.assign(n, 0.0);
      if (dout) dout->assign(n, 0.0);
      for (std::size_t q = 0; q <= k; ++q) {
        out[span - k + q] = v[q];
        if (dout) (*dout)[span - k + q] = d[q];
      }
    };
    const double h = 1e-6;
    std::vector<double> lo, hi, val, der;
    for (int s = 1; s < 300; ++s) {
      const double x = -1.0 + 2.0 * (s + 0.37) / 300.0;
      // Skip points within h of a knot, where a low-order basis has a kink.
      const double grid_pos = (x + 1.0) * 3.0;
      if (std::fabs(grid_pos - std::round(grid_pos)) < 1e-4) continue;
      full(x, val, &der);
      full(x - h, lo, nullptr);
      full(x + h, hi, nullptr);
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_NEAR(der[i], (hi[i] - lo[i]) / (2 * h), 1e-5 * (1.0 + std::fabs(der[i])))
            << "k=" << k << " i=" << i << " x=" << x;
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
