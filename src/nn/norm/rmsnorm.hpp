// RMSNorm (Zhang & Sennrich, NeurIPS 2019) with an explicit backward pass and
// an Adam optimiser (Kingma & Ba, ICLR 2015) for its per-dimension scale:
//
//   rms = sqrt(mean(x^2) + eps),  xh = x / rms,  y = gamma (.) xh
//   dgamma += dy (.) xh
//   dx = (dxh - xh * mean(dxh (.) xh)) / rms,   dxh = dy (.) gamma
//
// The write-up this follows (seed 001) drops the 1/rms on the second term of
// dx; the form above is the exact derivative and the finite-difference test
// (tests/nn_norm) is what confirms it.
//
// Cost: O(d) per forward/backward/step; 5d doubles; no allocation after
// construction. One owner; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::nn {

struct AdamConfig {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
};

// Adam over a flat parameter vector; bias-corrected moments.
class Adam {
 public:
  Adam() = default;
  explicit Adam(std::size_t n, AdamConfig config = {}) : config_(config), m_(n, 0.0), v_(n, 0.0) {}
  // params -= lr * mhat / (sqrt(vhat) + eps). Non-finite gradients skip the step.
  void step(std::span<double> params, std::span<const double> grads) noexcept;
  void reset() noexcept;
  std::uint64_t steps() const noexcept { return t_; }
  const AdamConfig& config() const noexcept { return config_; }

 private:
  AdamConfig config_;
  std::vector<double> m_, v_;
  std::uint64_t t_ = 0;
};

class RMSNorm {
 public:
  static constexpr double kDefaultEps = 1e-5;

  // Checked construction: dim == 0 or eps not finite and > 0 is an invalid argument.
  static Result<RMSNorm> make(std::size_t dim, double eps = kDefaultEps, AdamConfig adam = {});
  static Status validate(std::size_t dim, double eps);
  // REQUIRES: validate(dim, eps) is OK (debug assert; use make() for untrusted input).
  explicit RMSNorm(std::size_t dim, double eps = kDefaultEps, AdamConfig adam = {});

  // y = gamma * x / rms(x); caches xh and rms for backward(). x, y: dim() long.
  void forward(std::span<const double> x, std::span<double> y) noexcept;
  // Backward of the most recent forward(): writes dx, accumulates dgamma.
  void backward(std::span<const double> dy, std::span<double> dx) noexcept;
  // Adam step on gamma with the accumulated dgamma, which is then cleared.
  void apply_gradients() noexcept;
  void zero_grad() noexcept;

  std::size_t dim() const noexcept { return gamma_.size(); }
  double eps() const noexcept { return eps_; }
  std::span<double> gamma() noexcept { return gamma_; }
  std::span<const double> gamma() const noexcept { return gamma_; }
  std::span<const double> grad_gamma() const noexcept { return dgamma_; }
  double last_rms() const noexcept { return rms_; }

 private:
  std::vector<double> gamma_, dgamma_, xhat_;
  double eps_;
  double rms_ = 1.0;
  Adam adam_;
};

}  // namespace irithyll::nn
