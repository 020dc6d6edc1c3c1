// Mamba3: the Mamba-3 selective SSM (Lahoti et al., ICLR 2026, arXiv 2603.15569,
// sec. 3) for streaming: complex diagonal state, grouped B/C projections,
// optional BCNorm on B and C, a learned-per-step trapezoid weight lambda_t and
// either the exponential-trapezoidal three-term recurrence or complex Tustin.
//
// Per step (shared scalars, G groups of P = d_in/G channels, N complex states):
//   Delta = softplus(w_Delta . x + b_Delta),  lambda = sigmoid(w_lambda . x + b_lambda)
//   B_g = W_B[g] x + b_B[g], C_g = W_C[g] x + b_C[g]   (N x R each, BCNorm'd when enabled;
//   the biases keep a linear input term for narrow inputs, see selective_ssm.hpp)
//   X_g (P_eff x R):  SISO (rank 0): P_eff = 1, X = mean of the group's channels
//                     MIMO (rank R >= 1): P_eff = P, X = W_X[g] x_g (column 0 = x_g)
//   u[g,n,p] = sum_r B_g[n,r] X_g[p,r]      (a true rank-R product: B_g X_g^T)
//   exp-trapezoidal: H = alpha_n H + beta_n u_prev + gamma u,   u_prev <- u
//   Tustin:          H = Abar_n H + Bbar_n u
//   y_{g,p} = sum_r W_Y[g,p,r] sum_n C_g[n,r] Re H[g,n,p],   y_d = y_{g,p(d)} + D_d x_d
//   (W_Y mixes the R read-outs back to one value per column: 1 on r = 0, N(0, 1/R)
//   elsewhere; SISO has R = 1 and W_Y = 1.)
// (SISO broadcasts y_g to every channel of the group.) A_n from S4D-Inv complex.
//
// The Rust library's MIMO path with rank > 1 indexes B[n*rank + p mod rank] * x_p,
// which is a rank-1 update with a re-labelled B, and normalises C only; here
// the input really is the rank-R matrix B_g X_g^T and BCNorm covers both B and C.
//
// Cost per step: 2 G N R d_in (projections) + G P_eff (R P + N R) + N complex
// exps; memory dominated by the projections. No allocation in forward or
// forward_predict. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/norm/bcnorm.hpp"
#include "nn/ssm/ssm_layer.hpp"

namespace irithyll::nn {

// bcnorm_train clips the L2 norm of its gamma gradient to this.
inline constexpr double kBcnormMaxGradNorm = 10.0;

enum class Mamba3Discretization : std::uint8_t { kExpTrapezoidal = 0, kTustin = 1 };

struct Mamba3Config {
  std::size_t d_in = 16;     // input channels (>= 1)
  std::size_t n_state = 16;  // complex states per group (>= 1)
  std::size_t n_groups = 1;  // G; must divide d_in
  std::size_t rank = 0;      // 0 = SISO on the group mean; R >= 1 = MIMO with rank-R input (R <= 16)
  bool use_bcnorm = true;    // RMS-normalise B and C (recommended with the 3-term recurrence)
  Mamba3Discretization discretization = Mamba3Discretization::kExpTrapezoidal;
  std::uint64_t seed = 42;
  double weight_scale = 0.1;  // std of W_Delta, W_lambda, W_B, W_C
  double dt_init = 0.1;       // initial step size (b_Delta = softplus^{-1}(dt_init)), > 0
};

class Mamba3 final : public SsmLayer {
 public:
  Mamba3() = default;
  // REQUIRES: a config that make() accepts.
  explicit Mamba3(const Mamba3Config& config);
  static Result<Mamba3> make(const Mamba3Config& config);
  static Status validate(const Mamba3Config& config);

  std::size_t input_dim() const noexcept override { return cfg_.d_in; }
  std::size_t output_dim() const noexcept override { return cfg_.d_in; }
  void forward(std::span<const double> x, std::span<double> y) noexcept override;
  void forward_predict(std::span<const double> x, std::span<double> y) const noexcept override;
  void reset() noexcept override;
  // Interleaved (re, im) per (group, state, column): index 2*((g*N + n)*P_eff + p).
  std::span<const double> state() const noexcept override { return h_; }
  std::span<const double> previous_input() const noexcept { return u_prev_; }
  std::size_t memory_bytes() const noexcept override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // BCNorm's gamma (N*R entries, shared by B and C; empty without BCNorm),
  // optionally learned: once set_bcnorm_learnable(true), each committed step
  // keeps what bcnorm_train needs, and bcnorm_train(dy, lr) takes one SGD
  // step on gamma for the gradient dy of a loss w.r.t. the step's outputs y.
  // The gradient is the step's own (truncated, like LogLinearAttention's):
  // with H_{t-1} and u_{t-1} held fixed, gamma reaches y through C_t and
  // through B_t's instantaneous term (gamma_t u_t, or Tustin's Re(Bbar) u_t):
  //   dC[n,r] = sum_p dz[p,r] Re H_t[n,p],   dz[p,r] = W_Y[p,r] sum_{q in column p} dy_q
  //   dB[n,r] = sum_p kappa_n (sum_r' dz[p,r'] C[n,r']) X[p,r]
  //   dgamma = dC (.) C/gamma + dB (.) B/gamma   (the unit-RMS vectors, summed over groups).
  // REQUIRES for bcnorm_train: dy has d_in entries; called after forward().
  void set_bcnorm_learnable(bool on);
  bool bcnorm_learnable() const noexcept { return norm_ && norm_->learnable(); }
  std::span<double> bcnorm_gamma() noexcept { return norm_ ? norm_->gamma() : std::span<double>(); }
  std::span<const double> bcnorm_gamma() const noexcept {
    return norm_ ? std::span<const double>(norm_->gamma()) : std::span<const double>();
  }
  void bcnorm_train(std::span<const double> dy, double lr) noexcept;

  // Redraws group g's B, C (and X) projections from rng and zeroes its state;
  // other groups are untouched. REQUIRES: g < n_groups.
  void reinitialize_group(std::size_t g, Xorshift64& rng) noexcept;

  const Mamba3Config& config() const noexcept { return cfg_; }
  std::size_t columns() const noexcept { return p_eff_; }  // P_eff
  std::size_t rank_eff() const noexcept { return r_eff_; }
  // Read access for references (NumPy) and tests.
  std::span<const double> log_a() const noexcept { return log_a_; }
  std::span<const double> w_delta() const noexcept { return w_delta_; }
  std::span<const double> w_lambda() const noexcept { return w_lambda_; }
  double b_delta() const noexcept { return b_delta_; }
  double b_lambda() const noexcept { return b_lambda_; }
  std::span<const double> w_b() const noexcept { return w_b_; }
  std::span<const double> w_c() const noexcept { return w_c_; }
  std::span<const double> b_b() const noexcept { return b_b_; }
  std::span<const double> b_c() const noexcept { return b_c_; }
  std::span<const double> w_x() const noexcept { return w_x_; }
  std::span<const double> w_y() const noexcept { return w_y_; }
  std::span<const double> skip() const noexcept { return skip_; }

 private:
  template <bool kCommit>
  void step(std::span<const double> x, std::span<double> y, double* h, double* u_prev) const noexcept;
  void allocate();
  void draw_group(std::size_t g, Xorshift64& rng) noexcept;

  Mamba3Config cfg_;
  std::size_t p_ = 0, p_eff_ = 0, r_eff_ = 0;  // channels per group, state columns, effective rank
  std::vector<double> log_a_;                  // 2N: [log(-Re a), Im a]
  std::vector<double> w_delta_, w_lambda_;     // d_in
  double b_delta_ = 0.0, b_lambda_ = 0.0;
  std::vector<double> w_b_, w_c_;  // (G*N*R) x d_in; row (g*N + n)*R + r
  std::vector<double> b_b_, b_c_;  // G*N*R
  std::vector<double> w_x_;        // MIMO: G x (P*R) x P; row (g*P + p)*R + r
  std::vector<double> w_y_;        // G x P_eff x R output mixing
  std::vector<double> skip_;       // d_in
  std::vector<double> h_;          // 2 * G*N*P_eff
  std::vector<double> u_prev_;     // G*N*P_eff (exp-trapezoidal only; kept for all)
  std::optional<BCNorm> norm_;     // dim N*R
  // Scratch (mutable so forward_predict can be const; never reallocated).
  mutable std::vector<double> bproj_, cproj_, xproj_, alpha_re_, alpha_im_, beta_re_, beta_im_, z_;
  // Learnable gamma only (set_bcnorm_learnable): the committed step's unit-RMS
  // B and C, X of every group, kappa_n; and bcnorm_train's scratch.
  // (mutable: written by the const step template, only on committed steps.)
  mutable std::vector<double> bunit_, cunit_, xall_, kappa_;
  std::vector<double> dz_, dc_, db_;
};

}  // namespace irithyll::nn
