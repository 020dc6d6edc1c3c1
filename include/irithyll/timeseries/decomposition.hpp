// Seasonal decomposition, two ways:
//
// decompose_window: classical decomposition of a window of a series (Kendall
// & Stuart; the one of statsmodels' seasonal_decompose, two-sided):
//   trend_t    centred moving average over one period (for an even period m,
//              the 2 x m average: weights 1/2m, 1/m, ..., 1/m, 1/2m); NaN for
//              the first and last floor(m/2) points, where it is undefined
//   detrended  y - trend (additive) or y / trend (multiplicative)
//   seasonal   per position t mod m, the mean of the defined detrended values,
//              normalised to sum 0 (additive) or to mean 1 (multiplicative)
//   resid      detrended - seasonal (or detrended / seasonal)
// Cost O(n), memory 3n values. REQUIRES: period >= 2 and a window of at least
// 2 periods; the caller's buffer is not kept.
//
// StreamingDecomposition: a one-pass split of each new value into trend,
// seasonal and residual, observed = trend + seasonal + residual exactly:
//   trend_t = y_1 on the first value, else a_T y_t + (1 - a_T) trend_{t-1}
//   s[t mod m] <- a_S (y_t - trend_t) + (1 - a_S) s[t mod m]
//   residual_t = y_t - trend_t - s[t mod m]
// The trend is an exponentially weighted mean of the raw series, so with a
// slow a_T it lags a trend and with a fast one it absorbs part of the season;
// the seasonal factors are not renormalised. Cost O(1) per value, memory m
// values. Thread safety (both): one thread at a time per object.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::timeseries {

struct Decomposition {
  std::vector<double> trend, seasonal, resid;  // each as long as the window
};

Result<Decomposition> decompose_window(std::span<const double> y, std::uint32_t period, bool multiplicative = false);

struct DecomposedPoint {
  double observed = 0.0, trend = 0.0, seasonal = 0.0, residual = 0.0;
};

class StreamingDecomposition {
 public:
  // REQUIRES (checked by make): period >= 2, alphas in (0, 1).
  static Result<StreamingDecomposition> make(std::uint32_t period, double trend_alpha = 0.1,
                                             double seasonal_alpha = 0.05);

  // A non-finite y is refused (the state is unchanged).
  Result<DecomposedPoint> update(double y);
  void reset();

  double trend() const { return trend_; }
  std::span<const double> seasonal_factors() const { return seasonal_; }
  // The seasonal position the next value will use.
  std::uint32_t current_position() const { return pos_; }
  std::uint64_t n_samples_seen() const { return n_; }
  bool is_initialized() const { return n_ >= seasonal_.size(); }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  StreamingDecomposition() = default;
  double trend_alpha_ = 0.1, seasonal_alpha_ = 0.05;
  double trend_ = 0.0;
  std::vector<double> seasonal_;
  std::uint32_t pos_ = 0;
  std::uint64_t n_ = 0;
};

}  // namespace irithyll::timeseries
