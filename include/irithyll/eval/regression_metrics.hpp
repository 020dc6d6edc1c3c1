// Prequential regression metrics: MAE, RMSE and R^2 over the whole stream
// (RegressionMetrics) or over the last W samples (RollingRegressionMetrics);
// the whole-stream version also keeps MAPE and SMAPE (stream_metrics.hpp).
//
//   MAE  = mean |y - yhat|          RMSE = sqrt(mean (y - yhat)^2)
//   R^2  = 1 - SS_res / SS_tot, SS_tot = sum (y - mean y)^2; when SS_tot = 0
//          it is 1 for a perfect fit and 0 otherwise (scikit-learn's rule).
// SS_tot is accumulated with Welford's update (cumulative) or with sums
// shifted by a recent mean (rolling), so a large constant offset in y does
// not cancel away its digits. A non-finite prediction makes the metrics NaN
// (for the rolling version, while it is inside the window; its running sums
// skip it and count it instead): it is reported, not hidden.
//
// Cost per update: O(1) (rolling sums are rebuilt from the ring once every W
// updates to stop rounding drift: O(1) amortized). Memory: O(1), plus W
// entries for the rolling version. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "irithyll/eval/metric_values.hpp"
#include "irithyll/eval/stream_metrics.hpp"

namespace irithyll {

class RegressionMetrics {
 public:
  void update(double y, double prediction) noexcept;
  void reset() noexcept;
  std::uint64_t count() const { return n_; }
  MetricValues values() const;

 private:
  std::uint64_t n_ = 0;
  double abs_sum_ = 0.0;
  double sq_sum_ = 0.0;
  double mean_ = 0.0;  // Welford running mean and M2 of y
  double m2_ = 0.0;
  Mape mape_;
  Smape smape_;
};

class RollingRegressionMetrics {
 public:
  // REQUIRES: window >= 1.
  explicit RollingRegressionMetrics(std::size_t window);
  void update(double y, double prediction) noexcept;
  void reset() noexcept;
  std::size_t window() const { return ring_.size(); }
  std::uint64_t count() const { return n_; }  // min(samples seen, window)
  MetricValues values() const;

 private:
  struct Entry {
    double y;
    double error;  // y - prediction
  };
  void rebuild() noexcept;
  void add_error(double e) noexcept;
  void remove_error(double e) noexcept;

  std::vector<Entry> ring_;
  std::size_t head_ = 0;
  std::size_t n_ = 0;
  std::size_t non_finite_ = 0;  // errors in the window that are NaN or infinite
  double shift_ = 0.0;  // y sums are of (y - shift_)
  double abs_sum_ = 0.0;
  double sq_sum_ = 0.0;
  double y_sum_ = 0.0;
  double y_sq_sum_ = 0.0;
};

}  // namespace irithyll
