#include "irithyll/nn/norm/bcnorm.hpp"

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

BCNorm::BCNorm(std::size_t dim, double eps) : gamma_(dim, 1.0), eps_(eps) {
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

}  // namespace irithyll::nn
