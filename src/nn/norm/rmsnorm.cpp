#include "nn/norm/rmsnorm.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace irithyll::nn {

void Adam::step(std::span<double> params, std::span<const double> grads) noexcept {
  const std::size_t n = std::min({params.size(), grads.size(), m_.size()});
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(grads[i])) return;
  ++t_;
  const double c1 = 1.0 - std::pow(config_.beta1, static_cast<double>(t_));
  const double c2 = 1.0 - std::pow(config_.beta2, static_cast<double>(t_));
  for (std::size_t i = 0; i < n; ++i) {
    m_[i] = config_.beta1 * m_[i] + (1.0 - config_.beta1) * grads[i];
    v_[i] = config_.beta2 * v_[i] + (1.0 - config_.beta2) * grads[i] * grads[i];
    params[i] -= config_.lr * (m_[i] / c1) / (std::sqrt(v_[i] / c2) + config_.eps);
  }
}

void Adam::reset() noexcept {
  std::fill(m_.begin(), m_.end(), 0.0);
  std::fill(v_.begin(), v_.end(), 0.0);
  t_ = 0;
}

Status RMSNorm::validate(std::size_t dim, double eps) {
  if (dim == 0) return Status::invalid_argument("RMSNorm: dim must be > 0");
  if (!(eps > 0.0) || !std::isfinite(eps)) return Status::invalid_argument("RMSNorm: eps must be finite and > 0");
  return Status::ok();
}

Result<RMSNorm> RMSNorm::make(std::size_t dim, double eps, AdamConfig adam) {
  IRITHYLL_RETURN_IF_ERROR(validate(dim, eps));
  return RMSNorm(dim, eps, adam);
}

RMSNorm::RMSNorm(std::size_t dim, double eps, AdamConfig adam)
    : gamma_(dim, 1.0), dgamma_(dim, 0.0), xhat_(dim, 0.0), eps_(eps), adam_(dim, adam) {
  assert(validate(dim, eps).is_ok());
}

void RMSNorm::forward(std::span<const double> x, std::span<double> y) noexcept {
  const std::size_t n = dim();
  double ss = 0.0;
  for (std::size_t i = 0; i < n; ++i) ss += x[i] * x[i];
  rms_ = std::sqrt(ss / static_cast<double>(n) + eps_);
  const double inv = 1.0 / rms_;
  for (std::size_t i = 0; i < n; ++i) {
    xhat_[i] = x[i] * inv;
    y[i] = gamma_[i] * xhat_[i];
  }
}

void RMSNorm::backward(std::span<const double> dy, std::span<double> dx) noexcept {
  const std::size_t n = dim();
  double m = 0.0;  // mean(dxh * xh)
  for (std::size_t i = 0; i < n; ++i) {
    dgamma_[i] += dy[i] * xhat_[i];
    m += dy[i] * gamma_[i] * xhat_[i];
  }
  m /= static_cast<double>(n);
  const double inv = 1.0 / rms_;
  for (std::size_t i = 0; i < n; ++i) dx[i] = (dy[i] * gamma_[i] - xhat_[i] * m) * inv;
}

void RMSNorm::apply_gradients() noexcept {
  adam_.step(gamma_, dgamma_);
  zero_grad();
}

void RMSNorm::zero_grad() noexcept { std::fill(dgamma_.begin(), dgamma_.end(), 0.0); }

}  // namespace irithyll::nn
