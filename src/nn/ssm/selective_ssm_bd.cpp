#include "nn/ssm/selective_ssm_bd.hpp"

#include <algorithm>
#include <cmath>

#include "nn/kernels.hpp"
#include "nn/primitives.hpp"
#include "ssm_math.hpp"

namespace irithyll::nn {

Status SelectiveSsmBd::validate(const SelectiveSsmBdConfig& c) {
  if (c.d_in == 0 || c.n_state == 0 || c.block_size == 0) return Status::invalid_argument("ssm bd: sizes must be >= 1");
  if (c.d_in > 65536 || c.n_state > 4096 || c.block_size > 64) return Status::invalid_argument("ssm bd: sizes too large");
  if (c.d_in % c.block_size != 0) return Status::invalid_argument("ssm bd: block_size must divide d_in");
  if (!(c.dt_init > 0.0) || !(c.dt_init <= 1.0)) return Status::invalid_argument("ssm bd: dt_init must be in (0, 1]");
  if (!(c.weight_scale >= 0.0) || !std::isfinite(c.weight_scale)) return Status::invalid_argument("ssm bd: bad weight_scale");
  return Status::ok();
}

SelectiveSsmBd::SelectiveSsmBd(const SelectiveSsmBdConfig& config) : cfg_(config) {
  const std::size_t d = cfg_.d_in, n = cfg_.n_state, m = cfg_.block_size;
  Xorshift64 rng(cfg_.seed);
  w_delta_.resize(d);
  for (double& v : w_delta_) v = cfg_.weight_scale * rng.normal();
  w_b_.resize(n * d);
  for (double& v : w_b_) v = cfg_.weight_scale * rng.normal();
  w_c_.resize(n * d);
  for (double& v : w_c_) v = cfg_.weight_scale * rng.normal();
  b_b_.resize(n);
  for (double& v : b_b_) v = cfg_.weight_scale * rng.normal();
  b_c_.resize(n);
  for (double& v : b_c_) v = cfg_.weight_scale * rng.normal();
  b_delta_ = detail::softplus_inverse(cfg_.dt_init);
  skip_.assign(d, 1.0);
  a_.assign(n_blocks() * m * m, 0.0);
  for (std::size_t b = 0; b < n_blocks(); ++b) draw_block(b, rng);
  h_.assign(d * n, 0.0);
  bvec_.assign(n, 0.0);
  cvec_.assign(n, 0.0);
  hnew_.assign(m, 0.0);
}

void SelectiveSsmBd::draw_block(std::size_t b, Xorshift64& rng) noexcept {
  const std::size_t m = cfg_.block_size;
  double* ab = a_.data() + b * m * m;
  for (std::size_t i = 0; i < m; ++i) {
    double* row = ab + i * m;
    double off = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
      row[j] = i == j ? -(0.5 + static_cast<double>(i) / static_cast<double>(m)) : 0.02 * rng.normal();
      if (i != j) off += std::abs(row[j]);
    }
    const double diag = std::abs(row[i]);
    if (off > 0.5 * diag) {  // keep the row diagonally dominant
      for (std::size_t j = 0; j < m; ++j)
        if (j != i) row[j] *= 0.5 * diag / off;
      off = 0.5 * diag;
    }
    const double l1 = diag + off;
    if (l1 > 1.0)
      for (std::size_t j = 0; j < m; ++j) row[j] /= l1;
  }
}

void SelectiveSsmBd::reinitialize_block(std::size_t b, Xorshift64& rng) noexcept {
  if (b >= n_blocks()) return;
  draw_block(b, rng);
  const std::size_t per = cfg_.n_state * cfg_.block_size;
  std::fill(h_.begin() + static_cast<std::ptrdiff_t>(b * per), h_.begin() + static_cast<std::ptrdiff_t>((b + 1) * per), 0.0);
}

template <bool kCommit>
void SelectiveSsmBd::step(std::span<const double> x, std::span<double> y, double* h) const noexcept {
  const std::size_t d = cfg_.d_in, n = cfg_.n_state, m = cfg_.block_size;
  const double delta = std::min(detail::softplus(dot(w_delta_.data(), x.data(), d) + b_delta_), 1.0);
  matvec(w_b_.data(), x.data(), bvec_.data(), n, d);
  matvec(w_c_.data(), x.data(), cvec_.data(), n, d);
  for (std::size_t k = 0; k < n; ++k) {
    bvec_[k] += b_b_[k];
    cvec_[k] += b_c_[k];
  }
  for (std::size_t q = 0; q < d; ++q) y[q] = skip_[q] * x[q];
  for (std::size_t b = 0; b < n_blocks(); ++b) {
    const double* ab = a_.data() + b * m * m;
    const double* xb = x.data() + b * m;
    for (std::size_t k = 0; k < n; ++k) {
      double* hb = h + (b * n + k) * m;
      for (std::size_t i = 0; i < m; ++i) {
        double s = hb[i];  // the identity in I + Delta A
        double ah = 0.0;
        for (std::size_t j = 0; j < m; ++j) ah += ab[i * m + j] * hb[j];
        s += delta * ah + delta * bvec_[k] * xb[i];
        hnew_[i] = s;
        y[b * m + i] += cvec_[k] * s;
      }
      if constexpr (kCommit) std::copy(hnew_.begin(), hnew_.end(), hb);
    }
  }
}

void SelectiveSsmBd::forward(std::span<const double> x, std::span<double> y) noexcept { step<true>(x, y, h_.data()); }

void SelectiveSsmBd::forward_predict(std::span<const double> x, std::span<double> y) const noexcept {
  step<false>(x, y, const_cast<double*>(h_.data()));  // step<false> never writes h
}

std::size_t SelectiveSsmBd::memory_bytes() const noexcept {
  return sizeof(*this) + sizeof(double) * (a_.capacity() + w_delta_.capacity() + w_b_.capacity() + w_c_.capacity() +
                                           b_b_.capacity() + b_c_.capacity() + skip_.capacity() + h_.capacity() +
                                           bvec_.capacity() + cvec_.capacity() + hnew_.capacity());
}

void SelectiveSsmBd::encode(ByteWriter& out) const {
  out.u64(cfg_.d_in);
  out.u64(cfg_.n_state);
  out.u64(cfg_.block_size);
  out.u64(cfg_.seed);
  out.f64(cfg_.weight_scale);
  out.f64(cfg_.dt_init);
  for (const auto* v : {&a_, &w_delta_, &w_b_, &w_c_, &b_b_, &b_c_, &skip_, &h_}) out.f64s(*v);
  out.f64(b_delta_);
}

Status SelectiveSsmBd::decode(ByteReader& in) {
  SelectiveSsmBdConfig c;
  c.d_in = in.u64("ssm bd d_in");
  c.n_state = in.u64("ssm bd n_state");
  c.block_size = in.u64("ssm bd block size");
  c.seed = in.u64("ssm bd seed");
  c.weight_scale = in.f64("ssm bd weight scale");
  c.dt_init = in.f64("ssm bd dt_init");
  if (!in.ok()) return in.status();
  if (!validate(c).is_ok()) return Status::corruption("ssm bd: bad configuration");
  // The record's settings are those this block was built with (its owner
  // builds it from the named settings first); any others come from cfg_.
  if (c.d_in != cfg_.d_in || c.n_state != cfg_.n_state || c.block_size != cfg_.block_size || c.seed != cfg_.seed ||
      c.weight_scale != cfg_.weight_scale || c.dt_init != cfg_.dt_init)
    return Status::corruption("ssm bd: the record differs from the settings this block was built with");
  SelectiveSsmBd s(cfg_);
  for (auto* v : {&s.a_, &s.w_delta_, &s.w_b_, &s.w_c_, &s.b_b_, &s.b_c_, &s.skip_, &s.h_}) {
    auto r = in.f64s("ssm bd array");
    if (in.ok() && r.size() != v->size()) in.fail("ssm bd: array size does not match the configuration");
    if (in.ok() && !all_within(r)) in.fail("ssm bd: non-finite or out-of-range weights or state");
    if (!in.ok()) return in.status();
    *v = std::move(r);
  }
  s.b_delta_ = in.f64("ssm bd b_delta");
  if (!in.ok()) return in.status();
  if (!all_within(std::span<const double>(&s.b_delta_, 1))) return Status::corruption("ssm bd: b_delta out of range");
  *this = std::move(s);
  return Status::ok();
}

}  // namespace irithyll::nn
