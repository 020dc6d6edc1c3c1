// SelectiveSsm: the Mamba-1 selective state-space layer (Gu & Dao 2023, alg. 2)
// for streaming, one sample at a time, d_in channels, N states per channel:
//
//   Delta = softplus(w_Delta . x + b_Delta)        (one scalar per step)
//   B = W_B x + b_B,  C = W_C x + b_C              (N each, input-dependent)
//   h[d,n] = e^{Delta A_n} h[d,n] + ((e^{Delta A_n} - 1)/A_n) B_n x_d     (ZOH)
//   y_d    = sum_n C_n h[d,n] + D_d x_d
//
// A_n = -exp(log_a_n) with log_a from mamba_init (ln(n+1)). A is shared by the
// channels (it is not trained here, so per-channel copies would be identical),
// which is what lets one step cost N exps rather than d_in*N (the Rust library
// recomputes e^{Delta A} for every channel and state).
//
// The biases b_B, b_C are an addition to the paper's bias-free projections:
// without them the input term B_n x_d = (W_B x)_n x_d is an even function of x
// when d_in = 1 (the state sees x^2, so the sign of a scalar stream is lost);
// with them it has a linear part. They are drawn like the weights.
//
// Cost per step: O(N d_in) multiply-adds plus N exps; memory (3N + 2) d_in + 4N
// doubles. forward/forward_predict allocate nothing. Weights ~ N(0, 0.1^2),
// drawn in the order w_Delta, W_B, W_C, b_B, b_C; D = 1. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <vector>

#include "nn/ssm/ssm_layer.hpp"

namespace irithyll::nn {

struct SelectiveSsmConfig {
  std::size_t d_in = 16;     // input channels (>= 1)
  std::size_t n_state = 16;  // states per channel (>= 1)
  std::uint64_t seed = 42;
  double weight_scale = 0.1;  // std of the random projections
  double dt_init = 0.1;       // b_Delta = softplus^{-1}(dt_init): initial step size (> 0)
};

class SelectiveSsm final : public SsmLayer {
 public:
  SelectiveSsm() = default;
  // REQUIRES: d_in, n_state >= 1, dt_init > 0 (checked with Status in make()).
  explicit SelectiveSsm(const SelectiveSsmConfig& config);
  static Result<SelectiveSsm> make(const SelectiveSsmConfig& config);

  std::size_t input_dim() const noexcept override { return cfg_.d_in; }
  std::size_t output_dim() const noexcept override { return cfg_.d_in; }
  void forward(std::span<const double> x, std::span<double> y) noexcept override;
  void forward_predict(std::span<const double> x, std::span<double> y) const noexcept override;
  // Same as forward() through the scalar reference kernel (tests, NumPy dumps).
  void forward_ref(std::span<const double> x, std::span<double> y) noexcept;
  void reset() noexcept override;
  std::span<const double> state() const noexcept override { return h_; }
  std::size_t memory_bytes() const noexcept override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const SelectiveSsmConfig& config() const noexcept { return cfg_; }
  std::span<const double> log_a() const noexcept { return log_a_; }
  std::span<const double> w_delta() const noexcept { return w_delta_; }
  double b_delta() const noexcept { return b_delta_; }
  std::span<const double> w_b() const noexcept { return w_b_; }
  std::span<const double> w_c() const noexcept { return w_c_; }
  std::span<const double> b_b() const noexcept { return b_b_; }
  std::span<const double> b_c() const noexcept { return b_c_; }
  std::span<const double> skip() const noexcept { return skip_; }

 private:
  // Fills alpha_, bb_, c_ for input x (shared by forward and predict).
  void coefficients(std::span<const double> x) const noexcept;

  SelectiveSsmConfig cfg_;
  std::vector<double> log_a_, a_;  // N
  std::vector<double> w_delta_;    // d_in
  double b_delta_ = 0.0;
  std::vector<double> w_b_, w_c_;  // N x d_in row-major
  std::vector<double> b_b_, b_c_;  // N
  std::vector<double> skip_;       // d_in (D)
  std::vector<double> h_;          // d_in x N row-major: h[d*N + n]
  mutable std::vector<double> alpha_, bb_, c_;  // N scratch
};

}  // namespace irithyll::nn
