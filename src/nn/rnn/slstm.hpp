// SlstmCell: the stabilised scalar-memory LSTM of xLSTM (Beck et al., NeurIPS
// 2024, sec. 2.2, eqs. 8-17 with the stabiliser of eqs. 15-17):
//
//   pre_g = W_g x + R_g h_{t-1} + b_g        g in {f, i, o, z}; R block-diagonal over heads
//   f~, i~ clamped to [-20, 20]              (e^20 ~ 4.9e8 bounds the exponential gates)
//   lf = log f: log sigmoid(f~) (default) or f~ (exponential forget gate)
//   m_t = max(lf + m_{t-1}, i~)              stabiliser (log-space running max)
//   f' = e^{lf + m_{t-1} - m_t},  i' = e^{i~ - m_t},  o = sigmoid(o~),  z = tanh(z~)
//   c_t = f' c_{t-1} + i' z,   n_t = f' n_{t-1} + i',   h_t = o c_t / n_t
//
// Invariant: n_t >= 1. One of f', i' equals 1 each step, so either n_t =
// n_{t-1} + i' or n_t >= 1, and n_0 = 1; hence the division is always safe and
// |h| <= 1 (c_t/n_t is a weighted mean of z values). The Rust library guards with
// max(|n|, 1e-6 e^{-m}); we keep a 1e-300 floor only against hostile decoded state.
//
// The paper allows f = sigmoid or exp; the Rust library uses exp only. With exp and
// a positive forget bias (its default 1.0, or the recommended 3..6) f > 1, so
// old contributions grow geometrically, i' -> 0 and the memory freezes on the
// first inputs (in our tests one-step sine prediction falls to the memoryless
// AR(1) error). The sigmoid forget gate is therefore the default here.
//
// Initial state h = c = 0, n = 1, m = 0. Weights Xavier-normal with scale
// sqrt(2/(d_in + d_h)) drawn W_f, W_i, W_o, W_z, R_f, R_i, R_o, R_z; biases 0
// except b_f = forget_bias (per unit; the paper recommends a linspace of 3..6).
// Cost per step O(4 d_h (d_in + d_h/heads)) plus 2 d_h exps; memory
// 4 d_h (d_in + d_h/heads + 1) + 4 d_h doubles. No allocation in forward or
// forward_predict. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

enum class SlstmForgetGate : std::uint8_t { kSigmoid = 0, kExponential = 1 };

struct SlstmConfig {
  std::size_t d_in = 1;
  std::size_t d_hidden = 16;
  std::size_t n_heads = 1;             // must divide d_hidden
  std::vector<double> forget_bias;     // per unit; empty = 1.0 for every unit
  SlstmForgetGate forget_gate = SlstmForgetGate::kSigmoid;
  std::uint64_t seed = 42;
};

// n values evenly spaced from start to stop inclusive (one value: start).
std::vector<double> forget_bias_linspace(double start, double stop, std::size_t n);

class SlstmCell {
 public:
  SlstmCell() = default;
  // REQUIRES: a config that validate() accepts.
  explicit SlstmCell(const SlstmConfig& config);
  static Status validate(const SlstmConfig& config);

  // REQUIRES: x.size() == d_in(), x finite; h_out.size() == d_hidden().
  void forward(std::span<const double> x, std::span<double> h_out) noexcept;
  // The same output without changing the state.
  void forward_predict(std::span<const double> x, std::span<double> h_out) const noexcept;
  void reset() noexcept;  // h = c = m = 0, n = 1; weights kept
  // Redraws unit j's input rows and recurrent rows from rng, restores its
  // biases and clears its state. Other units are untouched. REQUIRES j < d_hidden.
  void reinitialize_unit(std::size_t j, Xorshift64& rng) noexcept;

  std::size_t d_in() const noexcept { return cfg_.d_in; }
  std::size_t d_hidden() const noexcept { return cfg_.d_hidden; }
  std::size_t n_heads() const noexcept { return cfg_.n_heads; }
  std::span<const double> hidden() const noexcept { return h_; }
  std::span<const double> cell() const noexcept { return c_; }
  std::span<const double> normalizer() const noexcept { return n_; }
  std::span<const double> stabilizer() const noexcept { return m_; }
  // Gate g in 0..3 = f, i, o, z. W: d_h x d_in; R: d_h x (d_h/heads) (row j
  // holds unit j's weights on the units of its own head); b: d_h.
  std::span<const double> w(int g) const noexcept { return w_[g]; }
  std::span<const double> r(int g) const noexcept { return r_[g]; }
  std::span<const double> b(int g) const noexcept { return b_[g]; }
  std::size_t memory_bytes() const noexcept;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  template <bool kCommit>
  void step(std::span<const double> x, std::span<double> h_out, double* h, double* c, double* n, double* m) const noexcept;
  void draw_unit_rows(std::size_t j, Xorshift64& rng, int g, bool recurrent) noexcept;

  SlstmConfig cfg_;
  std::size_t dph_ = 0;
  std::vector<double> w_[4], r_[4], b_[4];
  std::vector<double> h_, c_, n_, m_;
  mutable std::vector<double> pre_;  // 4 d_h scratch
};

}  // namespace irithyll::nn
