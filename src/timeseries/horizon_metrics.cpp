#include "irithyll/timeseries/horizon_metrics.hpp"

#include <cmath>
#include <limits>

namespace irithyll::timeseries {

void HorizonMetrics::update(std::size_t step, double y, double forecast) noexcept {
  if (!std::isfinite(y)) return;
  Sums& s = steps_[step];
  const double err = std::abs(y - forecast);
  const double denom = std::abs(y) + std::abs(forecast);
  ++s.n;
  s.abs += err;
  s.sq += err * err;
  s.smape += denom > 0.0 ? 2.0 * err / denom : (err == 0.0 ? 0.0 : std::numeric_limits<double>::quiet_NaN());
}

std::vector<double> HorizonMetrics::mae() const {
  std::vector<double> out;
  for (const Sums& s : steps_) out.push_back(s.n ? s.abs / static_cast<double>(s.n) : std::nan(""));
  return out;
}

std::vector<double> HorizonMetrics::rmse() const {
  std::vector<double> out;
  for (const Sums& s : steps_) out.push_back(s.n ? std::sqrt(s.sq / static_cast<double>(s.n)) : std::nan(""));
  return out;
}

std::vector<double> HorizonMetrics::smape() const {
  std::vector<double> out;
  for (const Sums& s : steps_) out.push_back(s.n ? 100.0 * s.smape / static_cast<double>(s.n) : std::nan(""));
  return out;
}

}  // namespace irithyll::timeseries
