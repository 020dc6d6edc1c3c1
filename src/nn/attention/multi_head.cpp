#include "irithyll/nn/attention/multi_head.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "irithyll/nn/attention/fenwick.hpp"
#include "irithyll/nn/kernels.hpp"
#include "irithyll/nn/primitives.hpp"

namespace irithyll::nn {

namespace {

// The per-head state loops (d_key x d_value, typically 16 x 16) are plain C++
// compiled twice, for AVX2 and for the baseline, with the CPU choosing at load
// time (GCC/Clang target_clones, an ifunc). Same source and no FP contraction
// (-std=c++20 implies -ffp-contract=off), so both clones give identical bits;
// the NumPy reference test checks the semantics.
#if defined(__x86_64__) && !defined(__clang_analyzer__)
#define IRITHYLL_STATE_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define IRITHYLL_STATE_KERNEL
#endif

// RWKV-7 decay exp(-s sigmoid(z)) with s = ln(1/0.6) lies in (0.6, 1).
const double kRwkv7DecayScale = -std::log(0.6);

// kh = k / |k|, or 0 when |k| is below the floor. Returns |k|.
double normalize_key(const double* k, double* kh, std::size_t n) noexcept {
  const double norm = l2_norm(std::span<const double>(k, n));
  if (!(norm > kKeyNormFloor) || !std::isfinite(norm)) {
    std::fill(kh, kh + n, 0.0);
    return 0.0;
  }
  const double inv = 1.0 / norm;
  for (std::size_t i = 0; i < n; ++i) kh[i] = k[i] * inv;
  return norm;
}

// u = S^T kh (dv), then S += kh (beta (v - u))^T: the delta rule.
IRITHYLL_STATE_KERNEL
void delta_write(double* s, const double* kh, const double* v, double beta, std::size_t dk, std::size_t dv,
                 double* u) noexcept {
  std::fill(u, u + dv, 0.0);
  for (std::size_t i = 0; i < dk; ++i) {
    const double* row = s + i * dv;
    for (std::size_t c = 0; c < dv; ++c) u[c] += kh[i] * row[c];
  }
  for (std::size_t c = 0; c < dv; ++c) u[c] = beta * (v[c] - u[c]);
  for (std::size_t i = 0; i < dk; ++i) {
    double* row = s + i * dv;
    for (std::size_t c = 0; c < dv; ++c) row[c] += kh[i] * u[c];
  }
}

// S[i,:] <- a_i S[i,:] + k_i v  (a per row, or a scalar when a_stride == 0).
IRITHYLL_STATE_KERNEL
void decay_write(double* s, const double* a, std::size_t a_stride, const double* k, const double* v, std::size_t dk,
                 std::size_t dv) noexcept {
  for (std::size_t i = 0; i < dk; ++i) {
    double* row = s + i * dv;
    const double ai = a[i * a_stride], ki = k[i];
    for (std::size_t c = 0; c < dv; ++c) row[c] = ai * row[c] + ki * v[c];
  }
}

IRITHYLL_STATE_KERNEL
void scale(double* s, double g, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) s[i] *= g;
}

// o = S^T q
IRITHYLL_STATE_KERNEL
void read(const double* s, const double* q, std::size_t dk, std::size_t dv, double* o) noexcept {
  std::fill(o, o + dv, 0.0);
  for (std::size_t i = 0; i < dk; ++i) {
    const double* row = s + i * dv;
    for (std::size_t c = 0; c < dv; ++c) o[c] += q[i] * row[c];
  }
}

bool all_finite(std::span<const double> x) noexcept {
  for (double e : x)
    if (!std::isfinite(e)) return false;
  return true;
}

}  // namespace

HeadLayout head_layout(const AttentionConfig& c) noexcept {
  const std::size_t dk = c.d_key, dv = c.d_value;
  HeadLayout l;
  l.extra = 2 * dk + dv;
  std::size_t extra = 0;
  switch (c.mode.kind) {
    case AttentionKind::kRetNet:
    case AttentionKind::kDeltaNet: extra = 0; break;
    case AttentionKind::kHawk: extra = 2 * dv; break;
    case AttentionKind::kGLA:
    case AttentionKind::kRWKV: extra = 1; break;
    case AttentionKind::kGatedDeltaNet:
    case AttentionKind::kMLSTM: extra = 2; break;
    case AttentionKind::kGLAVector:
    case AttentionKind::kHGRN2: extra = dk; break;
    case AttentionKind::kRWKV7: extra = 2 * dk; break;
    case AttentionKind::kDeltaProduct:
      l.comp_base = l.extra + 2;
      l.comp_stride = dk + dv + 1;
      extra = 2 + (c.mode.n_compositions - 1) * l.comp_stride;
      break;
    case AttentionKind::kLogLinear: extra = c.mode.max_levels; break;
  }
  l.rows = l.extra + extra;
  return l;
}

MultiHeadAttention::MultiHeadAttention(const AttentionConfig& config) : config_(config) {
  if (const Status s = config.validate(); !s.is_ok()) throw std::invalid_argument(s.message());
  allocate();
  draw_weights();
}

void MultiHeadAttention::allocate() {
  layout_ = head_layout(config_);
  const std::size_t dk = config_.d_key, dv = config_.d_value, h = config_.n_heads;
  switch (config_.mode.kind) {
    case AttentionKind::kHawk: head_state_ = dv; break;
    case AttentionKind::kLogLinear: head_state_ = config_.mode.max_levels * dk * dv; break;
    default: head_state_ = dk * dv; break;
  }
  w_proj_.assign(h * layout_.rows * config_.d_model, 0.0);
  w_out_.assign(config_.d_model * h * dv, 0.0);
  state_.assign(h * head_state_, 0.0);
  peek_state_.assign(state_.size(), 0.0);
  proj_.assign(h * layout_.rows, 0.0);
  heads_.assign(h * dv, 0.0);
  tmp_.assign(6 * std::max(dk, dv), 0.0);
  lambda_.assign(config_.mode.max_levels, 0.0);
  mask_ = 0;
  tokens_ = 0;
}

void MultiHeadAttention::draw_weights() {
  Xorshift64 rng(config_.seed);
  for (double& w : w_proj_) w = rng.normal() * config_.init_scale;
  for (double& w : w_out_) w = rng.normal() * config_.init_scale;
}

std::span<double> MultiHeadAttention::head_weights(std::size_t h) noexcept {
  const std::size_t n = layout_.rows * config_.d_model;
  return std::span<double>(w_proj_).subspan(h * n, n);
}
std::span<const double> MultiHeadAttention::head_weights(std::size_t h) const noexcept {
  const std::size_t n = layout_.rows * config_.d_model;
  return std::span<const double>(w_proj_).subspan(h * n, n);
}

void MultiHeadAttention::head_step(std::size_t /*h*/, const double* p, double* s, std::uint64_t mask,
                                   std::uint32_t land, double* o) const noexcept {
  const std::size_t dk = config_.d_key, dv = config_.d_value;
  const AttentionMode& m = config_.mode;
  const double* k = p;
  const double* v = p + dk;
  const double* q = p + dk + dv;
  const double* e = p + layout_.extra;
  double* kh = tmp_.data();
  double* u = kh + std::max(dk, dv);
  double* g = u + std::max(dk, dv);
  double* g2 = g + std::max(dk, dv);
  switch (m.kind) {
    case AttentionKind::kRetNet: decay_write(s, &m.gamma, 0, k, v, dk, dv); break;
    case AttentionKind::kHawk:
      for (std::size_t c = 0; c < dv; ++c) s[c] = sigmoid(e[c]) * s[c] + sigmoid(e[dv + c]) * v[c];
      std::copy(s, s + dv, o);
      return;
    case AttentionKind::kGLA: {
      const double gate = sigmoid(e[0]);
      decay_write(s, &gate, 0, k, v, dk, dv);
      break;
    }
    case AttentionKind::kGLAVector:
      for (std::size_t i = 0; i < dk; ++i) g[i] = sigmoid(e[i]);
      decay_write(s, g, 1, k, v, dk, dv);
      break;
    case AttentionKind::kDeltaNet:
      normalize_key(k, kh, dk);
      delta_write(s, kh, v, 1.0, dk, dv, u);
      break;
    case AttentionKind::kGatedDeltaNet: {
      scale(s, sigmoid(e[0]), dk * dv);
      normalize_key(k, kh, dk);
      delta_write(s, kh, v, m.beta_per_token ? sigmoid(e[1]) : m.beta_scale, dk, dv, u);
      break;
    }
    case AttentionKind::kRWKV: {
      const double decay = std::exp(-(m.initial_decay + softplus(e[0])));
      for (std::size_t i = 0; i < dk; ++i) g[i] = std::exp(std::min(k[i], kRwkvMaxExponent));
      decay_write(s, &decay, 0, g, v, dk, dv);
      break;
    }
    case AttentionKind::kMLSTM: {
      const double f = sigmoid(e[0]), in = sigmoid(e[1]);
      for (std::size_t c = 0; c < dv; ++c) g[c] = in * v[c];
      decay_write(s, &f, 0, k, g, dk, dv);
      break;
    }
    case AttentionKind::kDeltaProduct: {
      scale(s, sigmoid(e[0]), dk * dv);
      const double beta_max = m.reflections ? 2.0 : 1.0;
      for (std::uint32_t j = 0; j < m.n_compositions; ++j) {
        const double* kj = k;
        const double* vj = v;
        double braw = e[1];
        if (j > 0) {
          kj = p + layout_.comp_base + (j - 1) * layout_.comp_stride;
          vj = kj + dk;
          braw = vj[dv];
        }
        normalize_key(kj, kh, dk);
        delta_write(s, kh, vj, beta_max * sigmoid(braw), dk, dv, u);
      }
      break;
    }
    case AttentionKind::kRWKV7: {
      // g = decay w (dk), g2 = in-context learning rate a (dk).
      for (std::size_t i = 0; i < dk; ++i) {
        g[i] = std::exp(-kRwkv7DecayScale * sigmoid(e[i]));
        g2[i] = sigmoid(e[dk + i]);
      }
      for (std::size_t i = 0; i < dk; ++i) scale(s + i * dv, g[i], dv);
      normalize_key(k, kh, dk);
      read(s, kh, dk, dv, u);  // u = S^T kh after decay
      for (std::size_t i = 0; i < dk; ++i) {
        double* row = s + i * dv;
        const double r = g2[i] * kh[i];
        const double kt = k[i] * (1.0 + m.rwkv7_removal * (g2[i] - 1.0));
        for (std::size_t c = 0; c < dv; ++c) row[c] += kt * v[c] - r * u[c];
      }
      break;
    }
    case AttentionKind::kHGRN2:
      for (std::size_t i = 0; i < dk; ++i) g[i] = m.lower_bound + (1.0 - m.lower_bound) * sigmoid(e[i]);
      decay_write(s, g, 1, k, v, dk, dv);
      break;
    case AttentionKind::kLogLinear: {
      const double bias = m.lambda_bias();
      const std::uint32_t levels = m.max_levels;
      for (std::uint32_t l = 0; l < levels; ++l) lambda_[l] = e[l] + bias;
      softplus_softmax_mix(lambda_, 1.0, lambda_);
      const double* leaf = k;
      if (is_delta_family(m.inner)) {
        normalize_key(k, kh, dk);
        leaf = kh;
      }
      fenwick_push(s, land, dk, dv, leaf, v);
      fenwick_read(s, fenwick_next_mask(mask, land), levels, dk, dv, lambda_.data(), q, o);
      return;
    }
  }
  read(s, q, dk, dv, o);
}

void MultiHeadAttention::step(double* state, std::uint64_t& mask) const noexcept {
  const std::uint32_t land =
      config_.mode.kind == AttentionKind::kLogLinear ? fenwick_landing_level(mask, config_.mode.max_levels) : 0;
  for (std::size_t h = 0; h < config_.n_heads; ++h)
    head_step(h, proj_.data() + h * layout_.rows, state + h * head_state_, mask, land,
              heads_.data() + h * config_.d_value);
  if (config_.mode.kind == AttentionKind::kLogLinear) mask = fenwick_next_mask(mask, land);
}

void MultiHeadAttention::finish(std::span<double> out) const noexcept {
  matvec(w_out_.data(), heads_.data(), out.data(), config_.d_model, heads_.size());
  if (is_bounded(config_.mode.kind)) tanh_inplace(out.first(config_.d_model));
}

bool MultiHeadAttention::forward(std::span<const double> x, std::span<double> out) noexcept {
  if (x.size() < config_.d_model || out.size() < config_.d_model) return false;
  if (!all_finite(x.first(config_.d_model))) {
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(config_.d_model), 0.0);
    return false;
  }
  matvec(w_proj_.data(), x.data(), proj_.data(), proj_.size(), config_.d_model);
  step(state_.data(), mask_);
  ++tokens_;
  finish(out);
  return true;
}

void MultiHeadAttention::peek(std::span<const double> x, std::span<double> out) const noexcept {
  if (x.size() < config_.d_model || out.size() < config_.d_model) return;
  if (!all_finite(x.first(config_.d_model))) {
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(config_.d_model), 0.0);
    return;
  }
  std::copy(state_.begin(), state_.end(), peek_state_.begin());
  std::uint64_t mask = mask_;
  matvec(w_proj_.data(), x.data(), proj_.data(), proj_.size(), config_.d_model);
  step(peek_state_.data(), mask);
  finish(out);
}

void MultiHeadAttention::query_state(std::span<const double> x, std::span<double> out) const noexcept {
  if (x.size() < config_.d_model || out.size() < config_.d_model) return;
  if (!all_finite(x.first(config_.d_model))) {
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(config_.d_model), 0.0);
    return;
  }
  matvec(w_proj_.data(), x.data(), proj_.data(), proj_.size(), config_.d_model);
  const std::size_t dk = config_.d_key, dv = config_.d_value;
  for (std::size_t h = 0; h < config_.n_heads; ++h) {
    const double* p = proj_.data() + h * layout_.rows;
    const double* s = state_.data() + h * head_state_;
    double* o = heads_.data() + h * dv;
    if (config_.mode.kind == AttentionKind::kHawk) {
      std::copy(s, s + dv, o);
    } else if (config_.mode.kind == AttentionKind::kLogLinear) {
      const double bias = config_.mode.lambda_bias();
      for (std::uint32_t l = 0; l < config_.mode.max_levels; ++l) lambda_[l] = p[layout_.extra + l] + bias;
      softplus_softmax_mix(lambda_, 1.0, lambda_);
      fenwick_read(s, mask_, config_.mode.max_levels, dk, dv, lambda_.data(), p + dk + dv, o);
    } else {
      read(s, p + dk + dv, dk, dv, o);
    }
  }
  finish(out);
}

void MultiHeadAttention::reset() noexcept {
  std::fill(state_.begin(), state_.end(), 0.0);
  mask_ = 0;
  tokens_ = 0;
}

void MultiHeadAttention::reinitialize_head(std::size_t h, Xorshift64& rng) noexcept {
  if (h >= config_.n_heads) return;
  for (double& w : head_weights(h)) w = rng.normal() * config_.init_scale;
  std::fill_n(state_.begin() + static_cast<std::ptrdiff_t>(h * head_state_), head_state_, 0.0);
}

std::size_t MultiHeadAttention::memory_bytes() const noexcept {
  const std::size_t doubles = w_proj_.capacity() + w_out_.capacity() + state_.capacity() + proj_.capacity() +
                              heads_.capacity() + tmp_.capacity() + lambda_.capacity() + peek_state_.capacity();
  return sizeof(*this) + doubles * sizeof(double);
}

void MultiHeadAttention::encode(ByteWriter& out) const {
  out.u32(1);  // layer format version
  config_.encode(out);
  out.f64s(w_proj_);
  out.f64s(w_out_);
  out.f64s(state_);
  out.u64(mask_);
  out.u64(tokens_);
}

Status MultiHeadAttention::decode(ByteReader& in) {
  if (in.u32("attention version") != 1) in.fail("attention: unsupported layer version");
  AttentionConfig cfg;
  IRITHYLL_RETURN_IF_ERROR(in.status());
  IRITHYLL_RETURN_IF_ERROR(cfg.decode(in));
  // Arrays first: their lengths are bounded by the bytes actually present, so
  // a hostile configuration cannot make us allocate before it is checked.
  auto w_proj = in.f64s("projection weights");
  auto w_out = in.f64s("output weights");
  auto state = in.f64s("state");
  const std::uint64_t mask = in.u64("level mask");
  const std::uint64_t tokens = in.u64("tokens");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  const HeadLayout l = head_layout(cfg);
  std::size_t per_head = cfg.d_key * cfg.d_value;
  if (cfg.mode.kind == AttentionKind::kHawk) per_head = cfg.d_value;
  if (cfg.mode.kind == AttentionKind::kLogLinear) per_head *= cfg.mode.max_levels;
  // All factors are <= 4096 (validated), so these products cannot overflow.
  if (w_proj.size() != cfg.n_heads * l.rows * cfg.d_model || w_out.size() != cfg.d_model * cfg.n_heads * cfg.d_value ||
      state.size() != cfg.n_heads * per_head)
    return Status::corruption("attention: array lengths do not match the configuration");
  if (cfg.mode.kind == AttentionKind::kLogLinear && (mask >> cfg.mode.max_levels) != 0)
    return Status::corruption("attention: level mask has bits above max_levels");
  MultiHeadAttention fresh;
  fresh.config_ = cfg;
  fresh.allocate();
  fresh.w_proj_ = std::move(w_proj);
  fresh.w_out_ = std::move(w_out);
  fresh.state_ = std::move(state);
  fresh.mask_ = mask;
  fresh.tokens_ = tokens;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
