// MinGruCell: the minimal gated recurrent unit used by mGRADE (minGRU, Feng et
// al. 2024, "Were RNNs all we needed?", with mGRADE's gate on [x, h]):
//
//   z_t  = sigmoid(W_z [x_t, h_{t-1}] + b_z)      gate sees input and state
//   h~_t = W_h x_t + b_h                          candidate: no recurrence
//   h_t  = (1 - z_t) h_{t-1} + z_t h~_t
//
// |h_t| <= max(|h_{t-1}|, |h~_t|), so the state is bounded by the largest
// candidate seen. Xavier-normal scales sqrt(2/(d_in + 2 d_h)) for W_z and
// sqrt(2/(d_in + d_h)) for W_h (drawn in that order); biases 0.
// Cost per step O(d_h (2 d_in + d_h)) + d_h exps; memory d_h (2 d_in + d_h + 3)
// doubles; no allocation in forward/forward_predict. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

struct MinGruConfig {
  std::size_t d_in = 1;
  std::size_t d_hidden = 16;
  std::uint64_t seed = 42;
};

class MinGruCell {
 public:
  MinGruCell() = default;
  explicit MinGruCell(const MinGruConfig& config);  // REQUIRES: validate(config) ok
  static Status validate(const MinGruConfig& config);

  // REQUIRES: x.size() == d_in(), h_out.size() == d_hidden().
  void forward(std::span<const double> x, std::span<double> h_out) noexcept;
  void forward_predict(std::span<const double> x, std::span<double> h_out) const noexcept;
  void reset() noexcept { std::fill(h_.begin(), h_.end(), 0.0); }
  // Redraws unit j's gate row (on [x, h]) and candidate row at their initial
  // scales, zeroes its biases and its state; other units are untouched
  // (continual backprop, nn/continual). Ignores j >= d_hidden().
  void reinitialize_unit(std::size_t j, Xorshift64& rng) noexcept;

  std::size_t d_in() const noexcept { return cfg_.d_in; }
  std::size_t d_hidden() const noexcept { return cfg_.d_hidden; }
  std::span<const double> state() const noexcept { return h_; }
  std::span<const double> w_z() const noexcept { return w_z_; }  // d_h x (d_in + d_h)
  std::span<const double> b_z() const noexcept { return b_z_; }
  std::span<const double> w_h() const noexcept { return w_h_; }  // d_h x d_in
  std::span<const double> b_h() const noexcept { return b_h_; }
  std::size_t memory_bytes() const noexcept;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  void compute(std::span<const double> x, std::span<double> h_out) const noexcept;

  MinGruConfig cfg_;
  std::vector<double> w_z_, b_z_, w_h_, b_h_, h_;
  mutable std::vector<double> xh_, zpre_;  // [x, h] and gate scratch
};

}  // namespace irithyll::nn
