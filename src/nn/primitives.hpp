// Streaming primitives shared by the neural models: numerically safe scalar
// maps (softplus, sigmoid), the softplus-softmax mix used for bounded level
// weights in log-linear attention (Han Guo et al., ICLR 2026, sec. 3.2), tanh
// bounding and a Welford normaliser (Welford 1962, Bessel-corrected).
//
// Random draws use irithyll::Xorshift64 (core/rng.hpp).
//
// Cost: O(n) per call for the vector maps, O(d) per Welford step; nothing
// allocates after construction.
// Thread safety: free functions are pure; objects have one owner.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace irithyll::nn {

// ln(1 + e^x), exact-to-rounding in both tails: x above 20 returns x, x below
// -20 returns e^x (the neglected terms are below 1 ulp there).
inline double softplus(double x) noexcept {
  if (x > 20.0) return x;
  if (x < -20.0) return std::exp(x);
  return std::log1p(std::exp(x));
}

// Two-branch logistic function that never evaluates exp of a large positive value.
inline double sigmoid(double x) noexcept {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

// out_i = softplus(x_i / tau) / sum_j softplus(x_j / tau). A distribution:
// every entry >= 0 and the entries sum to 1 (uniform when the sum underflows).
// REQUIRES: tau > 0, out.size() >= x.size(); x and out may alias.
// Returns the sum of softplus values (needed by the mix Jacobian).
double softplus_softmax_mix(std::span<const double> x, double tau, std::span<double> out) noexcept;

void tanh_inplace(std::span<double> v) noexcept;

// Euclidean norm; scaled so that components near 1e200 do not overflow.
double l2_norm(std::span<const double> v) noexcept;

// Every |v| <= limit (NaN fails): what a decoder asks of weights and states
// read from a record. Learning keeps them finite, and values beyond 1e100
// cannot come from data a double holds; such a record would predict inf or
// NaN.
inline bool all_within(std::span<const double> v, double limit = 1e100) noexcept {
  for (const double e : v)
    if (!(e >= -limit && e <= limit)) return false;
  return true;
}

// Running per-dimension mean and Bessel-corrected variance (Welford). The
// normalised output is (x - mean) / sqrt(var + 1e-8), and 0 until two
// samples have been seen. Non-finite components are not counted (that
// dimension's update is skipped and its output is 0).
class WelfordNormalizer {
 public:
  static constexpr double kVarEps = 1e-8;

  WelfordNormalizer() = default;
  explicit WelfordNormalizer(std::size_t dim) : count_(dim, 0), mean_(dim, 0.0), m2_(dim, 0.0) {}

  void update(std::span<const double> x) noexcept;
  void normalize(std::span<const double> x, std::span<double> out) const noexcept;
  void update_and_normalize(std::span<const double> x, std::span<double> out) noexcept {
    update(x);
    normalize(x, out);
  }
  void reset() noexcept;

  std::size_t dim() const noexcept { return mean_.size(); }
  double mean(std::size_t i) const noexcept { return mean_[i]; }
  double variance(std::size_t i) const noexcept {
    return count_[i] < 2 ? 0.0 : m2_[i] / static_cast<double>(count_[i] - 1);
  }
  std::uint64_t count(std::size_t i) const noexcept { return count_[i]; }

  // Raw state access for serialisation by owners.
  std::vector<std::uint64_t>& counts() noexcept { return count_; }
  std::vector<double>& means() noexcept { return mean_; }
  std::vector<double>& m2s() noexcept { return m2_; }
  const std::vector<std::uint64_t>& counts() const noexcept { return count_; }
  const std::vector<double>& means() const noexcept { return mean_; }
  const std::vector<double>& m2s() const noexcept { return m2_; }
  // The state a decoder may adopt: equal lengths, means within 1e100, M2s
  // finite and >= 0.
  static bool valid_state(std::span<const std::uint64_t> counts, std::span<const double> means,
                          std::span<const double> m2s) noexcept {
    if (means.size() != counts.size() || m2s.size() != counts.size() || !all_within(means)) return false;
    for (const double m : m2s)
      if (!(m >= 0.0 && m <= 1e300)) return false;
    return true;
  }

 private:
  std::vector<std::uint64_t> count_;
  std::vector<double> mean_, m2_;
};

}  // namespace irithyll::nn
