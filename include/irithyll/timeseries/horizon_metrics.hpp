// Forecast errors by horizon step: for each h = 1..H, the MAE, RMSE and
// SMAPE of the forecasts made h steps ahead (River's
// evaluate.iter_evaluate for forecasting reports the same per step).
//
//   MAE_h   = mean |y - yhat|      RMSE_h = sqrt(mean (y - yhat)^2)
//   SMAPE_h = 100 mean 2 |y - yhat| / (|y| + |yhat|), a term being 0 when
//             both are 0
// A non-finite y is not scored (a missing observation); a non-finite
// forecast is scored and makes that step's metrics NaN: it is reported, not
// hidden. Cost O(1) per update; memory 4H values. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irithyll::timeseries {

class HorizonMetrics {
 public:
  // REQUIRES: horizon >= 1.
  explicit HorizonMetrics(std::size_t horizon) : steps_(horizon) {}

  // REQUIRES: step < horizon() (0-based: step 0 is one step ahead).
  void update(std::size_t step, double y, double forecast) noexcept;

  std::size_t horizon() const { return steps_.size(); }
  std::uint64_t count(std::size_t step) const { return steps_[step].n; }
  std::vector<double> mae() const;
  std::vector<double> rmse() const;
  std::vector<double> smape() const;

 private:
  struct Sums {
    std::uint64_t n = 0;
    double abs = 0.0, sq = 0.0, smape = 0.0;
  };
  std::vector<Sums> steps_;
};

}  // namespace irithyll::timeseries
