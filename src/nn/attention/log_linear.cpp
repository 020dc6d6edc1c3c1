#include "irithyll/nn/attention/log_linear.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <cassert>

#include "irithyll/core/rng.hpp"
#include "nn/attention/fenwick.hpp"
#include "nn/kernels.hpp"
#include "nn/primitives.hpp"

namespace irithyll::nn {

namespace {
constexpr double kKeyFloor = 1e-12;

bool finite_values(std::span<const double> v) noexcept {
  for (double e : v)
    if (!std::isfinite(e)) return false;
  return true;
}

// W -= lr * g x^T, skipping rows whose gradient is zero.
void sgd_outer(std::vector<double>& w, const std::vector<double>& g, const double* x, std::size_t cols,
               double lr) noexcept {
  for (std::size_t r = 0; r < g.size(); ++r)
    if (g[r] != 0.0) axpy(-lr * g[r], x, w.data() + r * cols, cols);
}
}  // namespace

Status LogLinearConfig::validate() const {
  if (static_cast<std::uint8_t>(form) > 2) return Status::invalid_argument("log-linear: unknown form");
  if (static_cast<std::size_t>(inner) >= kAttentionKindCount || has_levels(inner))
    return Status::invalid_argument("log-linear: inner mode must be a non-log-linear mode");
  for (std::size_t d : {d_model, d_key, d_value})
    if (d < 1 || d > 4096) return Status::invalid_argument("log-linear: dimensions must be 1..4096");
  if (max_levels < 1 || max_levels > kMaxFenwickLevels) return Status::invalid_argument("log-linear: levels 1..62");
  if (!std::isfinite(lambda_init) || !(tau > 0.0) || !std::isfinite(tau))
    return Status::invalid_argument("log-linear: lambda_init finite and tau > 0");
  if (!(learning_rate >= 0.0) || !std::isfinite(learning_rate) || !(init_scale >= 0.0) || !std::isfinite(init_scale))
    return Status::invalid_argument("log-linear: learning_rate and init_scale must be finite and >= 0");
  return Status::ok();
}

Result<LogLinearAttention> LogLinearAttention::make(const LogLinearConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return LogLinearAttention(config);
}

LogLinearAttention::LogLinearAttention(const LogLinearConfig& config) : cfg_(config) {
  assert(config.validate().is_ok());
  allocate();
  // Draw order: W_k, W_v, W_q, W_lambda, then the paper forms' W_g (empty
  // for the counter form, whose draws are unchanged by it).
  Xorshift64 rng(cfg_.seed);
  for (auto* w : {&wk_, &wv_, &wq_, &wl_, &wg_})
    for (double& e : *w) e = rng.normal() * cfg_.init_scale;
}

void LogLinearAttention::allocate() {
  const std::size_t dm = cfg_.d_model, dk = cfg_.d_key, dv = cfg_.d_value, L = cfg_.max_levels;
  wk_.assign(dk * dm, 0.0);
  wv_.assign(dv * dm, 0.0);
  wq_.assign(dk * dm, 0.0);
  wl_.assign(L * dm, 0.0);
  levels_.assign(L * dk * dv, 0.0);
  peek_levels_.assign(levels_.size(), 0.0);
  for (auto* v : {&k_, &kh_, &q_, &dq_, &dk_}) v->assign(dk, 0.0);
  for (auto* v : {&v_, &dv_, &tmp_}) v->assign(dv, 0.0);
  for (auto* v : {&r_, &lam_, &dl_, &dr_}) v->assign(L, 0.0);
  const std::size_t ng = cfg_.gate_rows();
  wg_.assign(ng * dm, 0.0);
  dg_.assign(ng, 0.0);
  // P and its products: only the paper forms' gradient uses them.
  p_.assign(ng > 0 ? dk * dv : 0, 0.0);
  for (auto* v : {&pq_, &pk_, &u_}) v->assign(ng > 0 ? dv : 0, 0.0);
  pd_.assign(ng > 0 ? dk : 0, 0.0);
  mask_ = size_ = train_steps_ = 0;
}

double LogLinearAttention::project(const double* x) const noexcept {
  const std::size_t dm = cfg_.d_model, dk = cfg_.d_key, dv = cfg_.d_value, L = cfg_.max_levels;
  matvec(wk_.data(), x, k_.data(), dk, dm);
  matvec(wv_.data(), x, v_.data(), dv, dm);
  matvec(wq_.data(), x, q_.data(), dk, dm);
  matvec(wl_.data(), x, r_.data(), L, dm);
  const double bias = cfg_.lambda_bias();
  for (double& e : r_) e += bias;
  sum_softplus_ = softplus_softmax_mix(r_, cfg_.tau, lam_);
  knorm_ = 0.0;
  if (cfg_.form != LogLinearForm::kCounter) paper_gates(x);
  if (normalises_key()) {
    knorm_ = l2_norm(k_);
    if (knorm_ > kKeyFloor && std::isfinite(knorm_)) {
      for (std::size_t i = 0; i < dk; ++i) kh_[i] = k_[i] / knorm_;
    } else {
      knorm_ = 0.0;
      std::fill(kh_.begin(), kh_.end(), 0.0);
    }
  } else {
    std::copy(k_.begin(), k_.end(), kh_.begin());
  }
  return knorm_;
}

void LogLinearAttention::push_and_read(double* levels, std::uint64_t& mask, std::span<double> out) const noexcept {
  if (cfg_.form != LogLinearForm::kCounter) return paper_step(levels, mask, out, false);
  const std::uint32_t land = fenwick_landing_level(mask, cfg_.max_levels);
  fenwick_push(levels, land, cfg_.d_key, cfg_.d_value, kh_.data(), v_.data());
  mask = fenwick_next_mask(mask, land);
  fenwick_read(levels, mask, cfg_.max_levels, cfg_.d_key, cfg_.d_value, lam_.data(), q_.data(), out.data());
  tanh_inplace(out.first(cfg_.d_value));
}

bool LogLinearAttention::forward(std::span<const double> x, std::span<double> out) noexcept {
  if (x.size() < cfg_.d_model || out.size() < cfg_.d_value) return false;
  if (!finite_values(x.first(cfg_.d_model))) {
    std::fill_n(out.begin(), cfg_.d_value, 0.0);
    return false;
  }
  project(x.data());
  push_and_read(levels_.data(), mask_, out);
  if (size_ != UINT64_MAX) ++size_;
  return true;
}

void LogLinearAttention::peek(std::span<const double> x, std::span<double> out) const noexcept {
  if (x.size() < cfg_.d_model || out.size() < cfg_.d_value) return;
  if (!finite_values(x.first(cfg_.d_model))) {
    std::fill_n(out.begin(), cfg_.d_value, 0.0);
    return;
  }
  project(x.data());
  std::copy(levels_.begin(), levels_.end(), peek_levels_.begin());
  std::uint64_t mask = mask_;
  push_and_read(peek_levels_.data(), mask, out);
}

void LogLinearAttention::query_readonly(std::span<const double> x, std::span<double> out) const noexcept {
  if (x.size() < cfg_.d_model || out.size() < cfg_.d_value) return;
  if (!finite_values(x.first(cfg_.d_model))) {
    std::fill_n(out.begin(), cfg_.d_value, 0.0);
    return;
  }
  project(x.data());
  fenwick_read(levels_.data(), mask_, cfg_.max_levels, cfg_.d_key, cfg_.d_value, lam_.data(), q_.data(), out.data());
  tanh_inplace(out.first(cfg_.d_value));
}

void LogLinearAttention::lambda(std::span<const double> x, std::span<double> out) const noexcept {
  if (x.size() < cfg_.d_model || out.size() < cfg_.max_levels || !finite_values(x.first(cfg_.d_model))) return;
  project(x.data());
  std::copy(lam_.begin(), lam_.end(), out.begin());
}

bool LogLinearAttention::train_one(std::span<const double> x, std::span<const double> y,
                                   std::span<double> out) noexcept {
  if (!forward_and_gradient(x, y, out)) return false;
  const double lr = cfg_.learning_rate;
  if (lr == 0.0) return true;
  const std::size_t dm = cfg_.d_model;
  sgd_outer(wq_, dq_, x.data(), dm, lr);
  sgd_outer(wk_, dk_, x.data(), dm, lr);
  sgd_outer(wv_, dv_, x.data(), dm, lr);
  sgd_outer(wl_, dr_, x.data(), dm, lr);
  sgd_outer(wg_, dg_, x.data(), dm, lr);
  return true;
}

bool LogLinearAttention::forward_and_gradient(std::span<const double> x, std::span<const double> y,
                                              std::span<double> out) noexcept {
  const std::size_t dk = cfg_.d_key, dv = cfg_.d_value, L = cfg_.max_levels;
  if (y.size() < dv || !finite_values(y.first(dv)) || out.size() < dv) return false;
  if (cfg_.form != LogLinearForm::kCounter) {
    // The same step as forward(), keeping P for the gradient.
    if (x.size() < cfg_.d_model || !finite_values(x.first(cfg_.d_model))) return forward(x, out);
    project(x.data());
    paper_step(levels_.data(), mask_, out, true);
    if (size_ != UINT64_MAX) ++size_;
    ++train_steps_;
    for (std::size_t c = 0; c < dv; ++c) tmp_[c] = (out[c] - y[c]) * (1.0 - out[c] * out[c]);
    paper_gradient(out, tmp_.data());
    return true;
  }
  const std::uint32_t land = fenwick_landing_level(mask_, cfg_.max_levels);
  if (!forward(x, out)) return false;
  ++train_steps_;
  // delta through tanh.
  for (std::size_t c = 0; c < dv; ++c) tmp_[c] = (out[c] - y[c]) * (1.0 - out[c] * out[c]);
  const double* delta = tmp_.data();
  // dlambda_l = delta . (S_l^T q) = q^T S_l delta; dq = sum_l lambda_l S_l delta.
  std::fill(dq_.begin(), dq_.end(), 0.0);
  const std::size_t block = dk * dv;
  for (std::uint32_t l = 0; l < L; ++l) {
    dl_[l] = 0.0;
    if (!((mask_ >> l) & 1u)) continue;
    const double* s = levels_.data() + l * block;
    double acc = 0.0;
    for (std::size_t i = 0; i < dk; ++i) {
      const double sd = dot(s + i * dv, delta, dv);  // (S_l delta)_i
      acc += q_[i] * sd;
      dq_[i] += lam_[l] * sd;
    }
    dl_[l] = acc;
  }
  // Through the softplus-softmax mix.
  double mean = 0.0;
  for (std::uint32_t l = 0; l < L; ++l) mean += lam_[l] * dl_[l];
  const double scale = 1.0 / (cfg_.tau * sum_softplus_);
  for (std::uint32_t l = 0; l < L; ++l) dr_[l] = sigmoid(r_[l] / cfg_.tau) * scale * (dl_[l] - mean);
  if (!(sum_softplus_ > 0.0) || !std::isfinite(sum_softplus_)) std::fill(dr_.begin(), dr_.end(), 0.0);
  // Local credit on the fresh leaf kh v^T in the landing level.
  const double lam_star = lam_[land];
  const double kq = dot(kh_.data(), q_.data(), dk);
  const double vd = dot(v_.data(), delta, dv);
  for (std::size_t c = 0; c < dv; ++c) dv_[c] = lam_star * kq * delta[c];
  for (std::size_t i = 0; i < dk; ++i) dk_[i] = lam_star * vd * q_[i];
  if (normalises_key()) {
    if (knorm_ > 0.0) {
      const double proj = dot(kh_.data(), dk_.data(), dk);
      for (std::size_t i = 0; i < dk; ++i) dk_[i] = (dk_[i] - kh_[i] * proj) / knorm_;
    } else {
      std::fill(dk_.begin(), dk_.end(), 0.0);
    }
  }
  return true;
}

void LogLinearAttention::dense_gradient(std::span<const double> x, std::span<double> grad) const noexcept {
  const std::size_t dm = cfg_.d_model;
  double* g = grad.data();
  for (const std::vector<double>* factor : {&dq_, &dk_, &dv_, &dr_, &dg_}) {
    for (const double f : *factor) {
      for (std::size_t j = 0; j < dm; ++j) g[j] = f * x[j];
      g += dm;
    }
  }
}

void LogLinearAttention::copy_params(std::span<double> params) const noexcept {
  auto it = params.begin();
  for (const std::vector<double>* w : {&wq_, &wk_, &wv_, &wl_, &wg_}) it = std::copy(w->begin(), w->end(), it);
}

void LogLinearAttention::set_params(std::span<const double> params) noexcept {
  const double* p = params.data();
  for (std::vector<double>* w : {&wq_, &wk_, &wv_, &wl_, &wg_}) {
    std::copy_n(p, w->size(), w->begin());
    p += w->size();
  }
}

void LogLinearAttention::reset() noexcept {
  std::fill(levels_.begin(), levels_.end(), 0.0);
  mask_ = size_ = 0;
}

std::size_t LogLinearAttention::memory_bytes() const noexcept {
  std::size_t n = 0;
  using List = std::initializer_list<const std::vector<double>*>;
  for (const std::vector<double>* v : List{&wk_, &wv_, &wq_, &wl_, &levels_, &k_, &kh_, &v_, &q_, &r_, &lam_,
                                           &peek_levels_, &dq_, &dk_, &dv_, &dl_, &dr_, &tmp_, &wg_,
                                           &p_, &pq_, &pk_, &pd_, &u_, &dg_})
    n += v->capacity();
  return sizeof(*this) + n * sizeof(double);
}

// Versions 1 (the counter form) and 2 (with the form byte and W_g) wrote the
// configuration first; version 3 writes the weights and state alone, every
// array (W_g empty in the counter form), and the owner passes the
// configuration it derives from its named settings to decode.
void LogLinearAttention::encode(ByteWriter& out) const {
  out.u32(3);
  for (const auto* w : {&wk_, &wv_, &wq_, &wl_, &levels_, &wg_}) out.f64s(*w);
  out.u64(mask_);
  out.u64(size_);
  out.u64(train_steps_);
}

Status LogLinearAttention::decode(ByteReader& in, const LogLinearConfig& settings) {
  const std::uint32_t version = in.u32("log-linear version");
  if (version < 1 || version > 3) in.fail("log-linear: unsupported version");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  LogLinearConfig c = settings;
  if (version <= 2) {  // the configuration it was built with, which it keeps
    c = LogLinearConfig{};
    if (version == 2) c.form = static_cast<LogLinearForm>(in.u8("form"));
    c.inner = static_cast<AttentionKind>(in.u8("inner"));
    c.d_model = in.u64();
    c.d_key = in.u64();
    c.d_value = in.u64();
    c.max_levels = in.u32();
    c.lambda_init = in.f64();
    c.tau = in.f64();
    c.learning_rate = in.f64();
    c.seed = in.u64();
    c.init_scale = in.f64();
    IRITHYLL_RETURN_IF_ERROR(in.status());
  }
  if (Status s = c.validate(); !s.is_ok()) return Status::corruption(s.message());
  // Arrays first (bounded by the bytes present), checked, then allocation.
  std::vector<double> arrays[6];
  for (int i = 0; i < (version >= 2 ? 6 : 5); ++i) arrays[i] = in.f64s("log-linear array");
  if (version == 1 && c.form != LogLinearForm::kCounter) return Status::corruption("log-linear: a version-1 paper form");
  const std::uint64_t mask = in.u64("mask");
  const std::uint64_t size = in.u64("size");
  const std::uint64_t steps = in.u64("train steps");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  const std::size_t dm = c.d_model, dk = c.d_key, dv = c.d_value, L = c.max_levels;
  const std::size_t want[6] = {dk * dm, dv * dm, dk * dm, L * dm, L * dk * dv, c.gate_rows() * dm};
  for (int i = 0; i < 6; ++i)
    if (arrays[i].size() != want[i]) return Status::corruption("log-linear: wrong array length");
  if ((mask >> c.max_levels) != 0) return Status::corruption("log-linear: mask above max_levels");
  for (const auto& a : arrays)
    if (!all_within(a)) return Status::corruption("log-linear: non-finite or out-of-range weights or levels");
  LogLinearAttention fresh;
  fresh.cfg_ = c;
  fresh.allocate();
  fresh.wk_ = std::move(arrays[0]);
  fresh.wv_ = std::move(arrays[1]);
  fresh.wq_ = std::move(arrays[2]);
  fresh.wl_ = std::move(arrays[3]);
  fresh.levels_ = std::move(arrays[4]);
  fresh.wg_ = std::move(arrays[5]);
  fresh.mask_ = mask;
  fresh.size_ = size;
  fresh.train_steps_ = steps;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
