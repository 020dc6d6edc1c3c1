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
