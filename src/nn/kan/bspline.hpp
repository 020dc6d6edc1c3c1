// Clamped uniform B-spline basis of order k with g intervals on [lo, hi]
// (de Boor 1978, "A Practical Guide to Splines", ch. IX; the NURBS Book,
// Piegl & Tiller 1997, algorithms A2.1-A2.3).
//
// Knots: k copies of lo, the g + 1 uniform knots lo + i (hi - lo) / g, and
// k copies of hi, so each end appears k + 1 times and the g + k basis
// functions sum to 1 on all of [lo, hi], ends included. At any x only the
// k + 1 functions B_{span-k} .. B_{span} can be non-zero; evaluate() returns
// those (Cox-de Boor triangle) and their first derivatives
//   B'_{i,k} = k (B_{i,k-1} / (t_{i+k} - t_i) - B_{i+1,k-1} / (t_{i+k+1} - t_{i+1})).
// x outside [lo, hi] is evaluated at the nearest end. No allocation after
// construction. Internal.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace irithyll::nn {

class BSplineBasis {
 public:
  static constexpr std::size_t kMaxOrder = 7;

  BSplineBasis() = default;
  // REQUIRES: 1 <= order <= kMaxOrder, grid >= 1, lo < hi.
  BSplineBasis(std::size_t order, std::size_t grid, double lo = -1.0, double hi = 1.0);

  std::size_t order() const noexcept { return k_; }
  std::size_t grid() const noexcept { return g_; }
  std::size_t n_basis() const noexcept { return g_ + k_; }
  const std::vector<double>& knots() const noexcept { return t_; }

  // Index of the knot interval [t_span, t_span+1) holding x, in [k, g + k);
  // x at or below lo gives k, at or above hi gives g + k - 1.
  std::size_t find_span(double x) const noexcept;

  // Values of B_{span-k+b}(x), b = 0..k, into values[0..k]; if derivs is
  // non-null, their derivatives into derivs[0..k]. Returns span.
  std::size_t evaluate(double x, double* values, double* derivs) const noexcept;

 private:
  std::size_t k_ = 0, g_ = 0;
  double lo_ = -1.0, hi_ = 1.0;
  std::vector<double> t_;
};

}  // namespace irithyll::nn
