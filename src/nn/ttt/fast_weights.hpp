// FastWeightLayer: the TTT-Linear layer (Sun et al. 2024, sec. 2) of the
// "ttt" learner. A d x d matrix W learned online by one gradient step per
// sample on a self-supervised (or prediction-directed) residual, read
// through fixed-in-the-forward projections W_K, W_V, W_Q (d x m):
//
//   x^ = x / max(|x|, 1),  k = unit(W_K x^),  v = W_V x^,  q = unit(W_Q x^)
//   residual r = W k - (v - k)          (reconstruction), or
//            r = -e q / d                (prediction-directed, e = y - y_hat)
//   G = clamp(r k', -1, 1)               (element-wise)
//   plain:     W <- (1 - alpha) W - eta G
//   momentum:  S <- mu S - eta G,  W <- (1 - alpha) W + S   (Titans, Behrouz et al. 2025)
//   batch:     G summed; flush() applies the mean with the rule above
//   output     y = q + LN(GELU(q + W q))
//
// GELU is the tanh form (Hendrycks & Gimpel 2016); LN subtracts the mean
// and divides by sqrt(population variance + 1e-8), with no gain or bias.
// Guard after every change of W: a non-finite entry in W or S clears the
// fast state (W, S, the batch sum); otherwise max|W| > 1e4 rescales W to
// max|W| = 1e3. W_K = W_V = W_Q = I when d == m, else N(0, 2/(m+d))
// (Glorot) draws in the order K, V, Q.
//
// Cost: prepare O(3 d m), output O(d^2), a step O(d^2); no allocation after
// construction (scratch is mutable, so a const output call writes it).
// Thread safety: one owner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

// 0.5 u (1 + tanh(sqrt(2/pi) (u + 0.044715 u^3))), in place, with the
// vectorised tanh of nn/vmath.hpp. REQUIRES: scratch.size() >= v.size().
void gelu_tanh_inplace(std::span<double> v, std::span<double> scratch) noexcept;
// v <- (v - mean) / sqrt(var + 1e-8), population variance, in place.
void layer_norm_inplace(std::span<double> v) noexcept;

class FastWeightLayer {
 public:
  static constexpr double kGuardLimit = 1e4;   // max|W| that triggers the rescale
  static constexpr double kGuardTarget = 1e3;  // max|W| after it
  static constexpr double kNormFloor = 1e-8;   // floor of |k|, |q| before normalising

  FastWeightLayer() = default;
  // REQUIRES: d > 0, m > 0, 0 <= momentum < 1.
  FastWeightLayer(std::size_t d, std::size_t m, double alpha, double momentum, bool batch, std::uint64_t seed);

  // Projections of x (m finite values) into the scratch k, v, q.
  void prepare(std::span<const double> x) const noexcept;
  // y = q + LN(GELU(q + W q)) from the prepared q. REQUIRES: y.size() == d.
  void output(std::span<double> y) const noexcept;
  // One step of W on the prepared k, v, q: prediction-directed with error e
  // when `directed`, else on the reconstruction residual.
  void step(double eta, bool directed, double e) noexcept;
  // Batch mode: applies the mean of the summed gradients (if any), then clears the sum.
  void flush(double eta) noexcept;
  // W, S, the batch sum cleared; projections kept.
  void reset_fast_weights() noexcept;

  // One SGD step of W_Q, W_K, W_V at rate lr on the prepared x^, k, v, q,
  // for readout error e and readout weights w_r (first d entries used). The
  // gradients are those of e^2 with the output read as (I + W) q and of the
  // reconstruction loss |W k - v + k|^2 for K and V, each outer product
  // clipped to Frobenius norm 1. A cheap surrogate: it ignores GELU, LN and
  // the normalisation of k and q.
  void projection_step(double e, std::span<const double> w_r, double lr) noexcept;

  std::size_t d() const noexcept { return d_; }
  std::size_t m() const noexcept { return m_; }
  bool batch() const noexcept { return batch_; }
  std::span<const double> w() const noexcept { return w_; }
  std::span<const double> momentum_buffer() const noexcept { return s_; }
  std::span<const double> w_k() const noexcept { return wk_; }
  std::span<const double> w_v() const noexcept { return wv_; }
  std::span<const double> w_q() const noexcept { return wq_; }
  std::uint64_t batch_count() const noexcept { return n_acc_; }
  // Scratch after prepare(), for tests.
  std::span<const double> k() const noexcept { return k_; }
  std::span<const double> v() const noexcept { return v_; }
  std::span<const double> q() const noexcept { return q_; }
  // For tests: W set directly (size d*d), then the guard.
  void set_w(std::span<const double> w) noexcept;
  std::size_t memory_bytes() const noexcept;

  void encode(ByteWriter& out) const;
  // Reads what encode wrote into a layer built with the same shape and modes.
  Status decode(ByteReader& in);

 private:
  void apply_row(std::size_t i, const double* g, double scale, double eta) noexcept;  // plain or momentum rule on row i
  void guard() noexcept;

  std::size_t d_ = 0, m_ = 0;
  double alpha_ = 0.0, mu_ = 0.0;
  bool batch_ = false;
  std::vector<double> wk_, wv_, wq_;  // d x m, row-major
  std::vector<double> w_;             // d x d
  std::vector<double> s_;             // d x d momentum buffer (empty without momentum)
  std::vector<double> acc_;           // d x d batch sum (empty outside batch mode)
  std::uint64_t n_acc_ = 0;
  // Scratch.
  mutable std::vector<double> xh_, k_, v_, q_, u_, t_;
  std::vector<double> r_, g_, a_;
};

}  // namespace irithyll::nn
