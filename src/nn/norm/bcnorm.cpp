#include "nn/norm/bcnorm.hpp"

#include <cassert>
#include <cmath>

namespace irithyll::nn {

Status BCNorm::validate(std::size_t dim, double eps) {
  if (dim == 0) return Status::invalid_argument("BCNorm: dim must be > 0");
  if (!(eps > 0.0) || !std::isfinite(eps)) return Status::invalid_argument("BCNorm: eps must be finite and > 0");
  return Status::ok();
}

Result<BCNorm> BCNorm::make(std::size_t dim, double eps) {
  IRITHYLL_RETURN_IF_ERROR(validate(dim, eps));
  return BCNorm(dim, eps);
}

BCNorm::BCNorm(std::size_t dim, double eps) : gamma_(dim, 1.0), dgamma_(dim, 0.0), eps_(eps) {
  assert(validate(dim, eps).is_ok());
}

void BCNorm::normalize(std::span<const double> in, std::span<double> out) const noexcept {
  const std::size_t n = in.size();
  if (n == 0) return;
  double ss = 0.0;
  for (double v : in) ss += v * v;
  const double inv_rms = 1.0 / std::sqrt(ss / static_cast<double>(n) + eps_);
  for (std::size_t i = 0; i < n; ++i) out[i] = gamma_[i] * in[i] * inv_rms;
}

void BCNorm::normalize_split(std::span<double> v, std::span<double> unit) const noexcept {
  const std::size_t n = v.size();
  if (n == 0) return;
  double ss = 0.0;
  for (double e : v) ss += e * e;
  const double inv_rms = 1.0 / std::sqrt(ss / static_cast<double>(n) + eps_);
  for (std::size_t i = 0; i < n; ++i) {
    unit[i] = v[i] * inv_rms;
    v[i] = gamma_[i] * unit[i];
  }
}

void BCNorm::accumulate_grad_gamma(std::span<const double> unit, std::span<const double> dout) noexcept {
  if (!learnable_) return;
  for (std::size_t i = 0; i < unit.size(); ++i) dgamma_[i] += dout[i] * unit[i];
}

void BCNorm::backward(std::span<const double> v, std::span<const double> dy, std::span<double> dv) noexcept {
  const std::size_t n = v.size();
  if (n == 0) return;
  double ss = 0.0, gv = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    ss += v[i] * v[i];
    gv += dy[i] * gamma_[i] * v[i];
  }
  const double r2 = ss / static_cast<double>(n) + eps_;
  const double inv_r = 1.0 / std::sqrt(r2);
  const double m = gv / static_cast<double>(n) / r2;  // mean(g (.) v) / r^2
  for (std::size_t i = 0; i < n; ++i) {
    const double dyi = dy[i];  // dv may alias dy
    if (learnable_) dgamma_[i] += dyi * v[i] * inv_r;
    dv[i] = (dyi * gamma_[i] - v[i] * m) * inv_r;
  }
}

void BCNorm::step(double lr, double max_norm) noexcept {
  if (!learnable_) return;
  bool finite = std::isfinite(lr);
  double ss = 0.0;
  for (double g : dgamma_) {
    finite = finite && std::isfinite(g);
    ss += g * g;
  }
  const double norm = std::sqrt(ss);
  const double scale = norm > max_norm ? max_norm / norm : 1.0;
  if (finite)
    for (std::size_t i = 0; i < gamma_.size(); ++i) gamma_[i] -= lr * scale * dgamma_[i];
  zero_grad();
}

void BCNorm::zero_grad() noexcept {
  for (double& g : dgamma_) g = 0.0;
}

}  // namespace irithyll::nn
