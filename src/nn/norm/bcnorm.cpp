#include "irithyll/nn/norm/bcnorm.hpp"

#include <cmath>
#include <stdexcept>

namespace irithyll::nn {

BCNorm::BCNorm(std::size_t dim, double eps) : gamma_(dim, 1.0), eps_(eps) {
  if (dim == 0) throw std::invalid_argument("BCNorm: dim must be > 0");
  if (!(eps > 0.0) || !std::isfinite(eps)) throw std::invalid_argument("BCNorm: eps must be finite and > 0");
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
