// BCNorm: RMS normalisation of the B and C projections of a selective SSM
// (Mamba-3, Lahoti et al., ICLR 2026, sec. 3.2):
//
//   out_i = gamma_i * v_i / sqrt(mean(v^2) + eps),   eps = 1e-6.
//
// Scale invariant (up to eps), zero in -> zero out, empty in -> empty out.
//
// Backward (the exact derivative; tests/nn_norm checks it by finite
// differences), with r = sqrt(mean(v^2) + eps) and g = dy (.) gamma:
//   dgamma_i += dy_i v_i / r,   dv = (g - v mean(g (.) v) / r^2) / r.
// gamma is per dimension; it is learned only when set_learnable(true):
// backward() then accumulates dgamma and step(lr) applies plain SGD to it.
// (The seed kept gamma fixed or left it to "an outer loop"; the per-dimension
// shape is the one its constructor anticipated.)
//
// O(n) per call, 2n doubles (gamma, dgamma); no allocation. Thread-safe for const use.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::nn {

class BCNorm {
 public:
  static constexpr double kDefaultEps = 1e-6;

  // Checked construction: dim == 0 or eps not finite and > 0 is an invalid argument.
  static Result<BCNorm> make(std::size_t dim, double eps = kDefaultEps);
  static Status validate(std::size_t dim, double eps);
  // REQUIRES: validate(dim, eps) is OK (debug assert; use make() for untrusted input).
  explicit BCNorm(std::size_t dim, double eps = kDefaultEps);

  // REQUIRES: in.size() == out.size() == dim() (or both empty). in and out may alias.
  void normalize(std::span<const double> in, std::span<double> out) const noexcept;
  void normalize_inplace(std::span<double> v) const noexcept { normalize(v, v); }

  // normalize in place that also keeps the unit-RMS vector v / r (before
  // gamma) in `unit`, for a caller that forms dgamma itself (Mamba3).
  void normalize_split(std::span<double> v, std::span<double> unit) const noexcept;
  // dgamma += dout (.) unit when learnable (dout: gradient w.r.t. normalize's output).
  void accumulate_grad_gamma(std::span<const double> unit, std::span<const double> dout) noexcept;
  // Backward of normalize(v): writes dv (dv may alias dy), and accumulates
  // dgamma when learnable. REQUIRES: v, dy, dv all dim() long (or all empty).
  void backward(std::span<const double> v, std::span<const double> dy, std::span<double> dv) noexcept;
  // gamma -= lr * dgamma, then dgamma = 0 (no-op unless learnable). Non-finite
  // dgamma is dropped; a dgamma longer than max_norm (L2) is scaled to it first.
  void step(double lr, double max_norm = std::numeric_limits<double>::infinity()) noexcept;
  void zero_grad() noexcept;
  void set_learnable(bool on) noexcept { learnable_ = on; }
  bool learnable() const noexcept { return learnable_; }
  std::span<const double> grad_gamma() const noexcept { return dgamma_; }

  std::size_t dim() const noexcept { return gamma_.size(); }
  double eps() const noexcept { return eps_; }
  std::span<double> gamma() noexcept { return gamma_; }
  std::span<const double> gamma() const noexcept { return gamma_; }

 private:
  std::vector<double> gamma_, dgamma_;
  double eps_;
  bool learnable_ = false;
};

}  // namespace irithyll::nn
