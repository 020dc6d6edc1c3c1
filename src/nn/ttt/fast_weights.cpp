#include "nn/ttt/fast_weights.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "irithyll/core/rng.hpp"
#include "nn/kernels.hpp"
#include "nn/primitives.hpp"
#include "nn/vmath.hpp"

namespace irithyll::nn {

namespace {
// clamp(v, -1, 1) for finite v, in the select form compilers vectorise.
inline double clip1(double v) noexcept {
  v = v < -1.0 ? -1.0 : v;
  return v > 1.0 ? 1.0 : v;
}
}  // namespace

void gelu_tanh_inplace(std::span<double> v, std::span<double> scratch) noexcept {
  constexpr double kC = 0.7978845608028654;  // sqrt(2 / pi)
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) scratch[i] = kC * (v[i] + 0.044715 * v[i] * v[i] * v[i]);
  vtanh(scratch.data(), scratch.data(), n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.5 * v[i] * (1.0 + scratch[i]);
}

void layer_norm_inplace(std::span<double> v) noexcept {
  if (v.empty()) return;
  const double n = static_cast<double>(v.size());
  double mean = 0.0;
  for (double u : v) mean += u;
  mean /= n;
  double var = 0.0;
  for (double u : v) var += (u - mean) * (u - mean);
  const double inv = 1.0 / std::sqrt(var / n + 1e-8);
  for (double& u : v) u = (u - mean) * inv;
}

FastWeightLayer::FastWeightLayer(std::size_t d, std::size_t m, double alpha, double momentum, bool batch,
                                 std::uint64_t seed)
    : d_(d), m_(m), alpha_(alpha), mu_(momentum), batch_(batch), wk_(d * m, 0.0), wv_(d * m, 0.0), wq_(d * m, 0.0),
      w_(d * d, 0.0), s_(momentum > 0.0 ? d * d : 0, 0.0), acc_(batch ? d * d : 0, 0.0), xh_(m, 0.0), k_(d, 0.0),
      v_(d, 0.0), q_(d, 0.0), u_(d, 0.0), t_(d, 0.0), r_(d, 0.0), g_(d, 0.0), a_(d, 0.0) {
  if (d == m) {
    for (std::size_t i = 0; i < d; ++i) wk_[i * m + i] = wv_[i * m + i] = wq_[i * m + i] = 1.0;
    return;
  }
  Xorshift64 rng(seed);
  const double sd = std::sqrt(2.0 / static_cast<double>(m + d));
  for (auto* p : {&wk_, &wv_, &wq_})
    for (double& w : *p) w = sd * rng.normal();
}

void FastWeightLayer::prepare(std::span<const double> x) const noexcept {
  const double nx = l2_norm(x.first(m_));
  const double sx = 1.0 / std::max(nx, 1.0);
  for (std::size_t j = 0; j < m_; ++j) xh_[j] = x[j] * sx;
  matvec(wk_.data(), xh_.data(), k_.data(), d_, m_);
  matvec(wv_.data(), xh_.data(), v_.data(), d_, m_);
  matvec(wq_.data(), xh_.data(), q_.data(), d_, m_);
  for (std::vector<double>* p : {&k_, &q_}) {
    const double inv = 1.0 / std::max(l2_norm(*p), kNormFloor);
    for (double& u : *p) u *= inv;
  }
}

void FastWeightLayer::output(std::span<double> y) const noexcept {
  matvec(w_.data(), q_.data(), u_.data(), d_, d_);
  for (std::size_t i = 0; i < d_; ++i) u_[i] += q_[i];
  gelu_tanh_inplace(u_, t_);
  layer_norm_inplace(u_);
  for (std::size_t i = 0; i < d_; ++i) y[i] = q_[i] + u_[i];
}

void FastWeightLayer::step(double eta, bool directed, double e) noexcept {
  if (directed) {
    const double s = -e / static_cast<double>(d_);
    for (std::size_t i = 0; i < d_; ++i) r_[i] = s * q_[i];
  } else {
    matvec(w_.data(), k_.data(), r_.data(), d_, d_);
    for (std::size_t i = 0; i < d_; ++i) r_[i] -= v_[i] - k_[i];
  }
  if (batch_) {
    for (std::size_t i = 0; i < d_; ++i) {
      double* row = &acc_[i * d_];
      for (std::size_t j = 0; j < d_; ++j) row[j] += clip1(r_[i] * k_[j]);
    }
    ++n_acc_;
    return;
  }
  for (std::size_t i = 0; i < d_; ++i) {
    for (std::size_t j = 0; j < d_; ++j) g_[j] = clip1(r_[i] * k_[j]);
    apply_row(i, g_.data(), 1.0, eta);
  }
  guard();
}

void FastWeightLayer::flush(double eta) noexcept {
  if (n_acc_ == 0) return;
  const double scale = 1.0 / static_cast<double>(n_acc_);
  for (std::size_t i = 0; i < d_; ++i) apply_row(i, &acc_[i * d_], scale, eta);
  std::fill(acc_.begin(), acc_.end(), 0.0);
  n_acc_ = 0;
  guard();
}

void FastWeightLayer::apply_row(std::size_t i, const double* g, double scale, double eta) noexcept {
  double* w = &w_[i * d_];
  const double decay = 1.0 - alpha_;
  if (!s_.empty()) {
    double* s = &s_[i * d_];
    for (std::size_t j = 0; j < d_; ++j) {
      s[j] = mu_ * s[j] - eta * (scale * g[j]);
      w[j] = decay * w[j] + s[j];
    }
    return;
  }
  for (std::size_t j = 0; j < d_; ++j) w[j] = decay * w[j] - eta * (scale * g[j]);
}

void FastWeightLayer::guard() noexcept {
  // probe = sum of w * 0: NaN exactly when some entry is NaN or inf (one
  // branch-free pass instead of a test per entry).
  double big = 0.0, probe = 0.0;
  for (double w : w_) {
    const double a = std::fabs(w);
    big = a > big ? a : big;
    probe += w * 0.0;
  }
  for (double s : s_) probe += s * 0.0;
  if (probe != 0.0) {
    reset_fast_weights();
    return;
  }
  if (big > kGuardLimit) {
    const double scale = kGuardTarget / big;
    for (double& w : w_) w *= scale;
  }
}

void FastWeightLayer::reset_fast_weights() noexcept {
  std::fill(w_.begin(), w_.end(), 0.0);
  std::fill(s_.begin(), s_.end(), 0.0);
  std::fill(acc_.begin(), acc_.end(), 0.0);
  n_acc_ = 0;
}

void FastWeightLayer::set_w(std::span<const double> w) noexcept {
  std::copy_n(w.begin(), std::min(w.size(), w_.size()), w_.begin());
  guard();
}

namespace {
// P -= lr c a x', with c = min(1, 1 / (|a| |x|)) (the outer product clipped to Frobenius norm 1).
void rank_one_step(std::vector<double>& p, std::span<const double> a, std::span<const double> x, double nx,
                   double lr) noexcept {
  const double na = l2_norm(a) * nx;
  const double c = na > 1.0 ? 1.0 / na : 1.0;
  const std::size_t m = x.size();
  for (std::size_t i = 0; i < a.size(); ++i) axpy(-lr * c * a[i], x.data(), &p[i * m], m);
}
}  // namespace

void FastWeightLayer::projection_step(double e, std::span<const double> w_r, double lr) noexcept {
  if (!std::isfinite(e) || !(lr > 0.0)) return;
  const double nx = l2_norm(xh_);
  // dL/dq = -2 e (I + W)' w_r
  matvec_t(w_.data(), w_r.data(), a_.data(), d_, d_);
  for (std::size_t i = 0; i < d_; ++i) a_[i] = -2.0 * e * (w_r[i] + a_[i]);
  rank_one_step(wq_, a_, xh_, nx, lr);
  // res = W k - v + k; dL/dk = 2 (I + W)' res; dL/dv = -2 res
  matvec(w_.data(), k_.data(), r_.data(), d_, d_);
  for (std::size_t i = 0; i < d_; ++i) r_[i] += k_[i] - v_[i];
  matvec_t(w_.data(), r_.data(), a_.data(), d_, d_);
  for (std::size_t i = 0; i < d_; ++i) a_[i] = 2.0 * (r_[i] + a_[i]);
  rank_one_step(wk_, a_, xh_, nx, lr);
  for (std::size_t i = 0; i < d_; ++i) a_[i] = -2.0 * r_[i];
  rank_one_step(wv_, a_, xh_, nx, lr);
}

std::size_t FastWeightLayer::memory_bytes() const noexcept {
  std::size_t n = 0;
  for (const std::vector<double>* p : std::initializer_list<const std::vector<double>*>{&wk_, &wv_, &wq_, &w_, &s_, &acc_, &xh_, &k_, &v_, &q_, &u_, &t_, &r_, &g_, &a_})
    n += p->capacity();
  return n * sizeof(double);
}

void FastWeightLayer::encode(ByteWriter& out) const {
  out.f64s(wk_);
  out.f64s(wv_);
  out.f64s(wq_);
  out.f64s(w_);
  out.f64s(s_);
  out.f64s(acc_);
  out.u64(n_acc_);
}

Status FastWeightLayer::decode(ByteReader& in) {
  auto wk = in.f64s("ttt W_K");
  auto wv = in.f64s("ttt W_V");
  auto wq = in.f64s("ttt W_Q");
  auto w = in.f64s("ttt W");
  auto s = in.f64s("ttt momentum");
  auto acc = in.f64s("ttt batch sum");
  const std::uint64_t n_acc = in.u64("ttt batch count");
  if (!in.ok()) return in.status();
  if (wk.size() != wk_.size() || wv.size() != wv_.size() || wq.size() != wq_.size() || w.size() != w_.size() ||
      s.size() != s_.size() || acc.size() != acc_.size())
    return Status::corruption("ttt: fast-weight layer shape does not match the configuration");
  if ((!batch_ && n_acc != 0) || n_acc > (1ull << 40))
    return Status::corruption("ttt: bad batch count");
  for (const auto* p : {&wk, &wv, &wq, &w, &s, &acc})
    for (double x : *p)
      if (!std::isfinite(x)) return Status::corruption("ttt: non-finite weight");
  wk_ = std::move(wk);
  wv_ = std::move(wv);
  wq_ = std::move(wq);
  w_ = std::move(w);
  s_ = std::move(s);
  acc_ = std::move(acc);
  n_acc_ = n_acc;
  return Status::ok();
}

}  // namespace irithyll::nn
