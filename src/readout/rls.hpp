// RecursiveLeastSquares: the bounded linear readout on top of every neural
// feature extractor (reservoirs, attention, SSMs). Exponentially weighted
// least squares (Haykin, Adaptive Filter Theory, ch. 10):
//
//   k = P x / (lambda + x' P x),  e = y - w' x,  w += k e,
//   P = (P - k x' P) / lambda,    P(0) = delta * I.
//
// Cost O(n^2) per update, n^2 + 3n doubles; no allocation after construction.
// A residual variance (EWMA with weight 1 - lambda) gives a prediction
// interval y_hat +- z * sqrt(s2 * (1 + x' P x)). Updates with a non-finite
// input, target or gain are skipped, so one bad sample cannot poison P.
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll {

// The one check of an RLS readout's settings, for every learner that has one:
// "<who>: RLS forgetting factor must be in (0, 1]" or
// "<who>: RLS delta must be finite and > 0".
Status check_rls_config(std::string_view who, const RlsConfig& rls);

class RecursiveLeastSquares {
 public:
  RecursiveLeastSquares() = default;
  explicit RecursiveLeastSquares(std::size_t n_inputs, RlsConfig config = {});

  void update(std::span<const double> x, double y) noexcept;
  double predict(std::span<const double> x) const noexcept;
  // Half-width of the interval predict(x) +- z * sigma for a standard-normal quantile z.
  double prediction_half_width(std::span<const double> x, double z) const noexcept;
  void reset() noexcept;
  // Forgets input i alone: w_i = 0 and row and column i of P back to delta e_i,
  // as at construction, so the filter relearns that input's weight from
  // scratch (used when the feature extractor re-initialises the unit behind
  // it, nn/continual). Other weights are kept. Ignores i >= n_inputs().
  void reset_input(std::size_t i) noexcept;

  // Changes lambda from the next update on (a learner that modulates its
  // readout's memory, nn/ttt). REQUIRES: 0 < lambda <= 1.
  void set_forgetting_factor(double lambda) noexcept { config_.forgetting_factor = lambda; }

  std::size_t n_inputs() const noexcept { return n_; }
  std::span<const double> weights() const noexcept { return w_; }
  // P, n x n row-major.
  std::span<const double> covariance() const noexcept { return p_; }
  double residual_variance() const noexcept { return s2_; }
  std::uint64_t n_updates() const noexcept { return n_updates_; }
  const RlsConfig& config() const noexcept { return config_; }
  std::size_t memory_bytes() const noexcept;

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  RlsConfig config_;
  std::size_t n_ = 0;
  std::vector<double> w_, p_, px_;  // px_: scratch for P x
  double s2_ = 0.0;
  std::uint64_t n_updates_ = 0;
};

}  // namespace irithyll
