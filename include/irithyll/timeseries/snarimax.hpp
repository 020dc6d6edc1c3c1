// SNARIMAX: seasonal ARIMA with exogenous inputs as an online recurrence
// (River's time_series.SNARIMAX): the series is differenced, and a linear
// model trained one step at a time (recursive least squares by default, or a
// gradient step), predicts
// the differenced value from its own lags, the lags of its past errors, the
// seasonal lags of both, and the exogenous features.
//
// With B the backshift operator, the differenced series is
//   z_t = (1 - B)^d (1 - B^m)^sd y_t   (needs d + sd m past values)
// and its prediction, from the features known before y_t,
//   zhat_t = c + sum_{i<=p} a_i z_{t-i} + sum_{j<=q} t_j e_{t-j}
//              + sum_{k<=sp} A_k z_{t-km} + sum_{k<=sq} T_k e_{t-km} + sum_l w_l x_{t,l}
// where e_t = z_t - zhat_t (lags before the start of the series count as 0).
// The update, on the squared error with phi the feature vector and 1 for c,
// with rls off:
//   normalize on  (NLMS):  step = lr e_t / (1 + |phi|^2)
//   normalize off (SGD):   step = lr e_t
//   each weight += step * its feature; c += step
// NLMS makes the step independent of the series' scale (stable for lr in
// (0, 2)); plain SGD is River's LinearRegression without a scaler.
//   rls on (the default): recursive least squares on the same features (with the errors as
//   regressors this is extended least squares; Ljung & Soderstrom 1983,
//   "Theory and Practice of Recursive Identification", Sec. 3.7), theta =
//   (weights, c), P_0 = diag(1, ..., 1, 1e6): a unit ridge on the weights
//   and a near-flat prior on c. The exogenous features enter less their
//   first row's values, so c is a level near the data (unshifted, a feature
//   far from 0, such as a date counted in days, puts c far from it, where
//   any penalty holds the fit back) and the fit does not depend on where
//   the features' origin lies:
//     k = P phi / (1 + phi' P phi);  theta += k e_t;  P -= k (P phi)'
//   The weights after n steps are the least-squares fit to all n (ridge 1),
//   where a gradient step only drifts toward it: on seasonal series the
//   one-step error is ~20% lower than NLMS at its best step size. O(n^2)
//   per step for n = p + q + sp + sq + n_x + 1 weights. Because that fit
//   never forgets a row, it starts with the first row whose AR lags (up to
//   max(p, sp m) back) are all real values: earlier rows, whose lags would
//   be stand-in zeros, are not fitted and leave a zero error behind (on
//   River's airline-passengers example, sp = 3 and m = 12, fitting them
//   doubled the one-step error of the last year). Until the fit starts,
//   forecasts repeat the last value.
// regressor (River's regressor=): any catalogue regressor or pipeline, as
// `--model` spells one, takes the place of the linear model: it is built
// through the factory the registry passes (set_factory) at the first fitted
// row, when the width (lags plus exogenous features) is known, predicts
// zhat_t from the same features and learns (features, z_t); checkpoints
// carry its kind and state. A
// non-finite prediction or error skips the update. Forecasts run the
// recurrence forward on the model's own predictions (future errors 0) and
// undo the differencing. Before d + sd m values have been seen nothing is
// learned, and forecasts repeat the last value.
//
// Cost: O(p + q + sp + sq + n_x) per learn_one; forecast O(h (p + q + sp +
// sq + n_x + d + sd m)). Memory: the last max(p, sp m), max(q, sq m) and
// d + sd m values. Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/selection/member_factory.hpp"
#include "irithyll/timeseries/forecaster.hpp"

namespace irithyll::timeseries {

struct SnarimaxConfig {
  std::uint32_t p = 1;   // AR order: lags of the differenced series
  std::uint32_t d = 0;   // differencing order
  std::uint32_t q = 0;   // MA order: lags of the errors
  std::uint32_t m = 1;   // season length (steps)
  std::uint32_t sp = 0;  // seasonal AR order
  std::uint32_t sd = 0;  // seasonal differencing order
  std::uint32_t sq = 0;  // seasonal MA order
  double learning_rate = 0.02; // step size; NLMS: (0, 2) is stable without MA terms, lower with them
  bool normalize = true;       // NLMS (scale-free step); off = plain SGD
  bool rls = true;             // recursive least squares; off = the gradient step (learning-rate, normalize)
  // A catalogue regressor (or pipeline) as --model spells one, used in place
  // of the built-in linear model (River's regressor=); empty = built-in.
  std::string regressor;

  Status validate() const;
};

std::span<const ConfigField<SnarimaxConfig>> snarimax_fields();

class Snarimax final : public Forecaster {
 public:
  Snarimax() : Snarimax(SnarimaxConfig{}) {}
  // REQUIRES: config.validate() is OK (make_forecaster checks it).
  explicit Snarimax(const SnarimaxConfig& config);

  std::string_view name() const override { return "snarimax"; }
  Status learn_one(double y, std::span<const double> x = {}) override;
  Status forecast(std::span<const double> xs, std::span<double> out) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return n_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const SnarimaxConfig& config() const { return config_; }
  // How the regressor setting is built and decoded (the registry passes the
  // catalogue's); checks that the setting names a regressor.
  Status set_factory(const MemberFactory& factory);
  // The regressor in use (nullptr: the built-in linear model, or not built
  // yet: it is built at the first fitted row, when the width is known).
  const Learner* regressor() const { return regressor_.get(); }
  // Weights in feature order: AR, MA, seasonal AR, seasonal MA, exogenous.
  std::span<const double> weights() const { return weights_; }
  // The constant in the features' own coordinates (the fit's constant less
  // the exogenous weights times the origin they were shifted by).
  double intercept() const;
  std::size_t n_exogenous() const { return n_exo_; }

 private:
  // Fills feats_ from histories laid out oldest first, newest last.
  void features(const double* z_end, const double* e_end, std::span<const double> x) const;
  double predict_features() const;
  void rls_update(double e);
  std::size_t n_lag_features() const { return config_.p + config_.q + config_.sp + config_.sq; }
  // Differenced values the least-squares fit waits for (its AR lags real).
  std::size_t fit_delay() const { return uses_rls() ? z_len_ : 0; }
  bool uses_rls() const { return config_.rls && config_.regressor.empty(); }

  SnarimaxConfig config_;
  MemberFactory factory_{};
  std::unique_ptr<Learner> regressor_;
  std::vector<double> diff_coef_;  // (1-B)^d (1-B^m)^sd: coefficient of B^k, k = 0..D
  std::size_t z_len_ = 0, e_len_ = 0;  // how many past z and e the lags reach
  // Histories oldest first, newest last, of fixed length (shifted by one per
  // step: lengths are small, and a flat layout keeps lag k at end - k).
  std::vector<double> y_hist_;  // last D raw values (D = d + sd m), or 1
  std::vector<double> z_hist_;  // last z_len_ differenced values
  std::vector<double> e_hist_;  // last e_len_ errors
  std::uint64_t y_count_ = 0;   // raw values pushed (min with D is what y_hist_ holds)
  std::vector<double> weights_;
  double intercept_ = 0.0;
  // rls: the (n+1) x (n+1) matrix P over (weights, intercept), row-major;
  // empty until the first update fixes n.
  std::vector<double> p_;
  mutable std::vector<double> pphi_;  // scratch: P phi
  std::size_t n_exo_ = 0;
  // rls: the first exogenous row, subtracted from every row (empty: none).
  std::vector<double> x_origin_;
  bool exo_fixed_ = false;
  std::uint64_t n_seen_ = 0;
  mutable std::vector<double> feats_;  // scratch: the current feature vector
  mutable std::vector<double> fy_, fz_, fe_;  // forecast scratch histories
};

}  // namespace irithyll::timeseries
