#include "irithyll/nn/attention/multi_head.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "irithyll/nn/attention/fenwick.hpp"
#include "irithyll/nn/attention/state_kernels.hpp"
#include "irithyll/nn/kernels.hpp"
#include "irithyll/nn/primitives.hpp"
#include "irithyll/nn/vmath.hpp"

namespace irithyll::nn {

namespace {

// RWKV-7 decay exp(-s sigmoid(z)) with s = ln(1/0.6) lies in (0.6, 1).
const double kRwkv7DecayScale = -std::log(0.6);

// kh = k / |k|, or 0 when |k| is below the floor. Returns |k|.
double normalize_key(const double* k, double* kh, std::size_t n) noexcept {
  // The plain sum of squares is exact to rounding unless it under- or
  // overflows; only then pay for l2_norm's rescaling pass.
  double ss = 0.0;
  for (std::size_t i = 0; i < n; ++i) ss += k[i] * k[i];
  const double norm = ss > 1e-250 && ss < 1e250 ? std::sqrt(ss) : l2_norm(std::span<const double>(k, n));
  if (!(norm > kKeyNormFloor) || !std::isfinite(norm)) {
    std::fill(kh, kh + n, 0.0);
    return 0.0;
  }
  const double inv = 1.0 / norm;
  for (std::size_t i = 0; i < n; ++i) kh[i] = k[i] * inv;
  return norm;
}

// Branch-free so the compiler vectorises it: a double is non-finite exactly
// when its exponent bits are all ones.
bool all_finite(std::span<const double> x) noexcept {
  constexpr std::uint64_t kExp = 0x7ff0000000000000ULL;
  std::uint64_t bad = 0;
  for (double e : x) bad |= static_cast<std::uint64_t>((std::bit_cast<std::uint64_t>(e) & kExp) == kExp);
  return bad == 0;
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
  std::size_t n_gates = 0;
  switch (config_.mode.kind) {
    case AttentionKind::kHawk: n_gates = h * 2 * dv; break;
    case AttentionKind::kGLAVector:
    case AttentionKind::kHGRN2: n_gates = h * dk; break;
    case AttentionKind::kRWKV7: n_gates = h * 2 * dk; break;
    case AttentionKind::kRWKV: n_gates = h * (dk + 1); break;
    default: break;
  }
  gates_.assign(n_gates, 0.0);
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

void MultiHeadAttention::head_step(std::size_t h, const double* p, double* s, std::uint64_t mask,
                                   std::uint32_t land, double* o) const noexcept {
  const std::size_t dk = config_.d_key, dv = config_.d_value;
  const AttentionMode& m = config_.mode;
  const double* k = p;
  const double* v = p + dk;
  const double* q = p + dk + dv;
  const double* e = p + layout_.extra;
  // Scratch: six slots of max(dk, dv) (allocate()); g spans two slots so a
  // mode's two gate blocks (2 dk or 2 dv, adjacent rows) map in one call.
  const std::size_t slot = std::max(dk, dv);
  double* kh = tmp_.data();
  double* u = kh + slot;
  double* g = u + slot;
  double* g3 = g + 2 * slot;
  double* g4 = g3 + slot;
  switch (m.kind) {
    case AttentionKind::kRetNet: attn::decay_write_read(s, &m.gamma, 0, k, v, q, o, dk, dv); return;
    case AttentionKind::kHawk: {
      const double* a = gates_.data() + h * 2 * dv;  // sigmoid gates, prepare_gates()
      const double* b = a + dv;
      for (std::size_t c = 0; c < dv; ++c) s[c] = a[c] * s[c] + b[c] * v[c];
      std::copy(s, s + dv, o);
      return;
    }
    case AttentionKind::kGLA: {
      const double gate = sigmoid(e[0]);
      attn::decay_write_read(s, &gate, 0, k, v, q, o, dk, dv);
      return;
    }
    case AttentionKind::kGLAVector:
    case AttentionKind::kHGRN2:  // gates (with HGRN2's floor) from prepare_gates()
      attn::decay_write_read(s, gates_.data() + h * dk, 1, k, v, q, o, dk, dv);
      return;
    case AttentionKind::kDeltaNet:
      normalize_key(k, kh, dk);
      attn::delta_write_read(s, 1.0, kh, v, 1.0, q, o, dk, dv, u);
      return;
    case AttentionKind::kGatedDeltaNet:
      normalize_key(k, kh, dk);
      attn::delta_write_read(s, sigmoid(e[0]), kh, v, m.beta_per_token ? sigmoid(e[1]) : m.beta_scale, q, o, dk, dv,
                             u);
      return;
    case AttentionKind::kRWKV: {
      // decay = exp(-(d0 + softplus(w . x))) and exp(min(k, 20)) for every
      // head were mapped in one batch by prepare_rwkv().
      const double* decay = gates_.data() + h;
      const double* ek = gates_.data() + config_.n_heads + h * dk;
      attn::decay_write_read(s, decay, 0, ek, v, q, o, dk, dv);
      return;
    }
    case AttentionKind::kMLSTM: {
      const double f = sigmoid(e[0]), in = sigmoid(e[1]);
      for (std::size_t c = 0; c < dv; ++c) g[c] = in * v[c];
      attn::decay_write_read(s, &f, 0, k, g, q, o, dk, dv);
      return;
    }
    case AttentionKind::kDeltaProduct: {
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
        // The gate decays the state once, before the first composition; the
        // readout follows the last.
        const bool last = j + 1 == m.n_compositions;
        attn::delta_write_read(s, j == 0 ? sigmoid(e[0]) : 1.0, kh, vj, beta_max * sigmoid(braw), last ? q : nullptr,
                               o, dk, dv, u);
      }
      return;
    }
    case AttentionKind::kRWKV7: {
      // w = decay, g2 = in-context learning rate a (prepare_gates()),
      // g3 = k~, g4 = a (.) kh.
      const double* w = gates_.data() + h * dk;
      const double* g2 = w + config_.n_heads * dk;
      normalize_key(k, kh, dk);
      for (std::size_t i = 0; i < dk; ++i) {
        g3[i] = k[i] * (1.0 + m.rwkv7_removal * (g2[i] - 1.0));
        g4[i] = g2[i] * kh[i];
      }
      attn::rwkv7_write_read(s, w, kh, g3, g4, v, q, o, dk, dv, u);
      return;
    }
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
}

void MultiHeadAttention::project(const double* x) const noexcept {
  const std::size_t d = config_.d_model;
  if (config_.mode.kind != AttentionKind::kHawk) {
    matvec(w_proj_.data(), x, proj_.data(), proj_.size(), d);
    return;
  }
  // Hawk reads only v and its two gate blocks; its k and q rows (kept so
  // every mode shares one layout) are never used, so they are not computed.
  const std::size_t dk = config_.d_key, dv = config_.d_value, rows = layout_.rows;
  for (std::size_t h = 0; h < config_.n_heads; ++h) {
    const std::size_t base = h * rows;
    matvec(w_proj_.data() + (base + dk) * d, x, proj_.data() + base + dk, dv, d);
    matvec(w_proj_.data() + (base + layout_.extra) * d, x, proj_.data() + base + layout_.extra, 2 * dv, d);
  }
}

// RWKV's transcendental maps for all heads at once (n_heads decays, then
// n_heads * d_key key exponentials): a few long vector calls instead of
// scalar libm calls per head.
void MultiHeadAttention::prepare_rwkv() const noexcept {
  const std::size_t nh = config_.n_heads, dk = config_.d_key, rows = layout_.rows;
  double* decay = gates_.data();
  double* ek = decay + nh;
  for (std::size_t h = 0; h < nh; ++h) {
    const double* p = proj_.data() + h * rows;
    decay[h] = p[layout_.extra];
    for (std::size_t i = 0; i < dk; ++i) ek[h * dk + i] = std::min(p[i], kRwkvMaxExponent);
  }
  vsoftplus(decay, decay, nh);
  for (std::size_t h = 0; h < nh; ++h) decay[h] = -(config_.mode.initial_decay + decay[h]);
  vexp(decay, decay, nh);
  vexp(ek, ek, nh * dk);
}

// The per-dimension gates of every head mapped in one call: gates_ holds
// Hawk's [a | b] per head, GLAVector's / HGRN2's d_key gates per head, or for
// RWKV-7 all heads' decays w then all heads' learning rates a.
void MultiHeadAttention::prepare_gates() const noexcept {
  const AttentionMode& m = config_.mode;
  const std::size_t nh = config_.n_heads, dk = config_.d_key, dv = config_.d_value, rows = layout_.rows;
  auto block = [&](std::size_t h) { return proj_.data() + h * rows + layout_.extra; };
  double* g = gates_.data();
  switch (m.kind) {
    case AttentionKind::kHawk:
      for (std::size_t h = 0; h < nh; ++h) std::copy_n(block(h), 2 * dv, g + h * 2 * dv);
      vsigmoid(g, g, nh * 2 * dv);
      return;
    case AttentionKind::kGLAVector:
    case AttentionKind::kHGRN2:
      for (std::size_t h = 0; h < nh; ++h) std::copy_n(block(h), dk, g + h * dk);
      vsigmoid(g, g, nh * dk);
      if (m.kind == AttentionKind::kHGRN2)
        for (std::size_t i = 0; i < nh * dk; ++i) g[i] = m.lower_bound + (1.0 - m.lower_bound) * g[i];
      return;
    case AttentionKind::kRWKV7:
      for (std::size_t h = 0; h < nh; ++h) {
        std::copy_n(block(h), dk, g + h * dk);
        std::copy_n(block(h) + dk, dk, g + (nh + h) * dk);
      }
      vsigmoid(g, g, 2 * nh * dk);
      for (std::size_t i = 0; i < nh * dk; ++i) g[i] *= -kRwkv7DecayScale;
      vexp(g, g, nh * dk);
      return;
    case AttentionKind::kRWKV: prepare_rwkv(); return;
    default: return;
  }
}

void MultiHeadAttention::step(double* state, std::uint64_t& mask) const noexcept {
  prepare_gates();
  const std::uint32_t land =
      config_.mode.kind == AttentionKind::kLogLinear ? fenwick_landing_level(mask, config_.mode.max_levels) : 0;
  for (std::size_t h = 0; h < config_.n_heads; ++h)
    head_step(h, proj_.data() + h * layout_.rows, state + h * head_state_, mask, land,
              heads_.data() + h * config_.d_value);
  if (config_.mode.kind == AttentionKind::kLogLinear) mask = fenwick_next_mask(mask, land);
}

void MultiHeadAttention::finish(std::span<double> out) const noexcept {
  matvec(w_out_.data(), heads_.data(), out.data(), config_.d_model, heads_.size());
  if (is_bounded(config_.mode.kind)) vtanh(out.data(), out.data(), config_.d_model);
}

bool MultiHeadAttention::forward(std::span<const double> x, std::span<double> out) noexcept {
  if (x.size() < config_.d_model || out.size() < config_.d_model) return false;
  if (!all_finite(x.first(config_.d_model))) {
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(config_.d_model), 0.0);
    return false;
  }
  project(x.data());
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
  project(x.data());
  step(peek_state_.data(), mask);
  finish(out);
}

void MultiHeadAttention::query_state(std::span<const double> x, std::span<double> out) const noexcept {
  if (x.size() < config_.d_model || out.size() < config_.d_model) return;
  if (!all_finite(x.first(config_.d_model))) {
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(config_.d_model), 0.0);
    return;
  }
  project(x.data());
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
      attn::read(s, p + dk + dv, o, dk, dv);
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
                              heads_.capacity() + tmp_.capacity() + lambda_.capacity() + peek_state_.capacity() +
                              gates_.capacity();
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
