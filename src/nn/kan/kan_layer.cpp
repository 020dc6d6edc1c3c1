#include "nn/kan/kan_layer.hpp"

#include <algorithm>
#include <cmath>

#include "core/finite.hpp"

namespace irithyll::nn {

namespace {
constexpr double kOutLimit = 1e6;     // forward output bound
constexpr double kDeltaLimit = 10.0;  // incoming and outgoing gradient bound
constexpr double kMoveLimit = 0.5;    // largest change of one parameter per step

inline double sigmoid(double x) noexcept { return 1.0 / (1.0 + std::exp(-std::clamp(x, -500.0, 500.0))); }

// Bounded and NaN-free: a NaN reads as 0 (no move).
inline double bound(double v, double limit) noexcept { return v == v ? std::clamp(v, -limit, limit) : 0.0; }
}  // namespace

void KanLayerScratch::resize(std::size_t n_in, std::size_t order) {
  span.assign(n_in, 0);
  basis.assign(n_in * (order + 1), 0.0);
  dbasis.assign(n_in * (order + 1), 0.0);
  silu.assign(n_in, 0.0);
  dsilu.assign(n_in, 0.0);
}

std::size_t KanLayerScratch::memory_bytes() const noexcept {
  return span.capacity() * sizeof(std::size_t) +
         (basis.capacity() + dbasis.capacity() + silu.capacity() + dsilu.capacity()) * sizeof(double);
}

KanLayer::KanLayer(std::size_t n_in, std::size_t n_out, std::size_t order, std::size_t grid, Xorshift64& rng)
    : n_in_(n_in), n_out_(n_out), nb_(order + grid), k_(order), basis_(order, grid) {
  coef_.resize(n_out * n_in * nb_);
  for (double& c : coef_) c = 0.1 * rng.normal();
  vel_.assign(coef_.size(), 0.0);
  wb_.assign(n_out * n_in, 1.0 / static_cast<double>(n_in));
  ws_.assign(n_out * n_in, 1.0);
}

void KanLayer::forward(std::span<const double> h, std::span<double> out, KanLayerScratch& scratch,
                       bool with_derivs) const noexcept {
  const std::size_t kp = k_ + 1;
  for (std::size_t i = 0; i < n_in_; ++i) {
    const double x = std::clamp(h[i], -1.0, 1.0);
    scratch.span[i] =
        basis_.evaluate(x, &scratch.basis[i * kp], with_derivs ? &scratch.dbasis[i * kp] : nullptr) - k_;
    const double s = sigmoid(x);
    scratch.silu[i] = x * s;
    scratch.dsilu[i] = s + x * s * (1.0 - s);
  }
  for (std::size_t j = 0; j < n_out_; ++j) {
    double acc = 0.0;
    for (std::size_t i = 0; i < n_in_; ++i) {
      const std::size_t e = j * n_in_ + i;
      const double* c = &coef_[e * nb_ + scratch.span[i]];
      const double* b = &scratch.basis[i * kp];
      double spline = 0.0;
      for (std::size_t q = 0; q < kp; ++q) spline += c[q] * b[q];
      acc += wb_[e] * scratch.silu[i] + ws_[e] * spline;
    }
    out[j] = bound(acc, kOutLimit);
  }
}

bool KanLayer::backward(std::span<const double> delta_out, double lr, double momentum,
                        const KanLayerScratch& scratch, std::span<double> grad_in) noexcept {
  const std::size_t kp = k_ + 1;
  bool in_range = true;
  std::fill(grad_in.begin(), grad_in.end(), 0.0);
  for (std::size_t j = 0; j < n_out_; ++j) {
    if (!finite_value(delta_out[j])) continue;
    const double delta = std::clamp(delta_out[j], -kDeltaLimit, kDeltaLimit);
    for (std::size_t i = 0; i < n_in_; ++i) {
      const std::size_t e = j * n_in_ + i;
      double* c = &coef_[e * nb_ + scratch.span[i]];
      double* v = &vel_[e * nb_ + scratch.span[i]];
      const double* b = &scratch.basis[i * kp];
      const double* db = &scratch.dbasis[i * kp];
      // Spline value and slope before this step moves the coefficients.
      double spline = 0.0, slope = 0.0;
      for (std::size_t q = 0; q < kp; ++q) {
        spline += c[q] * b[q];
        slope += c[q] * db[q];
      }
      const double ws = ws_[e];
      for (std::size_t q = 0; q < kp; ++q) {
        const double g = delta * ws * b[q];
        if (!finite_value(g)) continue;
        const double u = bound(momentum * v[q] + lr * g, kMoveLimit);
        v[q] = u;
        c[q] -= u;
        in_range &= std::fabs(c[q]) <= kCoefLimit;
      }
      const double step_b = lr * delta * scratch.silu[i];
      if (finite_value(step_b)) wb_[e] -= std::clamp(step_b, -kMoveLimit, kMoveLimit);
      const double step_s = lr * delta * spline;
      if (finite_value(step_s)) ws_[e] -= std::clamp(step_s, -kMoveLimit, kMoveLimit);
      // Through the updated edge weights, so the next layer down sees the
      // edge as it now is.
      grad_in[i] += delta * (wb_[e] * scratch.dsilu[i] + ws_[e] * slope);
    }
  }
  for (double& g : grad_in) g = bound(g, kDeltaLimit);
  return in_range;
}

void KanLayer::scale_coefficients(double factor) noexcept {
  for (double& c : coef_) c *= factor;
}

void KanLayer::repair_coefficients() noexcept {
  for (double& c : coef_) c = finite_value(c) ? 0.5 * c : 0.0;
}

bool KanLayer::coefficients_in_range() const noexcept {
  for (double c : coef_)
    if (!(std::fabs(c) <= kCoefLimit)) return false;
  return true;
}

std::size_t KanLayer::memory_bytes() const noexcept {
  return (coef_.capacity() + vel_.capacity() + wb_.capacity() + ws_.capacity() + basis_.knots().capacity()) *
         sizeof(double);
}

void KanLayer::encode(ByteWriter& out) const {
  out.f64s(coef_);
  out.f64s(vel_);
  out.f64s(wb_);
  out.f64s(ws_);
}

Status KanLayer::decode(ByteReader& in, std::size_t n_in, std::size_t n_out, std::size_t order, std::size_t grid) {
  std::vector<double> coef = in.f64s("kan coefficients");
  std::vector<double> vel = in.f64s("kan velocities");
  std::vector<double> wb = in.f64s("kan base weights");
  std::vector<double> ws = in.f64s("kan spline weights");
  if (!in.ok()) return in.status();
  const std::size_t edges = n_in * n_out;
  if (coef.size() != edges * (order + grid) || vel.size() != coef.size() || wb.size() != edges ||
      ws.size() != edges)
    return Status::corruption("kan: layer arrays do not match the layer's shape");
  bool ok = true;
  for (double c : coef) ok &= std::fabs(c) <= kCoefLimit;
  for (double u : vel) ok &= std::fabs(u) <= kMoveLimit;
  for (double w : wb) ok &= finite_value(w);
  for (double w : ws) ok &= finite_value(w);
  if (!ok) return Status::corruption("kan: layer parameters out of range");
  n_in_ = n_in, n_out_ = n_out, nb_ = order + grid, k_ = order;
  basis_ = BSplineBasis(order, grid);
  coef_ = std::move(coef), vel_ = std::move(vel), wb_ = std::move(wb), ws_ = std::move(ws);
  return Status::ok();
}

}  // namespace irithyll::nn
