#include "nn/primitives.hpp"

#include <algorithm>
#include <limits>

#include "nn/vmath.hpp"

namespace irithyll::nn {

double softplus_softmax_mix(std::span<const double> x, double tau, std::span<double> out) noexcept {
  const std::size_t n = x.size();
  if (n == 0) return 0.0;
  if (!(tau > 0.0)) tau = 1.0;  // documented precondition; never divide by zero
  // Elementwise, so x and out may alias; vsoftplus agrees with softplus() to
  // a few ulps (vmath.hpp).
  for (std::size_t i = 0; i < n; ++i) out[i] = x[i] / tau;
  vsoftplus(out.data(), out.data(), n);
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(out[i])) out[i] = 0.0;
    total += out[i];
  }
  // A subnormal total (every term far below e^-700) would make 1/total
  // overflow and 0 * inf a NaN: that is underflow too.
  if (!(total >= std::numeric_limits<double>::min()) || !std::isfinite(total)) {
    // All terms underflowed (or a +inf slipped in): the limit is uniform.
    for (std::size_t i = 0; i < n; ++i) out[i] = 1.0 / static_cast<double>(n);
    return total;
  }
  const double inv = 1.0 / total;
  for (std::size_t i = 0; i < n; ++i) out[i] *= inv;
  return total;
}

void tanh_inplace(std::span<double> v) noexcept {
  for (double& e : v) e = std::tanh(e);
}

void rank1_update(std::span<double> m, double alpha, std::span<const double> x, std::span<const double> y) noexcept {
  if (alpha == 0.0) return;
  const std::size_t cols = y.size();
  for (std::size_t r = 0; r < x.size(); ++r) {
    const double a = alpha * x[r];
    double* row = m.data() + r * cols;
    for (std::size_t c = 0; c < cols; ++c) row[c] += a * y[c];
  }
}

double l2_norm(std::span<const double> v) noexcept {
  double scale = 0.0;
  for (double e : v) scale = std::max(scale, std::fabs(e));
  if (!(scale > 0.0) || !std::isfinite(scale)) return scale;
  double ss = 0.0;
  const double inv = 1.0 / scale;
  for (double e : v) {
    const double s = e * inv;
    ss += s * s;
  }
  return scale * std::sqrt(ss);
}

double GateHead::forward(std::span<const double> x) const noexcept {
  double z = b_;
  for (std::size_t i = 0; i < w_.size() && i < x.size(); ++i) z += w_[i] * x[i];
  if (std::isnan(z)) z = 0.0;
  return std::clamp(sigmoid(z), kClamp, 1.0 - kClamp);
}

void GateHead::update(std::span<const double> x, double target, double lr) noexcept {
  if (!std::isfinite(target) || !std::isfinite(lr) || x.size() < w_.size()) return;
  for (std::size_t i = 0; i < w_.size(); ++i)
    if (!std::isfinite(x[i])) return;
  const double g = forward(x);
  const double grad = (g - target) * g * (1.0 - g);
  if (grad == 0.0) return;
  for (std::size_t i = 0; i < w_.size(); ++i) w_[i] -= lr * grad * x[i];
  b_ -= lr * grad;
}

void GateHead::reset() noexcept {
  std::fill(w_.begin(), w_.end(), 0.0);
  b_ = 0.0;
}

void WelfordNormalizer::update(std::span<const double> x) noexcept {
  const std::size_t n = std::min(x.size(), mean_.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) continue;
    ++count_[i];
    const double d = x[i] - mean_[i];
    mean_[i] += d / static_cast<double>(count_[i]);
    m2_[i] += d * (x[i] - mean_[i]);
  }
}

void WelfordNormalizer::normalize(std::span<const double> x, std::span<double> out) const noexcept {
  const std::size_t n = std::min(x.size(), mean_.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (count_[i] < 2 || !std::isfinite(x[i])) {
      out[i] = 0.0;
      continue;
    }
    out[i] = (x[i] - mean_[i]) / std::sqrt(variance(i) + kVarEps);
  }
}

void WelfordNormalizer::reset() noexcept {
  std::fill(count_.begin(), count_.end(), 0);
  std::fill(mean_.begin(), mean_.end(), 0.0);
  std::fill(m2_.begin(), m2_.end(), 0.0);
}

}  // namespace irithyll::nn
