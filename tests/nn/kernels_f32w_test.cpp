// The mixed-precision matvec (f32 weights, f64 arithmetic): the packed form
// and its fast variants against the scalar reference, and the arithmetic
// against the f64 matvec on the same (f32-representable) values.
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/kernels.hpp"
#include "irithyll/nn/kernels_f32w.hpp"

namespace irithyll::nn {
namespace {

// Reordered f64 summation of n products of O(1) values: a few ulps per term.
constexpr double kKernelTol = 1e-12;

// The arithmetic is f64: the same values stored as doubles give the f64
// matvec's result to summation-order rounding, not f32's ~1e-7.
TEST(KernelsF32w, ArithmeticIsDouble) {
  Xorshift64 rng(12);
  constexpr std::size_t rows = 40, cols = 64;
  std::vector<float> m(rows * cols);
  std::vector<double> md(rows * cols), x(cols), y(rows), yd(rows);
  for (std::size_t i = 0; i < m.size(); ++i) {
    m[i] = static_cast<float>(rng.normal());
    md[i] = m[i];
  }
  // Inputs with bits beyond f32's mantissa: an f32 product would lose them.
  for (double& e : x) e = rng.normal() * (1.0 + 1e-12);
  std::vector<float> packed(f32w_packed_size(rows, cols));
  pack_f32w(m.data(), rows, cols, packed.data());
  matvec_f32w_packed(packed.data(), x.data(), y.data(), rows, cols);
  matvec_ref(md.data(), x.data(), yd.data(), rows, cols);
  for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(y[r], yd[r], kKernelTol * cols);
  const float w[6] = {1.5f, -2.0f, 0.25f, 4.0f, 0.0f, -1.0f};  // 2 x 3
  const double xs[3] = {1.0 + 0x1p-40, 1.0, -1.0};
  double out[2];
  std::vector<float> wp(f32w_packed_size(2, 3));
  pack_f32w(w, 2, 3, wp.data());
  matvec_f32w_packed(wp.data(), xs, out, 2, 3);
  EXPECT_EQ(out[0], 1.5 * (1.0 + 0x1p-40) - 2.0 - 0.25);
  EXPECT_EQ(out[1], 4.0 * (1.0 + 0x1p-40) + 1.0);
}

// The packed form against its reference and the row-major reference, on
// row counts that exercise the 4-block passes, single blocks and the
// partial last block (whose padding must never reach y).
TEST(KernelsF32w, PackedMatchesReference) {
  Xorshift64 rng(13);
  for (std::size_t rows : {1u, 5u, 8u, 9u, 31u, 32u, 33u, 64u, 320u, 332u}) {
    for (std::size_t cols : {1u, 3u, 16u, 64u, 70u}) {
      std::vector<float> m(rows * cols), packed(f32w_packed_size(rows, cols));
      for (float& e : m) e = static_cast<float>(rng.normal());
      pack_f32w(m.data(), rows, cols, packed.data());
      std::vector<double> x(cols), ref(rows), pref(rows), y(rows + 1);
      for (double& e : x) e = rng.normal();
      matvec_f32w_ref(m.data(), x.data(), ref.data(), rows, cols);
      matvec_f32w_packed_ref(packed.data(), x.data(), pref.data(), rows, cols);
      for (std::size_t r = 0; r < rows; ++r) EXPECT_EQ(pref[r], ref[r]);  // same order, same bits
      using Fn = void (*)(const float*, const double*, double*, std::size_t, std::size_t) noexcept;
      for (Fn f : {Fn{&matvec_f32w_packed}, Fn{&matvec_f32w_packed_avx2_kernel}, Fn{&matvec_f32w_packed_avx512_kernel}}) {
        std::fill(y.begin(), y.end(), -7.0);
        f(packed.data(), x.data(), y.data(), rows, cols);
        for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(y[r], ref[r], kKernelTol * cols) << rows << "x" << cols;
        EXPECT_EQ(y[rows], -7.0) << "wrote past the last row";
      }
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
