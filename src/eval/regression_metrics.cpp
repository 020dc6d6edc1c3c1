#include "irithyll/eval/regression_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {
namespace {

MetricValues finish(double n, double abs_sum, double sq_sum, double ss_tot) {
  MetricValues v;
  if (n == 0.0) return v;
  v.mae = abs_sum / n;
  v.rmse = std::sqrt(sq_sum / n);
  if (ss_tot > 0.0) {
    v.r2 = 1.0 - sq_sum / ss_tot;
  } else if (std::isnan(sq_sum)) {
    v.r2 = sq_sum;
  } else {
    v.r2 = sq_sum == 0.0 ? 1.0 : 0.0;
  }
  return v;
}

}  // namespace

void RegressionMetrics::update(double y, double prediction) noexcept {
  const double e = y - prediction;
  ++n_;
  abs_sum_ += std::fabs(e);
  sq_sum_ += e * e;
  const double d = y - mean_;
  mean_ += d / static_cast<double>(n_);
  m2_ += d * (y - mean_);
  mape_.update(y, prediction);
  smape_.update(y, prediction);
}

void RegressionMetrics::reset() noexcept { *this = RegressionMetrics(); }

MetricValues RegressionMetrics::values() const {
  MetricValues v = finish(static_cast<double>(n_), abs_sum_, sq_sum_, m2_);
  if (mape_.count() > 0) v.mape = mape_.value();
  if (smape_.count() > 0) v.smape = smape_.value();
  return v;
}

RollingRegressionMetrics::RollingRegressionMetrics(std::size_t window) : ring_(window == 0 ? 1 : window) {}

void RollingRegressionMetrics::update(double y, double prediction) noexcept {
  if (n_ == 0) shift_ = y;
  Entry& slot = ring_[head_];
  if (n_ == ring_.size()) {
    const double old = slot.y - shift_;
    remove_error(slot.error);
    y_sum_ -= old;
    y_sq_sum_ -= old * old;
  } else {
    ++n_;
  }
  slot = Entry{y, y - prediction};
  const double yc = y - shift_;
  add_error(slot.error);
  y_sum_ += yc;
  y_sq_sum_ += yc * yc;
  if (++head_ == ring_.size()) {
    head_ = 0;
    rebuild();
  }
}

void RollingRegressionMetrics::rebuild() noexcept {
  // Once per lap: re-centre on the window's mean and re-add every sum, so
  // neither subtraction residue nor a drifting level accumulates.
  double mean = 0.0;
  for (std::size_t i = 0; i < n_; ++i) mean += ring_[i].y;
  mean /= static_cast<double>(n_);
  if (std::isfinite(mean)) shift_ = mean;
  abs_sum_ = sq_sum_ = y_sum_ = y_sq_sum_ = 0.0;
  non_finite_ = 0;
  for (std::size_t i = 0; i < n_; ++i) {
    const double yc = ring_[i].y - shift_;
    add_error(ring_[i].error);
    y_sum_ += yc;
    y_sq_sum_ += yc * yc;
  }
}

void RollingRegressionMetrics::add_error(double e) noexcept {
  if (!std::isfinite(e)) {
    ++non_finite_;
    return;
  }
  abs_sum_ += std::fabs(e);
  sq_sum_ += e * e;
}

void RollingRegressionMetrics::remove_error(double e) noexcept {
  if (!std::isfinite(e)) {
    --non_finite_;
    return;
  }
  abs_sum_ -= std::fabs(e);
  sq_sum_ -= e * e;
}

void RollingRegressionMetrics::reset() noexcept {
  head_ = n_ = non_finite_ = 0;
  shift_ = abs_sum_ = sq_sum_ = y_sum_ = y_sq_sum_ = 0.0;
}

MetricValues RollingRegressionMetrics::values() const {
  if (non_finite_ > 0) {
    MetricValues v;
    v.mae = v.rmse = v.r2 = MetricValues::kNone;
    return v;
  }
  const double n = static_cast<double>(n_);
  const double ss_tot = n == 0.0 ? 0.0 : std::max(0.0, y_sq_sum_ - y_sum_ * y_sum_ / n);
  return finish(n, abs_sum_, sq_sum_, ss_tot);
}

}  // namespace irithyll
