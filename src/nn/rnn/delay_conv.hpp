// DelayConv1d: a per-channel causal convolution over K taps at (real-valued,
// rounded-on-use) delays, the delay-embedding front end of mGRADE (2025):
//
//   y_d(t) = sum_k w[d,k] x_d(t - round(delay[d,k]))
//
// Delays start at 0..K-1 (an ordinary FIR filter) and are kept in [0, L-1];
// they are stored as reals so that a learning rule can move them. Each channel
// keeps a circular buffer of L = 2 max(K, 1) past inputs (the extra room lets
// delays grow beyond K-1 without reallocating). Weights N(0, 1/K).
// Cost per step O(d_in K); memory d_in (2K + L) doubles; no allocation in
// forward/forward_predict. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

class DelayConv1d {
 public:
  DelayConv1d() = default;
  // REQUIRES: d_in >= 1, 1 <= taps <= 4096.
  DelayConv1d(std::size_t d_in, std::size_t taps, std::uint64_t seed);

  // Writes x at the current position, convolves, advances the position.
  void forward(std::span<const double> x, std::span<double> y) noexcept;
  // The same output, buffer and position untouched.
  void forward_predict(std::span<const double> x, std::span<double> y) const noexcept;
  void reset() noexcept;  // clears the buffer and position; keeps weights and delays

  // Sets delay[d,k], clamped to [0, L-1]. REQUIRES d < d_in, k < taps.
  void set_delay(std::size_t d, std::size_t k, double delay) noexcept;

  std::size_t d_in() const noexcept { return d_in_; }
  std::size_t taps() const noexcept { return taps_; }
  std::size_t buffer_length() const noexcept { return len_; }
  std::size_t position() const noexcept { return pos_; }
  std::span<const double> weights() const noexcept { return w_; }  // d_in x taps
  std::span<const double> delays() const noexcept { return delay_; }
  std::size_t memory_bytes() const noexcept;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  double tap(std::size_t d, std::size_t k, double x_now) const noexcept;

  std::size_t d_in_ = 0, taps_ = 0, len_ = 0, pos_ = 0;
  std::vector<double> w_, delay_, buf_;  // buf_: d_in x len
};

}  // namespace irithyll::nn
