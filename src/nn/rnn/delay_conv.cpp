#include "nn/rnn/delay_conv.hpp"

#include <algorithm>
#include <cmath>

#include "irithyll/core/rng.hpp"

namespace irithyll::nn {

DelayConv1d::DelayConv1d(std::size_t d_in, std::size_t taps, std::uint64_t seed)
    : d_in_(d_in), taps_(taps), len_(2 * std::max<std::size_t>(taps, 1)) {
  Xorshift64 rng(seed);
  w_.resize(d_in * taps);
  const double s = 1.0 / std::sqrt(static_cast<double>(std::max<std::size_t>(taps, 1)));
  for (double& v : w_) v = s * rng.normal();
  delay_.resize(d_in * taps);
  for (std::size_t d = 0; d < d_in; ++d)
    for (std::size_t k = 0; k < taps; ++k) delay_[d * taps + k] = static_cast<double>(k);
  buf_.assign(d_in * len_, 0.0);
}

// The sample `round(delay)` steps back; delay 0 is the current input, which
// forward_predict has not written into the buffer, so it is passed in.
double DelayConv1d::tap(std::size_t d, std::size_t k, double x_now) const noexcept {
  const auto lag = static_cast<std::size_t>(std::lround(delay_[d * taps_ + k]));
  if (lag == 0) return x_now;
  return buf_[d * len_ + (pos_ + len_ - lag) % len_];
}

void DelayConv1d::forward(std::span<const double> x, std::span<double> y) noexcept {
  forward_predict(x, y);
  for (std::size_t d = 0; d < d_in_; ++d) buf_[d * len_ + pos_] = x[d];
  pos_ = (pos_ + 1) % len_;
}

void DelayConv1d::forward_predict(std::span<const double> x, std::span<double> y) const noexcept {
  for (std::size_t d = 0; d < d_in_; ++d) {
    double s = 0.0;
    for (std::size_t k = 0; k < taps_; ++k) s += w_[d * taps_ + k] * tap(d, k, x[d]);
    y[d] = s;
  }
}

void DelayConv1d::reset() noexcept {
  std::fill(buf_.begin(), buf_.end(), 0.0);
  pos_ = 0;
}

void DelayConv1d::set_delay(std::size_t d, std::size_t k, double delay) noexcept {
  if (d >= d_in_ || k >= taps_ || !std::isfinite(delay)) return;
  delay_[d * taps_ + k] = std::clamp(delay, 0.0, static_cast<double>(len_ - 1));
}

std::size_t DelayConv1d::memory_bytes() const noexcept {
  return sizeof(*this) + sizeof(double) * (w_.capacity() + delay_.capacity() + buf_.capacity());
}

void DelayConv1d::encode(ByteWriter& out) const {
  out.u64(d_in_);
  out.u64(taps_);
  out.u64(pos_);
  out.f64s(w_);
  out.f64s(delay_);
  out.f64s(buf_);
}

Status DelayConv1d::decode(ByteReader& in) {
  const std::size_t d = in.u64("delay conv d_in"), k = in.u64("delay conv taps"), pos = in.u64("delay conv position");
  auto w = in.f64s("delay conv weights");
  auto delay = in.f64s("delay conv delays");
  auto buf = in.f64s("delay conv buffer");
  if (!in.ok()) return in.status();
  if (d == 0 || k == 0 || k > 4096 || d > 65536) return Status::corruption("delay conv: bad dimensions");
  // Built by its owner from the named settings first: the record must agree.
  if (d != d_in_ || k != taps_) return Status::corruption("delay conv: the record differs from the settings this convolution was built with");
  const std::size_t len = 2 * k;
  if (w.size() != d * k || delay.size() != d * k || buf.size() != d * len || pos >= len)
    return Status::corruption("delay conv: sizes do not match");
  for (double v : delay)
    if (!(v >= 0.0 && v <= static_cast<double>(len - 1))) return Status::corruption("delay conv: delay out of range");
  d_in_ = d;
  taps_ = k;
  len_ = len;
  pos_ = pos;
  w_ = std::move(w);
  delay_ = std::move(delay);
  buf_ = std::move(buf);
  return Status::ok();
}

}  // namespace irithyll::nn
