#include "irithyll/linear/standardizer.hpp"

#include <algorithm>
#include <cmath>

#include "linear/standardizer_kernels.hpp"

namespace irithyll {

void Standardizer::resize(std::size_t d, bool enabled) {
  enabled_ = enabled;
  const std::size_t n = enabled ? d : 0;
  weight_.assign(n, 0.0);
  mean_.assign(n, 0.0);
  m2_.assign(n, 0.0);
  inv_sd_.assign(n, 0.0);
}

void Standardizer::clear() {
  std::fill(weight_.begin(), weight_.end(), 0.0);
  std::fill(mean_.begin(), mean_.end(), 0.0);
  std::fill(m2_.begin(), m2_.end(), 0.0);
  std::fill(inv_sd_.begin(), inv_sd_.end(), 0.0);
}

void Standardizer::learn(std::span<const double> x, double weight) {
  if (!enabled_) return;
  linear_detail::standardizer_learn(x.data(), weight, {weight_.data(), mean_.data(), m2_.data(), inv_sd_.data()},
                                    mean_.size());
}

void Standardizer::transform(std::span<const double> x, std::span<double> z) const {
  if (!enabled_) {
    for (std::size_t j = 0; j < x.size(); ++j) z[j] = x[j] - x[j] == 0.0 ? x[j] : 0.0;
    return;
  }
  linear_detail::standardizer_transform(x.data(), mean_.data(), inv_sd_.data(), z.data(), x.size());
}

std::size_t Standardizer::memory_bytes() const {
  return (weight_.capacity() + mean_.capacity() + m2_.capacity() + inv_sd_.capacity()) * sizeof(double);
}

void Standardizer::encode(ByteWriter& out) const {
  out.f64s(weight_);
  out.f64s(mean_);
  out.f64s(m2_);
  out.f64s(inv_sd_);
}

Status Standardizer::decode(ByteReader& in, std::size_t d, bool enabled) {
  auto w = in.f64s("standardizer weights");
  auto mean = in.f64s("standardizer means");
  auto m2 = in.f64s("standardizer m2");
  auto inv = in.f64s("standardizer 1/sd");
  if (!in.ok()) return in.status();
  const std::size_t n = enabled ? d : 0;
  if (w.size() != n || mean.size() != n || m2.size() != n || inv.size() != n)
    return Status::corruption("standardizer: statistics are not one per feature");
  for (std::size_t j = 0; j < n; ++j)
    if (!std::isfinite(w[j]) || !std::isfinite(mean[j]) || !std::isfinite(m2[j]) || !std::isfinite(inv[j]) ||
        w[j] < 0.0 || m2[j] < 0.0 || inv[j] < 0.0)
      return Status::corruption("standardizer: statistic out of range");
  enabled_ = enabled;
  weight_ = std::move(w), mean_ = std::move(mean), m2_ = std::move(m2), inv_sd_ = std::move(inv);
  return Status::ok();
}

}  // namespace irithyll
