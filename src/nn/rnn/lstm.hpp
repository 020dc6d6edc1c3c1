// LstmCell: the long short-term memory cell of Hochreiter & Schmidhuber
// (1997) with the forget gate of Gers, Schmidhuber & Cummins (2000). With
// z_t = [x_t, h_{t-1}, 1] and W_g holding each gate's weights and bias:
//
//   i_t = sigmoid(W_i z_t)   f_t = sigmoid(W_f z_t)   o_t = sigmoid(W_o z_t)
//   g_t = tanh(W_g z_t)
//   c_t = f_t c_{t-1} + i_t g_t,   h_t = o_t tanh(c_t)
//
// |h_t| < 1 always, and |c_t| <= |c_{t-1}| + 1, so the state grows at most
// linearly and tanh keeps the output bounded.
//
// Initial state h = c = 0. Weights on [x, h] drawn standard normal times
// 1/sqrt(d_in + d_hidden) (the fan-in) from the seed, gate by gate in the
// order i, f, o, g; biases 0 except the forget gate's, set to forget_bias
// (default +1: Jozefowicz, Zaremba & Sutskever 2015, so that the cell
// remembers by default at the start).
// Cost per step O(4 d_h (d_in + d_h)) plus 5 d_h exp/tanh; memory
// 4 d_h (d_in + d_h + 1) + 3 d_h + d_in + 4 d_h doubles. No allocation in
// forward or forward_predict. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

struct LstmConfig {
  std::size_t d_in = 1;
  std::size_t d_hidden = 16;
  double forget_bias = 1.0;
  std::uint64_t seed = 42;
};

class LstmCell {
 public:
  // Gate blocks, in the order of the weight rows.
  enum Gate : int { kInput = 0, kForget = 1, kOutput = 2, kCandidate = 3 };

  LstmCell() = default;
  explicit LstmCell(const LstmConfig& config);  // REQUIRES: validate(config) ok
  static Status validate(const LstmConfig& config);

  // REQUIRES: x.size() == d_in(), x finite; h_out.size() == d_hidden().
  void forward(std::span<const double> x, std::span<double> h_out) noexcept;
  // The same output without changing the state.
  void forward_predict(std::span<const double> x, std::span<double> h_out) const noexcept;
  void reset() noexcept;  // h = c = 0; weights kept
  // Redraws unit j's rows of all four gates (input and recurrent weights),
  // restores its biases and clears its state; other units are untouched.
  // Ignores j >= d_hidden().
  void reinitialize_unit(std::size_t j, Xorshift64& rng) noexcept;

  std::size_t d_in() const noexcept { return cfg_.d_in; }
  std::size_t d_hidden() const noexcept { return cfg_.d_hidden; }
  double forget_bias() const noexcept { return cfg_.forget_bias; }
  std::span<const double> hidden() const noexcept { return h_; }
  std::span<const double> cell() const noexcept { return c_; }
  // Gate g's weights on [x, h]: d_h rows of d_in + d_h; and its d_h biases.
  std::span<const double> w(int g) const noexcept;
  std::span<const double> b(int g) const noexcept;
  std::size_t memory_bytes() const noexcept;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  void compute(std::span<const double> x, std::span<double> h_out, std::span<double> c_out) const noexcept;
  double draw_scale() const noexcept;

  LstmConfig cfg_;
  std::vector<double> w_, b_;  // 4 d_h x (d_in + d_h) and 4 d_h, gate-major
  std::vector<double> h_, c_;
  mutable std::vector<double> xh_, pre_, c_scratch_;  // [x, h], 4 d_h pre-activations, d_h
};

}  // namespace irithyll::nn
