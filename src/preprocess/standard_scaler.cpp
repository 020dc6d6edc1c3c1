#include "irithyll/preprocess/standard_scaler.hpp"

#include <algorithm>
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

double StandardScaler::standardize(std::size_t i, double x) const {
  // x joins the running statistics for this one transform (nothing stored):
  // with x among the n values, |x - mean| <= sd * (n - 1) / sqrt(n), so a
  // feature that has barely varied so far cannot blow up to an unbounded z.
  const std::uint64_t seen = i < count_.size() ? count_[i] : 0;
  const double d = seen == 0 ? 0.0 : x - mean_[i];
  if (d == 0.0) return 0.0;
  const double c = static_cast<double>(seen);
  const double n = c + 1.0;
  // Welford's step with x: x - mean' = d c / n and m2' = m2 + d (x - mean');
  // z = (x - mean') / sqrt(m2' / c), the sample sd over the n values.
  const double e = d * (c / n);
  const double m2 = m2_[i] + d * e;
  if (m2 > 0.0 && m2 <= std::numeric_limits<double>::max()) {
    const double z = e * std::sqrt(c / m2);
    // Only rounding in subnormal statistics can leave the bound (or 0 * inf).
    if (z * z * n <= c * c) return z;
    return std::copysign(c / std::sqrt(n), d);
  }
  if (m2 == 0.0) return std::copysign(c / std::sqrt(n), d);  // d * e underflowed: x alone differs
  if (!std::isinf(m2)) return 0.0;                             // statistics not numbers
  // d^2 overflowed (values near the double range): z = bound * a / hypot(sd, a)
  // with a = |d| sqrt(c / n), which neither overflows nor leaves [0, bound].
  const double a = std::abs(d) * std::sqrt(c / n);
  const double h = std::hypot(std::sqrt(m2_[i]), a);
  const double ratio = std::isinf(a) ? 1.0 : h > 0.0 ? std::min(a / h, 1.0) : 0.0;
  return std::copysign(ratio * c / std::sqrt(n), d);
}

void StandardScaler::transform_one(std::span<const double> x, std::span<double> out) const {
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = std::isfinite(x[i]) ? standardize(i, x[i]) : std::numeric_limits<double>::quiet_NaN();
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
