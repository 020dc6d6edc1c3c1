// One Kolmogorov-Arnold layer: n_out nodes, each the sum over its n_in
// inputs of a learnable edge function (Liu et al. 2024, eq. 2.10)
//   phi_ji(x) = w_b SiLU(x) + w_s sum_b c_jib B_b(x),   x = clamp(h_i, -1, 1),
// with one B-spline basis (bspline.hpp) shared by the layer's edges. Edge state:
// g + k coefficients (N(0, 0.01) at start), their momentum velocities (0),
// w_b = 1 / n_in and w_s = 1.
//
// forward() evaluates the basis once per input (it depends on x only, not on
// the edge) into a scratch, and backward() reuses that scratch, so a
// training step evaluates each input's basis once. backward() is one SGD
// step on every edge with bounded moves: the output gradient is clamped to
// +-10, every parameter move to +-0.5, and the input gradient to +-10; only
// the k + 1 coefficients active at x move. The gradient passes the input
// clamp unchanged (straight-through), so a hidden value outside [-1, 1]
// still learns. Internal.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"
#include "nn/kan/bspline.hpp"

namespace irithyll::nn {

// Per-input basis values of the last forward(): reused by backward().
struct KanLayerScratch {
  std::vector<std::size_t> span;  // n_in
  std::vector<double> basis;      // n_in * (k + 1)
  std::vector<double> dbasis;     // n_in * (k + 1)
  std::vector<double> silu;       // n_in
  std::vector<double> dsilu;      // n_in
  void resize(std::size_t n_in, std::size_t order);
  std::size_t memory_bytes() const noexcept;
};

class KanLayer {
 public:
  // Largest |coefficient| the network keeps; beyond it the guard steps in.
  static constexpr double kCoefLimit = 1e6;

  KanLayer() = default;
  // Coefficients drawn 0.1 * N(0, 1) from rng in edge order (j, i, b).
  KanLayer(std::size_t n_in, std::size_t n_out, std::size_t order, std::size_t grid, Xorshift64& rng);

  std::size_t n_in() const noexcept { return n_in_; }
  std::size_t n_out() const noexcept { return n_out_; }
  std::size_t n_basis() const noexcept { return nb_; }
  std::size_t n_params() const noexcept { return n_out_ * n_in_ * (nb_ + 2); }

  // out[j] = clamp(sum_i phi_ji(h_i), +-1e6). Fills scratch (derivatives
  // too when with_derivs). REQUIRES: h.size() == n_in, out.size() == n_out.
  void forward(std::span<const double> h, std::span<double> out, KanLayerScratch& scratch,
               bool with_derivs) const noexcept;
  // One SGD step for dLoss/dout = delta_out at the input of the last
  // forward(scratch, with_derivs = true); grad_in receives dLoss/dh. Returns
  // false if a moved coefficient left [-kCoefLimit, kCoefLimit].
  bool backward(std::span<const double> delta_out, double lr, double momentum, const KanLayerScratch& scratch,
                std::span<double> grad_in) noexcept;

  // Multiplies every spline coefficient by factor.
  void scale_coefficients(double factor) noexcept;
  // The guard: non-finite coefficients to 0, all others halved.
  void repair_coefficients() noexcept;
  // True if every coefficient is finite and within kCoefLimit.
  bool coefficients_in_range() const noexcept;

  std::span<const double> coefficients() const noexcept { return coef_; }
  std::span<const double> base_weights() const noexcept { return wb_; }
  std::span<const double> spline_weights() const noexcept { return ws_; }
  std::size_t memory_bytes() const noexcept;

  void encode(ByteWriter& out) const;
  // Reads a layer of the given shape into *this; refuses other shapes and
  // non-finite or out-of-range values, leaving *this unchanged.
  Status decode(ByteReader& in, std::size_t n_in, std::size_t n_out, std::size_t order, std::size_t grid);

 private:
  std::size_t n_in_ = 0, n_out_ = 0, nb_ = 0, k_ = 0;
  std::vector<double> coef_;  // (j * n_in + i) * nb + b
  std::vector<double> vel_;   // same layout
  std::vector<double> wb_;    // j * n_in + i
  std::vector<double> ws_;    // j * n_in + i
  BSplineBasis basis_;
};

}  // namespace irithyll::nn
