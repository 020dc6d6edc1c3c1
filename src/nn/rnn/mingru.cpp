#include "nn/rnn/mingru.hpp"

#include <algorithm>
#include <cmath>

#include "irithyll/core/rng.hpp"
#include "nn/kernels.hpp"
#include "nn/rnn/cell_codec.hpp"
#include "rnn_math.hpp"

namespace irithyll::nn {

Status MinGruCell::validate(const MinGruConfig& c) {
  if (c.d_in == 0 || c.d_hidden == 0) return Status::invalid_argument("mingru: d_in and d_hidden must be >= 1");
  if (c.d_in > 65536 || c.d_hidden > 4096) return Status::invalid_argument("mingru: dimensions too large");
  return Status::ok();
}

MinGruCell::MinGruCell(const MinGruConfig& config) : cfg_(config) {
  const std::size_t d = cfg_.d_in, hd = cfg_.d_hidden, dt = d + hd;
  Xorshift64 rng(cfg_.seed);
  w_z_.resize(hd * dt);
  const double sz = std::sqrt(2.0 / static_cast<double>(dt + hd));
  for (double& v : w_z_) v = sz * rng.normal();
  w_h_.resize(hd * d);
  const double sh = std::sqrt(2.0 / static_cast<double>(d + hd));
  for (double& v : w_h_) v = sh * rng.normal();
  b_z_.assign(hd, 0.0);
  b_h_.assign(hd, 0.0);
  h_.assign(hd, 0.0);
  xh_.assign(dt, 0.0);
  zpre_.assign(2 * hd, 0.0);
}

void MinGruCell::reinitialize_unit(std::size_t j, Xorshift64& rng) noexcept {
  const std::size_t d = cfg_.d_in, hd = cfg_.d_hidden, dt = d + hd;
  if (j >= hd) return;
  const double sz = std::sqrt(2.0 / static_cast<double>(dt + hd));
  for (std::size_t k = 0; k < dt; ++k) w_z_[j * dt + k] = sz * rng.normal();
  const double sh = std::sqrt(2.0 / static_cast<double>(d + hd));
  for (std::size_t k = 0; k < d; ++k) w_h_[j * d + k] = sh * rng.normal();
  b_z_[j] = b_h_[j] = h_[j] = 0.0;
}

void MinGruCell::compute(std::span<const double> x, std::span<double> h_out) const noexcept {
  const std::size_t d = cfg_.d_in, hd = cfg_.d_hidden;
  std::copy(x.begin(), x.end(), xh_.begin());
  std::copy(h_.begin(), h_.end(), xh_.begin() + static_cast<std::ptrdiff_t>(d));
  double* zp = zpre_.data();
  double* cand = zpre_.data() + hd;
  matvec(w_z_.data(), xh_.data(), zp, hd, d + hd);
  matvec(w_h_.data(), x.data(), cand, hd, d);
  for (std::size_t j = 0; j < hd; ++j) {
    const double z = detail::rnn_sigmoid(zp[j] + b_z_[j]);
    h_out[j] = (1.0 - z) * h_[j] + z * (cand[j] + b_h_[j]);
  }
}

void MinGruCell::forward(std::span<const double> x, std::span<double> h_out) noexcept {
  compute(x, h_out);
  std::copy(h_out.begin(), h_out.end(), h_.begin());
}

void MinGruCell::forward_predict(std::span<const double> x, std::span<double> h_out) const noexcept { compute(x, h_out); }

std::size_t MinGruCell::memory_bytes() const noexcept {
  return sizeof(*this) + sizeof(double) * (w_z_.capacity() + b_z_.capacity() + w_h_.capacity() + b_h_.capacity() +
                                           h_.capacity() + xh_.capacity() + zpre_.capacity());
}

void MinGruCell::encode(ByteWriter& out) const {
  out.u64(cfg_.d_in);
  out.u64(cfg_.d_hidden);
  out.u64(cfg_.seed);
  out.f64s(w_z_);
  out.f64s(b_z_);
  out.f64s(w_h_);
  out.f64s(b_h_);
  out.f64s(h_);
}

Status MinGruCell::decode(ByteReader& in) {
  MinGruConfig c;
  c.d_in = in.u64("mingru d_in");
  c.d_hidden = in.u64("mingru d_hidden");
  c.seed = in.u64("mingru seed");
  if (!in.ok()) return in.status();
  if (!validate(c).is_ok()) return Status::corruption("mingru: bad dimensions");
  // The record's settings are those this cell was built with (its owner
  // builds it from the named settings first); any others come from cfg_.
  if (c.d_in != cfg_.d_in || c.d_hidden != cfg_.d_hidden || c.seed != cfg_.seed)
    return Status::corruption("mingru: the record differs from the settings this cell was built with");
  MinGruCell cell(cfg_);
  detail::read_cell_array(in, cell.w_z_, "mingru", "W_z");
  detail::read_cell_array(in, cell.b_z_, "mingru", "b_z");
  detail::read_cell_array(in, cell.w_h_, "mingru", "W_h");
  detail::read_cell_array(in, cell.b_h_, "mingru", "b_h");
  detail::read_cell_array(in, cell.h_, "mingru", "h");
  if (!in.ok()) return in.status();
  *this = std::move(cell);
  return Status::ok();
}

}  // namespace irithyll::nn
