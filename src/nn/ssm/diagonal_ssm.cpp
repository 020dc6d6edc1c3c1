#include "nn/ssm/diagonal_ssm.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/discretize.hpp"
#include "nn/ssm/init.hpp"
#include "nn/ssm/ssm_math.hpp"

namespace irithyll::nn {
namespace {

constexpr std::size_t kDiagonalSsmMaxStates = 65536;

}  // namespace

Result<DiagonalSsm> DiagonalSsm::make(const DiagonalSsmConfig& config) {
  const std::size_t n = config.n_state;
  if (n == 0 || n > kDiagonalSsmMaxStates) return Status::invalid_argument("diagonal ssm: n_state must be in 1..65536");
  if (!(config.weight_scale >= 0.0) || !std::isfinite(config.weight_scale))
    return Status::invalid_argument("diagonal ssm: weight_scale must be finite and >= 0");
  std::vector<double> log_a(n), b(n), c(n);
  switch (config.init) {
    case DiagonalSsmInit::kMamba: mamba_init(log_a); break;
    case DiagonalSsmInit::kS4dLin: s4d_lin_real(log_a); break;
    case DiagonalSsmInit::kS4dInv: s4d_inv_real(log_a); break;
    default: return Status::invalid_argument("diagonal ssm: unknown init");
  }
  Xorshift64 rng(config.seed);
  const double sd = config.weight_scale / std::sqrt(static_cast<double>(n));
  for (double& v : b) v = sd * rng.normal();
  for (double& v : c) v = sd * rng.normal();
  DiagonalSsm out;
  IRITHYLL_RETURN_IF_ERROR(out.assign(std::move(log_a), std::move(b), std::move(c), config.delta));
  return out;
}

Result<DiagonalSsm> DiagonalSsm::make(std::span<const double> log_a, std::span<const double> b,
                                      std::span<const double> c, double delta) {
  DiagonalSsm out;
  IRITHYLL_RETURN_IF_ERROR(out.assign(std::vector<double>(log_a.begin(), log_a.end()),
                                      std::vector<double>(b.begin(), b.end()),
                                      std::vector<double>(c.begin(), c.end()), delta));
  return out;
}

Status DiagonalSsm::assign(std::vector<double> log_a, std::vector<double> b, std::vector<double> c, double delta) {
  const std::size_t n = log_a.size();
  if (n == 0 || n > kDiagonalSsmMaxStates) return Status::invalid_argument("diagonal ssm: log_a must have 1..65536 entries");
  if (b.size() != n || c.size() != n)
    return Status::invalid_argument("diagonal ssm: log_a, b and c must have the same length");
  if (!detail::all_finite(log_a) || !detail::all_finite(b) || !detail::all_finite(c))
    return Status::invalid_argument("diagonal ssm: log_a, b and c must be finite");
  if (!(delta > 0.0) || !std::isfinite(delta)) return Status::invalid_argument("diagonal ssm: delta must be finite and > 0");
  a_bar_.resize(n);
  b_bar_.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const DiscreteReal d = zoh(-std::exp(log_a[k]), delta);
    a_bar_[k] = d.a_bar;
    b_bar_[k] = d.b_bar * b[k];
  }
  delta_ = delta;
  log_a_ = std::move(log_a);
  b_ = std::move(b);
  c_ = std::move(c);
  h_.assign(n, 0.0);
  return Status::ok();
}

double DiagonalSsm::step(double x) noexcept {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double y = 0.0;
  for (std::size_t k = 0; k < h_.size(); ++k) {
    h_[k] = a_bar_[k] * h_[k] + b_bar_[k] * x;
    y += c_[k] * h_[k];
  }
  return y;
}

double DiagonalSsm::predict(double x) const noexcept {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double y = 0.0;
  for (std::size_t k = 0; k < h_.size(); ++k) y += c_[k] * (a_bar_[k] * h_[k] + b_bar_[k] * x);
  return y;
}

void DiagonalSsm::reset() noexcept {
  for (double& v : h_) v = 0.0;
}

std::size_t DiagonalSsm::memory_bytes() const noexcept {
  return sizeof(*this) +
         (log_a_.capacity() + b_.capacity() + c_.capacity() + a_bar_.capacity() + b_bar_.capacity() + h_.capacity()) *
             sizeof(double);
}

void DiagonalSsm::encode(ByteWriter& out) const {
  out.f64(delta_);
  out.f64s(log_a_);
  out.f64s(b_);
  out.f64s(c_);
  out.f64s(h_);
}

Status DiagonalSsm::decode(ByteReader& in) {
  const double delta = in.f64("diagonal ssm delta");
  auto log_a = in.f64s("diagonal ssm log_a");
  auto b = in.f64s("diagonal ssm B");
  auto c = in.f64s("diagonal ssm C");
  auto h = in.f64s("diagonal ssm state");
  if (!in.ok()) return in.status();
  if (h.size() != log_a.size() || !detail::all_finite(h))
    return Status::corruption("diagonal ssm: state must be finite and match log_a in length");
  DiagonalSsm fresh;
  if (Status s = fresh.assign(std::move(log_a), std::move(b), std::move(c), delta); !s.is_ok())
    return Status::corruption(s.message());
  fresh.h_ = std::move(h);
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
