#include "nn/kan/bspline.hpp"

#include <algorithm>

namespace irithyll::nn {

namespace {
// Knot differences this small are repeated knots: the term they divide is
// taken as 0 (the 0/0 = 0 convention of the Cox-de Boor recursion).
constexpr double kTinyKnotGap = 1e-15;
}  // namespace

BSplineBasis::BSplineBasis(std::size_t order, std::size_t grid, double lo, double hi)
    : k_(order), g_(grid), lo_(lo), hi_(hi) {
  t_.reserve(g_ + 2 * k_ + 1);
  for (std::size_t i = 0; i < k_; ++i) t_.push_back(lo);
  const double h = (hi - lo) / static_cast<double>(g_);
  for (std::size_t i = 0; i <= g_; ++i) t_.push_back(i == g_ ? hi : lo + static_cast<double>(i) * h);
  for (std::size_t i = 0; i < k_; ++i) t_.push_back(hi);
}

std::size_t BSplineBasis::find_span(double x) const noexcept {
  if (!(x > t_[k_])) return k_;  // also NaN: callers clamp first, this keeps the index valid
  if (x >= t_[g_ + k_]) return g_ + k_ - 1;
  // First interior interval whose right knot lies beyond x (binary search on
  // the g + 1 uniform knots t_k .. t_{g+k}).
  const auto first = t_.begin() + static_cast<std::ptrdiff_t>(k_ + 1);
  const auto last = t_.begin() + static_cast<std::ptrdiff_t>(g_ + k_ + 1);
  const auto it = std::upper_bound(first, last, x);
  return static_cast<std::size_t>(it - t_.begin()) - 1;
}

std::size_t BSplineBasis::evaluate(double x, double* values, double* derivs) const noexcept {
  x = x == x ? std::clamp(x, lo_, hi_) : lo_;  // NaN reads as the lower end
  const std::size_t span = find_span(x);
  // left[j] = x - t_{span+1-j}, right[j] = t_{span+j} - x (NURBS Book A2.2).
  std::array<double, kMaxOrder + 1> left{}, right{}, lower{};
  values[0] = 1.0;
  for (std::size_t j = 1; j <= k_; ++j) {
    if (j == k_ && derivs != nullptr)  // order k-1 values, for the derivatives
      std::copy(values, values + k_, lower.begin());
    left[j] = x - t_[span + 1 - j];
    right[j] = t_[span + j] - x;
    double saved = 0.0;
    for (std::size_t r = 0; r < j; ++r) {
      const double den = right[r + 1] + left[j - r];
      const double temp = den > kTinyKnotGap ? values[r] / den : 0.0;
      values[r] = saved + right[r + 1] * temp;
      saved = left[j - r] * temp;
    }
    values[j] = saved;
  }
  if (derivs != nullptr) {
    // lower[m] = B_{span-k+1+m, k-1}, m = 0..k-1; the active function
    // b = 0..k is i = span-k+b, so B_{i,k-1} = lower[b-1], B_{i+1,k-1} = lower[b].
    const double kk = static_cast<double>(k_);
    for (std::size_t b = 0; b <= k_; ++b) {
      const std::size_t i = span - k_ + b;
      double d = 0.0;
      if (b >= 1) {
        const double gap = t_[i + k_] - t_[i];
        if (gap > kTinyKnotGap) d += lower[b - 1] / gap;
      }
      if (b < k_) {
        const double gap = t_[i + k_ + 1] - t_[i + 1];
        if (gap > kTinyKnotGap) d -= lower[b] / gap;
      }
      derivs[b] = kk * d;
    }
  }
  return span;
}

}  // namespace irithyll::nn
