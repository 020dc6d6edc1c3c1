#include "readout/rls.hpp"

#include <cmath>
#include <string>

namespace irithyll {

RecursiveLeastSquares::RecursiveLeastSquares(std::size_t n_inputs, RlsConfig config)
    : config_(config), n_(n_inputs), w_(n_inputs, 0.0), p_(n_inputs * n_inputs, 0.0), px_(n_inputs, 0.0) {
  reset();
}

void RecursiveLeastSquares::reset() noexcept {
  std::fill(w_.begin(), w_.end(), 0.0);
  std::fill(p_.begin(), p_.end(), 0.0);
  for (std::size_t i = 0; i < n_; ++i) p_[i * n_ + i] = config_.delta;
  s2_ = 0.0;
  n_updates_ = 0;
}

void RecursiveLeastSquares::reset_input(std::size_t i) noexcept {
  if (i >= n_) return;
  w_[i] = 0.0;
  for (std::size_t j = 0; j < n_; ++j) p_[i * n_ + j] = p_[j * n_ + i] = 0.0;
  p_[i * n_ + i] = config_.delta;
}

double RecursiveLeastSquares::predict(std::span<const double> x) const noexcept {
  double s = 0.0;
  for (std::size_t i = 0; i < n_; ++i) s += w_[i] * x[i];
  return s;
}

void RecursiveLeastSquares::update(std::span<const double> x, double y) noexcept {
  if (!std::isfinite(y)) return;
  for (std::size_t i = 0; i < n_; ++i)
    if (!std::isfinite(x[i])) return;
  // px = P x (P is symmetric), denom = lambda + x' P x.
  double xpx = 0.0;
  for (std::size_t i = 0; i < n_; ++i) {
    const double* row = &p_[i * n_];
    double s = 0.0;
    for (std::size_t j = 0; j < n_; ++j) s += row[j] * x[j];
    px_[i] = s;
    xpx += x[i] * s;
  }
  const double lambda = config_.forgetting_factor;
  const double denom = lambda + xpx;
  if (!(denom > 0.0) || !std::isfinite(denom)) return;
  const double err = y - predict(x);
  const double inv = 1.0 / denom;
  for (std::size_t i = 0; i < n_; ++i) w_[i] += px_[i] * inv * err;
  // P = (P - px px' / denom) / lambda, kept exactly symmetric: each (i, j)
  // pair is computed once and mirrored. (Computing both halves lets rounding
  // make P slightly asymmetric; with lambda < 1 that error grows like
  // lambda^-t and P loses positive definiteness after ~10^4 updates.)
  const double inv_lambda = 1.0 / lambda;
  for (std::size_t i = 0; i < n_; ++i) {
    const double ki = px_[i] * inv;
    double* row = &p_[i * n_];
    for (std::size_t j = i; j < n_; ++j) {
      const double v = (row[j] - ki * px_[j]) * inv_lambda;
      row[j] = v;
      p_[j * n_ + i] = v;
    }
  }
  // Covariance windup guard: with lambda < 1, directions the inputs stop
  // exciting (a constant feature, a saturated reservoir unit) are divided by
  // lambda on every update, so P grows like lambda^-t until the gain loses all
  // precision and the weights explode (|prediction| ~ 1e9 after 10^5 updates of
  // an echo state network on a stream with a long constant input). Capping
  // trace(P) at its initial value n * delta bounds that growth; well-excited
  // directions, where P is far below delta, are untouched.
  {
    double trace = 0.0;
    for (std::size_t i = 0; i < n_; ++i) trace += p_[i * n_ + i];
    const double cap = static_cast<double>(n_) * config_.delta;
    if (trace > cap) {
      const double shrink = cap / trace;
      for (double& v : p_) v *= shrink;
    }
  }
  const double a = 1.0 - lambda > 1e-3 ? 1.0 - lambda : 1e-3;
  s2_ = n_updates_ == 0 ? err * err : (1.0 - a) * s2_ + a * err * err;
  ++n_updates_;
}

double RecursiveLeastSquares::prediction_half_width(std::span<const double> x, double z) const noexcept {
  double xpx = 0.0;
  for (std::size_t i = 0; i < n_; ++i) {
    const double* row = &p_[i * n_];
    double s = 0.0;
    for (std::size_t j = 0; j < n_; ++j) s += row[j] * x[j];
    xpx += x[i] * s;
  }
  return z * std::sqrt(s2_ * (1.0 + (xpx > 0.0 ? xpx : 0.0)));
}

std::size_t RecursiveLeastSquares::memory_bytes() const noexcept {
  return sizeof(*this) + (w_.capacity() + p_.capacity() + px_.capacity()) * sizeof(double);
}

void RecursiveLeastSquares::encode(ByteWriter& out) const {
  out.f64(config_.forgetting_factor);
  out.f64(config_.delta);
  out.f64s(w_);
  out.f64s(p_);
  out.f64(s2_);
  out.u64(n_updates_);
}

Status check_rls_config(std::string_view who, const RlsConfig& rls) {
  if (!(rls.forgetting_factor >= kMinForgettingFactor && rls.forgetting_factor <= 1.0))
    return Status::invalid_argument(std::string(who) + ": RLS forgetting factor must be in [0.5, 1]");
  if (!(rls.delta >= kMinRlsDelta && rls.delta <= kMaxRlsDelta))
    return Status::invalid_argument(std::string(who) + ": RLS delta must be in [1e-6, 1e12]");
  return Status::ok();
}

Status RecursiveLeastSquares::decode(ByteReader& in) {
  RlsConfig cfg;
  cfg.forgetting_factor = in.f64("rls forgetting factor");
  cfg.delta = in.f64("rls delta");
  auto w = in.f64s("rls weights");
  auto p = in.f64s("rls P");
  const double s2 = in.f64("rls residual variance");
  const std::uint64_t n_updates = in.u64("rls updates");
  if (!in.ok()) return in.status();
  if (p.size() != w.size() * w.size()) return Status::corruption("rls: P is not n x n for n weights");
  if (!(cfg.forgetting_factor >= kMinForgettingFactor && cfg.forgetting_factor <= 1.0))
    return Status::corruption("rls: forgetting factor outside [0.5, 1]");
  if (!(cfg.delta >= kMinRlsDelta && cfg.delta <= kMaxRlsDelta))
    return Status::corruption("rls: delta must be in [1e-6, 1e12]");
  // Learning keeps the weights and P finite, and weights beyond 1e100 cannot
  // come from data a double holds; such a record would predict inf or NaN.
  for (const double v : w)
    if (!(std::fabs(v) <= 1e100)) return Status::corruption("rls: weight out of range");
  for (const double v : p)
    if (!std::isfinite(v)) return Status::corruption("rls: non-finite entry in P");
  if (!(s2 >= 0.0) || !std::isfinite(s2)) return Status::corruption("rls: residual variance must be finite and >= 0");
  config_ = cfg;
  n_ = w.size();
  w_ = std::move(w);
  p_ = std::move(p);
  px_.assign(n_, 0.0);
  s2_ = s2;
  n_updates_ = n_updates;
  return Status::ok();
}

}  // namespace irithyll
