#include "irithyll/timeseries/decomposition.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace irithyll::timeseries {

Result<Decomposition> decompose_window(std::span<const double> y, std::uint32_t period, bool multiplicative) {
  if (period < 2) return Status::invalid_argument("decompose: period must be >= 2");
  const std::size_t n = y.size(), m = period;
  if (n < 2 * m)
    return Status::invalid_argument("decompose: a window of " + std::to_string(n) + " values is shorter than 2 periods (" +
                                    std::to_string(2 * m) + ")");
  for (std::size_t t = 0; t < n; ++t)
    if (!std::isfinite(y[t])) return Status::invalid_argument("decompose: value " + std::to_string(t) + " is not finite");
  if (multiplicative)
    for (std::size_t t = 0; t < n; ++t)
      if (!(y[t] > 0.0)) return Status::invalid_argument("decompose: multiplicative needs positive values");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Decomposition out;
  out.trend.assign(n, nan);
  const std::size_t half = m / 2;
  for (std::size_t t = half; t + half < n; ++t) {
    double s = 0.0;
    if (m % 2 == 0) {
      s = 0.5 * y[t - half] + 0.5 * y[t + half];
      for (std::size_t k = t - half + 1; k < t + half; ++k) s += y[k];
    } else {
      for (std::size_t k = t - half; k <= t + half; ++k) s += y[k];
    }
    out.trend[t] = s / static_cast<double>(m);
  }
  std::vector<double> avg(m, 0.0);
  std::vector<std::size_t> count(m, 0);
  for (std::size_t t = half; t + half < n; ++t) {
    avg[t % m] += multiplicative ? y[t] / out.trend[t] : y[t] - out.trend[t];
    ++count[t % m];
  }
  double mean = 0.0;
  for (std::size_t j = 0; j < m; ++j) mean += (avg[j] /= static_cast<double>(count[j])) / static_cast<double>(m);
  for (double& a : avg) a = multiplicative ? a / mean : a - mean;
  out.seasonal.resize(n);
  out.resid.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    out.seasonal[t] = avg[t % m];
    out.resid[t] = multiplicative ? y[t] / out.trend[t] / avg[t % m] : y[t] - out.trend[t] - avg[t % m];
  }
  return out;
}

Result<StreamingDecomposition> StreamingDecomposition::make(std::uint32_t period, double trend_alpha,
                                                            double seasonal_alpha) {
  if (period < 2 || period > (1u << 20)) return Status::invalid_argument("decomposition: period must be in [2, 2^20]");
  if (!(trend_alpha > 0.0 && trend_alpha < 1.0))
    return Status::invalid_argument("decomposition: trend-alpha must be in (0, 1)");
  if (!(seasonal_alpha > 0.0 && seasonal_alpha < 1.0))
    return Status::invalid_argument("decomposition: seasonal-alpha must be in (0, 1)");
  StreamingDecomposition d;
  d.trend_alpha_ = trend_alpha;
  d.seasonal_alpha_ = seasonal_alpha;
  d.seasonal_.assign(period, 0.0);
  return d;
}

Result<DecomposedPoint> StreamingDecomposition::update(double y) {
  if (!std::isfinite(y)) return Status::invalid_argument("decomposition: value is not finite");
  trend_ = n_ == 0 ? y : trend_alpha_ * y + (1.0 - trend_alpha_) * trend_;
  double& s = seasonal_[pos_];
  s = seasonal_alpha_ * (y - trend_) + (1.0 - seasonal_alpha_) * s;
  DecomposedPoint p{y, trend_, s, y - trend_ - s};
  ++n_;
  if (++pos_ == seasonal_.size()) pos_ = 0;
  return p;
}

void StreamingDecomposition::reset() {
  trend_ = 0.0;
  seasonal_.assign(seasonal_.size(), 0.0);
  pos_ = 0;
  n_ = 0;
}

void StreamingDecomposition::encode(ByteWriter& out) const {
  out.u32(1);
  out.f64(trend_alpha_);
  out.f64(seasonal_alpha_);
  out.f64(trend_);
  out.f64s(seasonal_);
  out.u32(pos_);
  out.u64(n_);
}

Status StreamingDecomposition::decode(ByteReader& in) {
  if (in.u32("decomposition version") != 1 && in.ok()) return Status::corruption("decomposition: unsupported version");
  const double ta = in.f64("trend alpha"), sa = in.f64("seasonal alpha"), trend = in.f64("trend");
  std::vector<double> seasonal = in.f64s("seasonal factors");
  const std::uint32_t pos = in.u32("position");
  const std::uint64_t n = in.u64("count");
  if (!in.ok()) return in.status();
  auto made = make(static_cast<std::uint32_t>(seasonal.size()), ta, sa);
  if (!made || seasonal.size() > (1u << 20) || pos >= seasonal.size())
    return Status::corruption("decomposition checkpoint: inconsistent state");
  *this = std::move(made).value();
  trend_ = trend;
  seasonal_ = std::move(seasonal);
  pos_ = pos;
  n_ = n;
  return Status::ok();
}

}  // namespace irithyll::timeseries
