// LogLinearAttention: single-head log-linear attention (Han Guo et al.,
// "Log-Linear Attention", ICLR 2026, arXiv 2506.04761) with online SGD on its
// projections, as seed 004 specifies.
//
//   k = W_k x, v = W_v x, q = W_q x, kh = k/|k| for delta-family inner modes (else k)
//   lambda = softplus_softmax_mix(W_lambda x + lambda0, tau)        (L levels)
//   push kh v^T into the Fenwick stack (fenwick.hpp), then
//   o = tanh(sum_l lambda_l S_l^T q)                                 (d_value outputs)
//
// Read semantics: forward reads AFTER the push, the same as the multi-head
// layer and as the output train_one optimises. (The Rust library's single-head
// forward read before the push while its multi-head path and train_one read
// after; we use one semantics everywhere.) query_readonly reads the current
// state without pushing.
//
// train_one(x, y): forward, then one SGD step on 1/2 |o - y|^2 w.r.t. W_q,
// W_k, W_v, W_lambda, holding the stored levels fixed (they were written by
// past projections):
//   delta = (o - y) (.) (1 - o^2),  z_l = S_l^T q
//   dlambda_l = delta . z_l,  dq = sum_l lambda_l S_l delta
//   dr_j = sigmoid(r_j/tau) / (tau sum softplus) (dlambda_j - sum_i lambda_i dlambda_i)
//   the fresh leaf sits in level l* (the landing level): dv = lambda_l* (kh . q) delta,
//   dkh = lambda_l* (v . delta) q, and for delta-family inner modes
//   dk = (dkh - kh (kh . dkh)) / |k| (L2-norm Jacobian; 0 when |k| <= 1e-12).
// Given the stored levels this is the exact gradient of the step's loss; the
// finite-difference test in tests/nn_attention checks it.
//
// The paper's two variants (form = kMamba2 / kGatedDeltaNet; the recurrence of
// fenwick_levels.hpp, the same as the multi-head modes loglinear_mamba2 /
// loglinear_gated_deltanet): gate rows W_g (1: dt for Mamba-2; 2: gate and
// beta for Gated DeltaNet) join the projections; `inner` is unused. With P =
// sum_l lambda_l S_l over the merged levels before the transition (held
// fixed), kq = kh . q, lambda_0 the weight of the token's own level:
//   Gated DeltaNet  o_pre = alpha (P^T q - beta kq P^T kh) + lambda_0 beta kq v
//     dalpha = delta . (P^T q - beta kq P^T kh),  dbeta = kq (lambda_0 v . delta - alpha P^T kh . delta)
//     dv = lambda_0 beta kq delta,  dkh = lambda_0 beta (v . delta) q - alpha beta ((P^T kh . delta) q + kq P delta)
//   Mamba-2         o_pre = e^-dt P^T q + lambda_0 dt kq v  (k not normalised)
//     ddt = -e^-dt P^T q . delta + lambda_0 kq (v . delta),  dv = lambda_0 dt kq delta,  dk = lambda_0 dt (v . delta) q
// and dq, dlambda as above over the levels after the step; gates through
// their sigmoid / softplus. Also checked by finite differences.
//
// Cost per token: O((3 d_k + d_v + L) d_model) projections + O(popcount d_k d_v)
// read + amortised O(d_k d_v) push; train_one adds the same order. Memory:
// L d_k d_v state + the four weight matrices. No allocation after
// construction. One owner; const methods use mutable scratch.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/nn/attention/config.hpp"

namespace irithyll::nn {

// kCounter: the Rust library's counter form (fenwick.hpp); the others are the
// paper's Log-Linear Mamba-2 and Log-Linear Gated DeltaNet (fenwick_levels.hpp).
enum class LogLinearForm : std::uint8_t { kCounter = 0, kMamba2 = 1, kGatedDeltaNet = 2 };

struct LogLinearConfig {
  AttentionKind inner = AttentionKind::kGatedDeltaNet;  // counter form's inner mode; must not be log-linear
  std::size_t d_model = 8, d_key = 4, d_value = 4;
  std::uint32_t max_levels = 32;
  double lambda_init = -1.0;  // < 0: 1/L (uniform mix at init)
  double tau = 1.0;
  double learning_rate = 0.05;
  std::uint64_t seed = 42;
  double init_scale = 0.01;
  LogLinearForm form = LogLinearForm::kCounter;  // last, so positional initialisers stay valid

  double lambda_bias() const noexcept {
    return lambda_init < 0.0 ? 1.0 / static_cast<double>(max_levels) : lambda_init;
  }
  // Gate rows of W_g: 0 (counter), 1 (Mamba-2 dt), 2 (Gated DeltaNet gate, beta).
  std::size_t gate_rows() const noexcept { return static_cast<std::size_t>(form); }
  Status validate() const;
};

class LogLinearAttention {
 public:
  LogLinearAttention() = default;
  // Checked construction: an invalid config (config.validate()) comes back as its Status.
  static Result<LogLinearAttention> make(const LogLinearConfig& config);
  // REQUIRES: config.validate() is OK (debug assert; use make() for untrusted configs).
  explicit LogLinearAttention(const LogLinearConfig& config);

  // Push and read (post-push); out has d_value entries in (-1, 1). A
  // non-finite x writes zeros, leaves the state alone and returns false.
  bool forward(std::span<const double> x, std::span<double> out) noexcept;
  // What forward would write, without committing.
  void peek(std::span<const double> x, std::span<double> out) const noexcept;
  void query_readonly(std::span<const double> x, std::span<double> out) const noexcept;
  // forward + one SGD step; out receives the output the step was taken on.
  // Non-finite x or y: no push, no step, returns false.
  bool train_one(std::span<const double> x, std::span<const double> y, std::span<double> out) noexcept;
  // train_one split open for a continual-learning guard (nn/continual): the
  // forward and the gradient of the step, with no weight change...
  bool forward_and_gradient(std::span<const double> x, std::span<const double> y, std::span<double> out) noexcept;
  // ...the last gradient as one dense vector laid out like copy_params
  // (rows of W_q, W_k, W_v, W_lambda, then W_g; row r of a matrix is output r's fan-in
  // of d_model weights), for the same x...
  void dense_gradient(std::span<const double> x, std::span<double> grad) const noexcept;
  // ...and the trained weights as one flat vector. REQUIRES sizes n_params().
  std::size_t n_params() const noexcept { return wq_.size() + wk_.size() + wv_.size() + wl_.size() + wg_.size(); }
  void copy_params(std::span<double> params) const noexcept;
  void set_params(std::span<const double> params) noexcept;
  // The level weights lambda(x) (L entries, a distribution).
  void lambda(std::span<const double> x, std::span<double> out) const noexcept;

  void reset() noexcept;  // state and size; weights kept
  void set_learning_rate(double lr) noexcept {
    if (std::isfinite(lr) && lr >= 0.0) cfg_.learning_rate = lr;
  }
  std::uint64_t train_steps() const noexcept { return train_steps_; }
  void reset_train_steps() noexcept { train_steps_ = 0; }

  const LogLinearConfig& config() const noexcept { return cfg_; }
  std::span<const double> state() const noexcept { return levels_; }  // L d_k d_v, constant
  std::uint64_t level_mask() const noexcept { return mask_; }
  std::uint64_t size() const noexcept { return size_; }
  std::span<double> w_k() noexcept { return wk_; }
  std::span<double> w_v() noexcept { return wv_; }
  std::span<double> w_q() noexcept { return wq_; }
  std::span<double> w_lambda() noexcept { return wl_; }
  std::span<const double> w_k() const noexcept { return wk_; }
  std::span<const double> w_v() const noexcept { return wv_; }
  std::span<const double> w_q() const noexcept { return wq_; }
  std::span<const double> w_lambda() const noexcept { return wl_; }
  std::span<double> w_gate() noexcept { return wg_; }  // gate_rows() x d_model
  std::span<const double> w_gate() const noexcept { return wg_; }

  std::size_t memory_bytes() const noexcept;
  // The weights and state alone; decode reads them into a layer with
  // `settings` (its owner derives them from its named settings). Records
  // from before (versions 1 and 2) carry their own configuration, which wins.
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in, const LogLinearConfig& settings);

 private:
  void allocate();
  // Keys are L2-normalised for the Gated DeltaNet form and delta-family inner modes.
  bool normalises_key() const noexcept {
    return cfg_.form == LogLinearForm::kGatedDeltaNet ||
           (cfg_.form == LogLinearForm::kCounter && is_delta_family(cfg_.inner));
  }
  // Projections, normalised key, lambda into scratch; returns |k|.
  double project(const double* x) const noexcept;
  // Push into `levels` with mask, read into o_ (pre-tanh) then out (tanh).
  void push_and_read(double* levels, std::uint64_t& mask, std::span<double> out) const noexcept;
  // The paper forms (log_linear_paper.cpp): gates from the projected rows,
  // one step of the recurrence; with `grad`, also P (the mixed merged levels
  // before the transition) for the gradient.
  void paper_gates(const double* x) const noexcept;
  void paper_step(double* levels, std::uint64_t& mask, std::span<double> out, bool grad) const noexcept;
  void paper_gradient(std::span<const double> out, const double* delta) noexcept;

  LogLinearConfig cfg_;
  std::vector<double> wk_, wv_, wq_, wl_, wg_;
  std::vector<double> levels_;
  std::uint64_t mask_ = 0, size_ = 0, train_steps_ = 0;
  mutable std::vector<double> k_, kh_, v_, q_, r_, lam_, peek_levels_, dq_, dk_, dv_, dl_, dr_, tmp_;
  mutable double sum_softplus_ = 0.0, knorm_ = 0.0;
  // Paper forms: gate pre-activations, alpha, the write (beta or dt), P and its products.
  mutable double gate_a_[2] = {0.0, 0.0}, alpha_ = 1.0, write_ = 0.0;
  mutable std::vector<double> p_, pq_, pk_, pd_, u_, dg_;
};

}  // namespace irithyll::nn
