#include "irithyll/preprocess/standard_scaler.hpp"

#include <cmath>
#include <limits>

namespace irithyll {

void StandardScaler::learn_one(std::span<const double> x) {
  if (mean_.size() < x.size()) {
    mean_.resize(x.size(), 0.0);
    m2_.resize(x.size(), 0.0);
    count_.resize(x.size(), 0);
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) continue;
    const double n = static_cast<double>(++count_[i]);
    const double d = x[i] - mean_[i];
    mean_[i] += d / n;
    m2_[i] += d * (x[i] - mean_[i]);
  }
}

double StandardScaler::variance(std::size_t i) const {
  if (i >= count_.size() || count_[i] < 2) return 0.0;
  return m2_[i] / static_cast<double>(count_[i] - 1);
}

void StandardScaler::transform_one(std::span<const double> x, std::span<double> out) const {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) {
      out[i] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    const double var = variance(i);
    out[i] = var > 0.0 ? (x[i] - mean_[i]) / std::sqrt(var) : 0.0;
  }
}

void StandardScaler::reset() {
  mean_.clear();
  m2_.clear();
  count_.clear();
}

std::size_t StandardScaler::memory_bytes() const {
  return sizeof(*this) + (mean_.capacity() + m2_.capacity()) * sizeof(double) +
         count_.capacity() * sizeof(std::uint64_t);
}

void StandardScaler::encode(ByteWriter& out) const {
  out.f64s(mean_);
  out.f64s(m2_);
  out.u64s(count_);
}

Status StandardScaler::decode(ByteReader& in) {
  auto mean = in.f64s("scaler mean");
  auto m2 = in.f64s("scaler m2");
  auto count = in.u64s("scaler count");
  if (!in.ok()) return in.status();
  if (mean.size() != m2.size() || mean.size() != count.size())
    return Status::corruption("standard scaler: inconsistent array lengths");
  mean_ = std::move(mean);
  m2_ = std::move(m2);
  count_ = std::move(count);
  return Status::ok();
}

}  // namespace irithyll
