#include "nn/rnn/lstm.hpp"

#include <algorithm>
#include <cmath>

#include "nn/kernels.hpp"
#include "nn/rnn/cell_codec.hpp"
#include "rnn_math.hpp"

namespace irithyll::nn {

Status LstmCell::validate(const LstmConfig& c) {
  if (c.d_in == 0 || c.d_hidden == 0) return Status::invalid_argument("lstm: d_in and d_hidden must be >= 1");
  if (c.d_in > 65536 || c.d_hidden > 4096) return Status::invalid_argument("lstm: dimensions too large");
  if (!std::isfinite(c.forget_bias)) return Status::invalid_argument("lstm: forget_bias must be finite");
  return Status::ok();
}

double LstmCell::draw_scale() const noexcept {
  return 1.0 / std::sqrt(static_cast<double>(cfg_.d_in + cfg_.d_hidden));
}

LstmCell::LstmCell(const LstmConfig& config) : cfg_(config) {
  const std::size_t hd = cfg_.d_hidden, dt = cfg_.d_in + hd;
  Xorshift64 rng(cfg_.seed);
  const double scale = draw_scale();
  w_.resize(4 * hd * dt);
  for (double& v : w_) v = scale * rng.normal();
  b_.assign(4 * hd, 0.0);
  std::fill_n(b_.begin() + static_cast<std::ptrdiff_t>(kForget * hd), hd, cfg_.forget_bias);
  h_.assign(hd, 0.0);
  c_.assign(hd, 0.0);
  xh_.assign(dt, 0.0);
  pre_.assign(4 * hd, 0.0);
  c_scratch_.assign(hd, 0.0);
}

std::span<const double> LstmCell::w(int g) const noexcept {
  const std::size_t n = cfg_.d_hidden * (cfg_.d_in + cfg_.d_hidden);
  return std::span<const double>(w_).subspan(static_cast<std::size_t>(g) * n, n);
}

std::span<const double> LstmCell::b(int g) const noexcept {
  return std::span<const double>(b_).subspan(static_cast<std::size_t>(g) * cfg_.d_hidden, cfg_.d_hidden);
}

void LstmCell::compute(std::span<const double> x, std::span<double> h_out, std::span<double> c_out) const noexcept {
  const std::size_t d = cfg_.d_in, hd = cfg_.d_hidden;
  // All four gates of every unit read h_{t-1} before any h_t is written.
  std::copy(x.begin(), x.end(), xh_.begin());
  std::copy(h_.begin(), h_.end(), xh_.begin() + static_cast<std::ptrdiff_t>(d));
  matvec(w_.data(), xh_.data(), pre_.data(), 4 * hd, d + hd);
  for (std::size_t j = 0; j < hd; ++j) {
    const double i = detail::rnn_sigmoid(pre_[kInput * hd + j] + b_[kInput * hd + j]);
    const double f = detail::rnn_sigmoid(pre_[kForget * hd + j] + b_[kForget * hd + j]);
    const double o = detail::rnn_sigmoid(pre_[kOutput * hd + j] + b_[kOutput * hd + j]);
    const double g = std::tanh(pre_[kCandidate * hd + j] + b_[kCandidate * hd + j]);
    const double c = f * c_[j] + i * g;
    c_out[j] = c;
    h_out[j] = o * std::tanh(c);
  }
}

void LstmCell::forward(std::span<const double> x, std::span<double> h_out) noexcept {
  compute(x, h_out, c_);  // c_[j] is read before it is written, unit by unit
  std::copy(h_out.begin(), h_out.end(), h_.begin());
}

void LstmCell::forward_predict(std::span<const double> x, std::span<double> h_out) const noexcept {
  compute(x, h_out, c_scratch_);
}

void LstmCell::reset() noexcept {
  std::fill(h_.begin(), h_.end(), 0.0);
  std::fill(c_.begin(), c_.end(), 0.0);
}

void LstmCell::reinitialize_unit(std::size_t j, Xorshift64& rng) noexcept {
  const std::size_t hd = cfg_.d_hidden, dt = cfg_.d_in + hd;
  if (j >= hd) return;
  const double scale = draw_scale();
  for (std::size_t g = 0; g < 4; ++g) {
    double* row = w_.data() + (g * hd + j) * dt;
    for (std::size_t k = 0; k < dt; ++k) row[k] = scale * rng.normal();
    b_[g * hd + j] = g == kForget ? cfg_.forget_bias : 0.0;
  }
  h_[j] = c_[j] = 0.0;
}

std::size_t LstmCell::memory_bytes() const noexcept {
  return sizeof(*this) + sizeof(double) * (w_.capacity() + b_.capacity() + h_.capacity() + c_.capacity() +
                                           xh_.capacity() + pre_.capacity() + c_scratch_.capacity());
}

void LstmCell::encode(ByteWriter& out) const {
  out.u64(cfg_.d_in);
  out.u64(cfg_.d_hidden);
  out.f64(cfg_.forget_bias);
  out.u64(cfg_.seed);
  out.f64s(w_);
  out.f64s(b_);
  out.f64s(h_);
  out.f64s(c_);
}

Status LstmCell::decode(ByteReader& in) {
  LstmConfig c;
  c.d_in = in.u64("lstm d_in");
  c.d_hidden = in.u64("lstm d_hidden");
  c.forget_bias = in.f64("lstm forget bias");
  c.seed = in.u64("lstm seed");
  if (!in.ok()) return in.status();
  if (!validate(c).is_ok()) return Status::corruption("lstm: bad configuration");
  // The record's settings are those this cell was built with (its owner
  // builds it from the named settings first); any others come from cfg_.
  if (c.d_in != cfg_.d_in || c.d_hidden != cfg_.d_hidden || c.forget_bias != cfg_.forget_bias || c.seed != cfg_.seed)
    return Status::corruption("lstm: the record differs from the settings this cell was built with");
  // The arrays that follow must fit in what is left before the blank cell is
  // allocated at that size: 4 d_h (d_in + d_h + 1) + 2 d_h doubles.
  const std::size_t n_doubles = 4 * c.d_hidden * (c.d_in + c.d_hidden + 1) + 2 * c.d_hidden;
  if (in.remaining() / sizeof(double) < n_doubles) return Status::corruption("lstm: record shorter than its cell");
  LstmCell cell(cfg_);
  detail::read_cell_array(in, cell.w_, "lstm", "W");
  detail::read_cell_array(in, cell.b_, "lstm", "b");
  detail::read_cell_array(in, cell.h_, "lstm", "h");
  detail::read_cell_array(in, cell.c_, "lstm", "c");
  if (!in.ok()) return in.status();
  *this = std::move(cell);
  return Status::ok();
}

}  // namespace irithyll::nn
