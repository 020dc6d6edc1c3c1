#include "nn/ssm/selective_ssm.hpp"

#include <cmath>

#include "irithyll/core/rng.hpp"
#include "nn/kernels.hpp"
#include "nn/ssm/discretize.hpp"
#include "nn/ssm/init.hpp"
#include "scan_kernels.hpp"
#include "nn/primitives.hpp"
#include "ssm_math.hpp"

namespace irithyll::nn {

SelectiveSsm::SelectiveSsm(const SelectiveSsmConfig& config) : cfg_(config) {
  const std::size_t d = cfg_.d_in, n = cfg_.n_state;
  log_a_.assign(n, 0.0);
  mamba_init(log_a_);
  a_.resize(n);
  for (std::size_t k = 0; k < n; ++k) a_[k] = -std::exp(log_a_[k]);
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
  b_delta_ = detail::softplus_inverse(cfg_.dt_init > 0.0 ? cfg_.dt_init : 0.1);
  skip_.assign(d, 1.0);
  h_.assign(d * n, 0.0);
  alpha_.assign(n, 0.0);
  bb_.assign(n, 0.0);
  c_.assign(n, 0.0);
}

Result<SelectiveSsm> SelectiveSsm::make(const SelectiveSsmConfig& config) {
  if (config.d_in == 0 || config.n_state == 0) return Status::invalid_argument("selective ssm: d_in and n_state must be >= 1");
  if (config.d_in > 65536 || config.n_state > 4096) return Status::invalid_argument("selective ssm: dimensions too large");
  if (!(config.dt_init > 0.0) || !std::isfinite(config.dt_init))
    return Status::invalid_argument("selective ssm: dt_init must be finite and > 0");
  if (!(config.weight_scale >= 0.0) || !std::isfinite(config.weight_scale))
    return Status::invalid_argument("selective ssm: weight_scale must be finite and >= 0");
  return SelectiveSsm(config);
}

void SelectiveSsm::coefficients(std::span<const double> x) const noexcept {
  const std::size_t d = cfg_.d_in, n = cfg_.n_state;
  const double delta = detail::softplus(dot(w_delta_.data(), x.data(), d) + b_delta_);
  matvec(w_b_.data(), x.data(), bb_.data(), n, d);
  matvec(w_c_.data(), x.data(), c_.data(), n, d);
  for (std::size_t k = 0; k < n; ++k) {
    c_[k] += b_c_[k];
    bb_[k] += b_b_[k];
    const double al = std::exp(delta * a_[k]);
    alpha_[k] = al;
    bb_[k] *= zoh_b_from_alpha(al, a_[k], delta);
  }
}

void SelectiveSsm::forward(std::span<const double> x, std::span<double> y) noexcept {
  coefficients(x);
  detail::scan_update(h_.data(), alpha_.data(), bb_.data(), c_.data(), x.data(), skip_.data(), y.data(), cfg_.d_in,
                      cfg_.n_state);
}

void SelectiveSsm::forward_predict(std::span<const double> x, std::span<double> y) const noexcept {
  coefficients(x);
  detail::scan_peek(h_.data(), alpha_.data(), bb_.data(), c_.data(), x.data(), skip_.data(), y.data(), cfg_.d_in,
                    cfg_.n_state);
}

void SelectiveSsm::forward_ref(std::span<const double> x, std::span<double> y) noexcept {
  const std::size_t d = cfg_.d_in, n = cfg_.n_state;
  const double delta = detail::softplus(dot_ref(w_delta_.data(), x.data(), d) + b_delta_);
  matvec_ref(w_b_.data(), x.data(), bb_.data(), n, d);
  matvec_ref(w_c_.data(), x.data(), c_.data(), n, d);
  for (std::size_t k = 0; k < n; ++k) {
    c_[k] += b_c_[k];
    bb_[k] += b_b_[k];
    const DiscreteReal z = zoh(a_[k], delta);
    alpha_[k] = z.a_bar;
    bb_[k] *= z.b_bar;
  }
  detail::scan_update_ref(h_.data(), alpha_.data(), bb_.data(), c_.data(), x.data(), skip_.data(), y.data(), d, n);
}

void SelectiveSsm::reset() noexcept { std::fill(h_.begin(), h_.end(), 0.0); }

std::size_t SelectiveSsm::memory_bytes() const noexcept {
  return sizeof(*this) + sizeof(double) * (log_a_.capacity() + a_.capacity() + w_delta_.capacity() + w_b_.capacity() +
                                           w_c_.capacity() + b_b_.capacity() + b_c_.capacity() + skip_.capacity() + h_.capacity() + alpha_.capacity() +
                                           bb_.capacity() + c_.capacity());
}

void SelectiveSsm::encode(ByteWriter& out) const {
  out.u64(cfg_.d_in);
  out.u64(cfg_.n_state);
  out.u64(cfg_.seed);
  out.f64(cfg_.weight_scale);
  out.f64(cfg_.dt_init);
  out.f64s(log_a_);
  out.f64s(w_delta_);
  out.f64(b_delta_);
  out.f64s(w_b_);
  out.f64s(w_c_);
  out.f64s(b_b_);
  out.f64s(b_c_);
  out.f64s(skip_);
  out.f64s(h_);
}

Status SelectiveSsm::decode(ByteReader& in) {
  SelectiveSsmConfig cfg;
  cfg.d_in = in.u64("ssm d_in");
  cfg.n_state = in.u64("ssm n_state");
  cfg.seed = in.u64("ssm seed");
  cfg.weight_scale = in.f64("ssm weight scale");
  cfg.dt_init = in.f64("ssm dt_init");
  auto log_a = in.f64s("ssm log_a");
  auto w_delta = in.f64s("ssm w_delta");
  const double b_delta = in.f64("ssm b_delta");
  auto w_b = in.f64s("ssm W_B");
  auto w_c = in.f64s("ssm W_C");
  auto b_b = in.f64s("ssm b_B");
  auto b_c = in.f64s("ssm b_C");
  auto skip = in.f64s("ssm D");
  auto h = in.f64s("ssm state");
  if (!in.ok()) return in.status();
  const std::size_t d = cfg.d_in, n = cfg.n_state;
  if (d == 0 || n == 0 || d > 65536 || n > 4096 || log_a.size() != n || w_delta.size() != d || w_b.size() != n * d ||
      w_c.size() != n * d || b_b.size() != n || b_c.size() != n || skip.size() != d || h.size() != n * d)
    return Status::corruption("selective ssm: array sizes do not match d_in and n_state");
  // A = -exp(log_a) must stay a finite, non-zero rate; the rest as learning keeps them.
  if (!all_within(log_a, 700.0) || !all_within(w_delta) || !all_within(std::span<const double>(&b_delta, 1)) ||
      !all_within(w_b) || !all_within(w_c) || !all_within(b_b) || !all_within(b_c) || !all_within(skip) ||
      !all_within(h))
    return Status::corruption("selective ssm: non-finite or out-of-range weights or state");
  // The record's settings are those this block was built with (its owner
  // builds it from the named settings first); any others stay cfg_'s.
  if (cfg.d_in != cfg_.d_in || cfg.n_state != cfg_.n_state || cfg.seed != cfg_.seed ||
      cfg.weight_scale != cfg_.weight_scale || cfg.dt_init != cfg_.dt_init)
    return Status::corruption("selective ssm: the record differs from the settings this block was built with");
  log_a_ = std::move(log_a);
  a_.resize(n);
  for (std::size_t k = 0; k < n; ++k) a_[k] = -std::exp(log_a_[k]);
  w_delta_ = std::move(w_delta);
  b_delta_ = b_delta;
  w_b_ = std::move(w_b);
  w_c_ = std::move(w_c);
  b_b_ = std::move(b_b);
  b_c_ = std::move(b_c);
  skip_ = std::move(skip);
  h_ = std::move(h);
  alpha_.assign(n, 0.0);
  bb_.assign(n, 0.0);
  c_.assign(n, 0.0);
  return Status::ok();
}

}  // namespace irithyll::nn
