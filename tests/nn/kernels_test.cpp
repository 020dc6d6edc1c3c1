// The dispatched kernels agree with their scalar references.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/kernels.hpp"

namespace irithyll::nn {
namespace {

// Reordered summation of n products of O(1) values: a few ulps per term.
constexpr double kKernelTolD = 1e-12;

std::vector<double> draw(Xorshift64& rng, std::size_t n) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.normal();
  return v;
}

TEST(Kernels, BackendNamed) {
  const std::string b = kernels_backend();
  EXPECT_TRUE(b == "avx512" || b == "avx2" || b == "scalar");
}

// Each fast matvec the CPU can run, called directly (the dispatcher only
// ever picks one), against the reference on shapes that exercise the
// eight-row blocks, the row remainder, the masked column tail and the wide
// (cols > 64) path.
TEST(Kernels, EveryMatvecVariantMatchesReference) {
  Xorshift64 rng(9);
  for (std::size_t rows : {1u, 7u, 8u, 9u, 16u, 23u, 192u}) {
    for (std::size_t cols : {1u, 5u, 8u, 13u, 16u, 57u, 64u, 65u, 130u}) {
      const auto m = draw(rng, rows * cols);
      const auto x = draw(rng, cols);
      std::vector<double> ref(rows), y(rows);
      matvec_ref(m.data(), x.data(), ref.data(), rows, cols);
      if (kernels_has_avx2()) {
        matvec_avx2_kernel(m.data(), x.data(), y.data(), rows, cols);
        for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(y[r], ref[r], kKernelTolD * cols) << rows << "x" << cols;
      }
      if (kernels_has_avx512()) {
        matvec_avx512_kernel(m.data(), x.data(), y.data(), rows, cols);
        for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(y[r], ref[r], kKernelTolD * cols) << rows << "x" << cols;
      }
    }
  }
}

TEST(Kernels, FastMatchesReferenceOnOddShapes) {
  Xorshift64 rng(7);
  for (std::size_t rows : {1u, 3u, 4u, 5u, 17u, 64u}) {
    for (std::size_t cols : {1u, 2u, 3u, 4u, 7u, 8u, 9u, 16u, 63u, 64u, 65u}) {
      const auto m = draw(rng, rows * cols);
      const auto x = draw(rng, cols);
      const auto xr = draw(rng, rows);
      std::vector<double> y1(rows), y2(rows), t1(cols), t2(cols);
      matvec(m.data(), x.data(), y1.data(), rows, cols);
      matvec_ref(m.data(), x.data(), y2.data(), rows, cols);
      for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(y1[r], y2[r], kKernelTolD * cols) << rows << "x" << cols;
      matvec_t(m.data(), xr.data(), t1.data(), rows, cols);
      matvec_t_ref(m.data(), xr.data(), t2.data(), rows, cols);
      for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(t1[c], t2[c], kKernelTolD * rows);
      EXPECT_NEAR(dot(m.data(), x.data(), cols), dot_ref(m.data(), x.data(), cols), kKernelTolD * cols);
      std::vector<double> a1 = x, a2 = x;
      axpy(0.37, m.data(), a1.data(), cols);
      axpy_ref(0.37, m.data(), a2.data(), cols);
      for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(a1[c], a2[c], kKernelTolD);
    }
  }
}

TEST(Kernels, ReferenceSemantics) {
  const double m[6] = {1, 2, 3, 4, 5, 6};  // 2 x 3
  const double x[3] = {1, 0, -1};
  double y[2];
  matvec(m, x, y, 2, 3);
  EXPECT_DOUBLE_EQ(y[0], -2.0);
  EXPECT_DOUBLE_EQ(y[1], -2.0);
  const double r[2] = {1, 1};
  double t[3];
  matvec_t(m, r, t, 2, 3);
  EXPECT_DOUBLE_EQ(t[0], 5.0);
  EXPECT_DOUBLE_EQ(t[2], 9.0);
  EXPECT_DOUBLE_EQ(dot(m, m, 0), 0.0);
}

}  // namespace
}  // namespace irithyll::nn
