// LagForecaster: any regression learner as a forecaster, fed the series'
// own lagged values plus the exogenous features:
//   features_t = (y_{t-l1}, ..., y_{t-lk}, x_t)  ->  y_t
// It learns once the longest lag is available. Multi-step forecasts are
// recursive: step h reads the forecasts of steps < h as its lagged values
// (future exogenous rows from xs, or NaN = missing when not given). A
// non-finite y coasts on the one-step forecast (kept as the lagged value,
// not learned).
//
// Cost per learn_one: one learner update plus O(max lag) to shift the
// history; forecast: h learner predictions. Memory: the learner plus max lag
// values. Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/timeseries/forecaster.hpp"

namespace irithyll::timeseries {

// "1,2,24" -> {1, 2, 24} (sorted, deduplicated, each in [1, 100000]).
Result<std::vector<std::uint32_t>> parse_lags(std::string_view text);

class LagForecaster final : public Forecaster {
 public:
  // Builds a blank learner of a kind for decode() (the catalogue's).
  using BlankLearner = std::function<std::unique_ptr<Learner>(std::string_view name)>;

  // learner: a regressor built for lags.size() + n_exogenous features.
  static Result<std::unique_ptr<LagForecaster>> make(std::unique_ptr<Learner> learner,
                                                     std::vector<std::uint32_t> lags, std::size_t n_exogenous,
                                                     BlankLearner blank = nullptr);

  std::string_view name() const override { return "lag_regressor"; }
  Status learn_one(double y, std::span<const double> x = {}) override;
  Status forecast(std::span<const double> xs, std::span<double> out) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return n_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  // Needs the BlankLearner given to make(); the stored learner kind must
  // match this one's.
  Status decode(ByteReader& in) override;

  const Learner& learner() const { return *learner_; }
  std::span<const std::uint32_t> lags() const { return lags_; }

 private:
  LagForecaster() = default;
  void fill(const double* hist_end, std::span<const double> x) const;

  std::unique_ptr<Learner> learner_;
  BlankLearner blank_;
  std::vector<std::uint32_t> lags_;
  std::size_t n_exo_ = 0;
  std::vector<double> hist_;  // last max-lag values, oldest first
  std::uint64_t pushed_ = 0;
  std::uint64_t n_seen_ = 0;
  mutable std::vector<double> feats_, fh_;  // scratch
};

}  // namespace irithyll::timeseries
