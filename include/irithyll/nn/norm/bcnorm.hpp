// BCNorm: RMS normalisation of the B and C projections of a selective SSM
// (Mamba-3, Lahoti et al., ICLR 2026, sec. 3.2):
//
//   out_i = gamma_i * v_i / sqrt(mean(v^2) + eps),   eps = 1e-6.
//
// Scale invariant (up to eps), zero in -> zero out, empty in -> empty out.
// O(n) per call, n doubles of gamma; no allocation. Thread-safe for const use.
#pragma once

#include <cstddef>
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

  std::size_t dim() const noexcept { return gamma_.size(); }
  double eps() const noexcept { return eps_; }
  std::span<double> gamma() noexcept { return gamma_; }
  std::span<const double> gamma() const noexcept { return gamma_; }

 private:
  std::vector<double> gamma_;
  double eps_;
};

}  // namespace irithyll::nn
