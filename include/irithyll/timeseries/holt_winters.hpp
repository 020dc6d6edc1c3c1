// Holt-Winters: triple exponential smoothing with an additive or
// multiplicative season and an optionally damped additive trend.
// Holt (1957), Winters (1960); damping: Gardner & McKenzie (1985). The
// recursion is the component form of Hyndman & Athanasopoulos, "Forecasting:
// Principles and Practice", 3rd ed., section 8.3, the one statsmodels'
// ExponentialSmoothing runs. With l, b, s the level, trend and seasonal
// state, m the period and phi the damping (1 = none):
//
//   additive season        l_t = a (y_t - s_{t-m}) + (1-a)(l_{t-1} + phi b_{t-1})
//                          s_t = g (y_t - l_{t-1} - phi b_{t-1}) + (1-g) s_{t-m}
//   multiplicative season  l_t = a y_t / s_{t-m} + (1-a)(l_{t-1} + phi b_{t-1})
//                          s_t = g y_t / (l_{t-1} + phi b_{t-1}) + (1-g) s_{t-m}
//   trend                  b_t = beta (l_t - l_{t-1}) + (1-beta) phi b_{t-1}
//   forecast               y_{t+h} = l_t + (phi + ... + phi^h) b_t  [+ or *] s_{t+h-m(k+1)}
//
// Initialisation (streaming): the first 2m observations (2 without a season
// but with a trend, 1 with neither) are buffered. Then
//   b_0 = mean_j (y_{m+j} - y_j) / m                     (the season-over-season slope)
//   l_0 = mean(first season) - b_0 (m+1)/2               (the level one step before y_1)
//   s_j = mean over both seasons of y - (l_0 + t b_0)     (or y / (l_0 + t b_0))
// with the seasonals normalised to sum 0 (mean 1), and these states, which
// hold at time 0, are run through the recursion over the buffered values:
// exactly statsmodels' initialization_method="known" with those initial
// states. Before that, forecasts repeat the last value (0 before any).
//
// Cost: O(1) per learn_one, O(h) per forecast of h steps; memory 8m bytes
// plus the 2m-value start buffer. Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/timeseries/forecaster.hpp"

namespace irithyll::timeseries {

struct HoltWintersConfig {
  double alpha = 0.2;          // level smoothing; (0, 1]: higher follows the data faster
  double beta = 0.05;          // trend smoothing; [0, 1]: a slow trend is the usual case
  double gamma = 0.1;          // seasonal smoothing; [0, 1]
  double phi = 1.0;            // trend damping; (0, 1], 1 = undamped
  bool trend = true;           // off: level (and season) only
  std::uint32_t seasonality = 0;  // period m; 0 = no season, else >= 2
  bool multiplicative = false;    // multiplicative season (needs a positive series)

  Status validate() const;
};

std::span<const ConfigField<HoltWintersConfig>> holt_winters_fields();

// States at time 0 (before the first observation).
struct HoltWintersStates {
  double level = 0.0;
  double trend = 0.0;
  std::vector<double> seasonals;  // seasonals[j] is used for observation j (0-based)
};

// The streaming initialisation above, from the first holt_winters_warmup(config)
// values (a = alpha, g = gamma above). REQUIRES: first.size() == that, all finite.
HoltWintersStates holt_winters_initial_states(const HoltWintersConfig& config, std::span<const double> first);
std::size_t holt_winters_warmup(const HoltWintersConfig& config);

class HoltWinters final : public Forecaster {
 public:
  HoltWinters() : HoltWinters(HoltWintersConfig{}) {}
  // REQUIRES: config.validate() is OK (make_forecaster checks it).
  explicit HoltWinters(const HoltWintersConfig& config);

  std::string_view name() const override { return "holt_winters"; }
  Status learn_one(double y, std::span<const double> x = {}) override;
  Status forecast(std::span<const double> xs, std::span<double> out) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return n_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // Starts from given time-0 states instead of the warm-up buffer (what
  // statsmodels calls "known" initialisation). REQUIRES: seasonals.size() ==
  // seasonality (empty when 0); call before the first learn_one.
  Status set_initial_states(const HoltWintersStates& states);

  const HoltWintersConfig& config() const { return config_; }
  bool is_initialized() const { return initialized_; }
  double level() const { return level_; }
  double trend() const { return trend_; }
  // Seasonal state in time order: [0] is the one the next observation uses.
  std::vector<double> seasonals() const;
  // The one-step forecast (what forecast() would give for h = 1).
  double forecast_one() const;

 private:
  void step(double y);
  void start(const HoltWintersStates& states);

  HoltWintersConfig config_;
  double alphac_ = 0.0, betac_phi_ = 0.0, gammac_ = 0.0;  // 1 - alpha, (1 - beta) phi, 1 - gamma
  bool initialized_ = false;
  double level_ = 0.0, trend_ = 0.0;
  std::vector<double> season_;   // ring of m values (one 0 / 1 without a season)
  std::uint32_t pos_ = 0;        // ring index of the next observation's seasonal
  std::vector<double> warmup_;   // values before initialisation
  double last_ = 0.0;            // last value seen (naive forecast before initialisation)
  std::uint64_t n_seen_ = 0;
};

}  // namespace irithyll::timeseries
