#include "nn/attention/multi_head.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cassert>

#include "nn/attention/fenwick.hpp"
#include "nn/attention/level_kernels.hpp"
#include "irithyll/nn/attention/fenwick_levels.hpp"
#include "nn/attention/state_kernels.hpp"
#include "nn/kernels_hi32.hpp"
#include "nn/primitives.hpp"
#include "nn/vmath.hpp"

namespace irithyll::nn {

namespace {

// RWKV-7 decay exp(-s sigmoid(z)) with s = ln(1/0.6) lies in (0.6, 1).
const double kRwkv7DecayScale = -std::log(0.6);

// kh = k / |k|, or 0 when |k| is below the floor. Returns |k|.
double normalize_key(const double* k, double* kh, std::size_t n) noexcept {
  // The plain sum of squares is exact to rounding unless it under- or
  // overflows; only then pay for l2_norm's rescaling pass. Four partial sums:
  // one chain of n dependent adds was a visible share of the delta modes' step.
  double part[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (std::size_t j = 0; j < 4; ++j) part[j] += k[i + j] * k[i + j];
  for (; i < n; ++i) part[0] += k[i] * k[i];
  const double ss = (part[0] + part[1]) + (part[2] + part[3]);
  const double norm = ss > 1e-250 && ss < 1e250 ? std::sqrt(ss) : l2_norm(std::span<const double>(k, n));
  if (!(norm > kKeyNormFloor) || !std::isfinite(norm)) {
    std::fill(kh, kh + n, 0.0);
    return 0.0;
  }
  const double inv = 1.0 / norm;
  for (std::size_t c = 0; c < n; ++c) kh[c] = k[c] * inv;
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

// Version 3 stores each weight as its hi32 word (kernels_hi32.hpp). Older
// records are rounded onto that grid: version 2 stored f32 weights, version
// 1 f64; both widen to double exactly first.
void put_weights(ByteWriter& out, std::span<const double> w) {
  out.u64(w.size());
  for (double e : w) out.u32(hi32_word(e));
}

std::vector<double> get_weights(ByteReader& in, std::uint32_t version, const char* what) {
  if (version == 1) {
    std::vector<double> w = in.f64s(what);
    for (double& e : w) e = to_hi32(e);
    return w;
  }
  const std::size_t n = in.read_count(4, what);
  std::vector<double> w(n);
  for (double& e : w) e = version == 2 ? to_hi32(static_cast<double>(in.f32(what))) : from_hi32_word(in.u32(what));
  return w;
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
    // [dt row, lambda rows] and [gate row, beta row, lambda rows].
    case AttentionKind::kLogLinearMamba2: extra = 1 + c.mode.max_levels; break;
    case AttentionKind::kLogLinearGatedDeltaNet: extra = 2 + c.mode.max_levels; break;
  }
  l.rows = l.extra + extra;
  return l;
}

Result<MultiHeadAttention> MultiHeadAttention::make(const AttentionConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return MultiHeadAttention(config);
}

MultiHeadAttention::MultiHeadAttention(const AttentionConfig& config) : config_(config) {
  assert(config.validate().is_ok());
  allocate();
  draw_weights();
}

void MultiHeadAttention::allocate() {
  layout_ = head_layout(config_);
  const std::size_t dk = config_.d_key, dv = config_.d_value, h = config_.n_heads;
  switch (config_.mode.kind) {
    case AttentionKind::kHawk: head_state_ = dv; break;
    default: head_state_ = has_levels(config_.mode.kind) ? config_.mode.max_levels * dk * dv : dk * dv; break;
  }
  w_proj_.assign(h * layout_.rows * config_.d_model, 0.0);
  w_out_.assign(config_.d_model * h * dv, 0.0);
  // The projection rows the step reads, as runs packed one after another.
  // Hawk never reads its k and q rows: only its v and gate rows are packed.
  runs_.clear();
  if (config_.mode.kind == AttentionKind::kHawk) {
    for (std::size_t k = 0; k < h; ++k) {
      runs_.push_back({k * layout_.rows + dk, dv, 0});
      runs_.push_back({k * layout_.rows + layout_.extra, 2 * dv, 0});
    }
  } else {
    runs_.push_back({0, h * layout_.rows, 0});
  }
  std::size_t words = 0;
  for (ProjectionRun& r : runs_) {
    r.offset = words;
    words += hi32_packed_words(r.rows, config_.d_model);  // a multiple of 16: runs stay 64-byte aligned
  }
  w_proj_packed_.assign(words, 0u);
  w_out_packed_.assign(hi32_packed_words(config_.d_model, h * dv), 0u);
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
    default: n_gates = h * scalar_gates_per_head(); break;
  }
  gates_.assign(n_gates, 0.0);
  mask_ = 0;
  tokens_ = 0;
}

// Drawn in f64 and rounded once onto the hi32 grid: from then on every
// weight is a grid value and all arithmetic on it is f64 (kernels_hi32.hpp).
void MultiHeadAttention::draw_weights() {
  Xorshift64 rng(config_.seed);
  for (double& w : w_proj_) w = to_hi32(rng.normal() * config_.init_scale);
  for (double& w : w_out_) w = to_hi32(rng.normal() * config_.init_scale);
  repack();
}

void MultiHeadAttention::repack() noexcept {
  const std::size_t d = config_.d_model;
  for (const ProjectionRun& r : runs_) pack_hi32(w_proj_.data() + r.row0 * d, r.rows, d, w_proj_packed_.data() + r.offset);
  pack_hi32(w_out_.data(), d, config_.n_heads * config_.d_value, w_out_packed_.data());
}

bool MultiHeadAttention::set_head_weights(std::size_t h, std::span<const double> w) noexcept {
  const std::size_t n = layout_.rows * config_.d_model;
  if (h >= config_.n_heads || w.size() != n) return false;
  std::transform(w.begin(), w.end(), w_proj_.begin() + static_cast<std::ptrdiff_t>(h * n), to_hi32);
  repack();
  return true;
}

bool MultiHeadAttention::set_output_weights(std::span<const double> w) noexcept {
  if (w.size() != w_out_.size()) return false;
  std::transform(w.begin(), w.end(), w_out_.begin(), to_hi32);
  repack();
  return true;
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
  // Sigmoids of this head's scalar gate rows (GLA, GatedDeltaNet, mLSTM,
  // DeltaProduct), mapped for all heads at once by prepare_gates().
  const double* sg = gates_.data() + h * scalar_gates_per_head();
  switch (m.kind) {
    case AttentionKind::kRetNet: attn::decay_write_read(s, &m.gamma, 0, k, v, q, o, dk, dv); return;
    case AttentionKind::kHawk: {
      const double* a = gates_.data() + h * 2 * dv;  // sigmoid gates, prepare_gates()
      const double* b = a + dv;
      for (std::size_t c = 0; c < dv; ++c) s[c] = a[c] * s[c] + b[c] * v[c];
      std::copy(s, s + dv, o);
      return;
    }
    case AttentionKind::kGLA: attn::decay_write_read(s, sg, 0, k, v, q, o, dk, dv); return;
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
      attn::delta_write_read(s, sg[0], kh, v, m.beta_per_token ? sg[1] : m.beta_scale, q, o, dk, dv, u);
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
      const double in = sg[1];
      for (std::size_t c = 0; c < dv; ++c) g[c] = in * v[c];
      attn::decay_write_read(s, sg, 0, k, g, q, o, dk, dv);
      return;
    }
    case AttentionKind::kDeltaProduct: {
      const double beta_max = m.reflections ? 2.0 : 1.0;
      for (std::uint32_t j = 0; j < m.n_compositions; ++j) {
        const double* kj = k;
        const double* vj = v;
        if (j > 0) {
          kj = p + layout_.comp_base + (j - 1) * layout_.comp_stride;
          vj = kj + dk;
        }
        normalize_key(kj, kh, dk);
        // The gate decays the state once, before the first composition; the
        // readout follows the last.
        const bool last = j + 1 == m.n_compositions;
        attn::delta_write_read(s, j == 0 ? sg[0] : 1.0, kh, vj, beta_max * sg[1 + j], last ? q : nullptr, o, dk, dv,
                               u);
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
      // The kernel's removal reads D^T r with D = diag(w) S. Upstream order
      // reads S^T kh = D^T (kh / w) instead: w lies in (0.6, 1), so dividing
      // is safe and the same fused kernel serves both orders.
      const double* removal_read = kh;
      if (m.rwkv7_upstream_order) {
        for (std::size_t i = 0; i < dk; ++i) g[i] = kh[i] / w[i];
        removal_read = g;
      }
      attn::rwkv7_write_read(s, w, removal_read, g3, g4, v, q, o, dk, dv, u);
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
      attn::levels_read(s, fenwick_next_mask(mask, land), levels, dk, dv, lambda_.data(), q, o);
      return;
    }
    case AttentionKind::kLogLinearMamba2:
    case AttentionKind::kLogLinearGatedDeltaNet: {
      // Mamba-2 (A = -1): dt = softplus(row), alpha = exp(-dt), write dt k v^T.
      // Gated DeltaNet: alpha = sigmoid(gate), beta = sigmoid(beta row), kh = k/|k|.
      const bool gdn = m.kind == AttentionKind::kLogLinearGatedDeltaNet;
      const std::size_t lam0 = gdn ? 2 : 1;
      level_weights(e + lam0, lambda_.data());
      double alpha, erase = 0.0, write;
      const double* key = k;
      if (gdn) {
        alpha = sigmoid(e[0]);
        erase = write = sigmoid(e[1]);
        normalize_key(k, kh, dk);
        key = kh;
      } else {
        write = softplus(e[0]);
        alpha = std::exp(-write);
      }
      // The merge, then one fused sweep: transition, write and read of every active level.
      const std::uint64_t next = loglinear_paper_merge(s, mask, m.max_levels, dk, dv);
      attn::paper_step(s, next, m.max_levels, dk, dv, alpha, erase, key, write, v, lambda_.data(), q, o, u);
      return;
    }
  }
}

void MultiHeadAttention::level_weights(const double* rows, double* lambda) const noexcept {
  const double bias = config_.mode.lambda_bias();
  for (std::uint32_t l = 0; l < config_.mode.max_levels; ++l) lambda[l] = rows[l] + bias;
  softplus_softmax_mix(std::span<const double>(lambda, config_.mode.max_levels), 1.0,
                       std::span<double>(lambda, config_.mode.max_levels));
}

void MultiHeadAttention::project(const double* x) const noexcept {
  for (const ProjectionRun& r : runs_)
    matvec_hi32_packed(w_proj_packed_.data() + r.offset, x, proj_.data() + r.row0, r.rows, config_.d_model);
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
    case AttentionKind::kGLA:
    case AttentionKind::kGatedDeltaNet:
    case AttentionKind::kMLSTM:
    case AttentionKind::kDeltaProduct: {
      // Per head: the gate row, then the beta / input-gate row, then (for
      // DeltaProduct) each later composition's beta row.
      const std::size_t ns = scalar_gates_per_head();
      for (std::size_t h = 0; h < nh; ++h) {
        const double* e = block(h);
        double* gh = g + h * ns;
        gh[0] = e[0];
        if (ns > 1) gh[1] = e[1];
        for (std::size_t j = 2; j < ns; ++j)  // composition j - 1 >= 1
          gh[j] = proj_[h * rows + layout_.comp_base + (j - 2) * layout_.comp_stride + dk + dv];
      }
      vsigmoid(g, g, nh * ns);
      return;
    }
    default: return;
  }
}

std::size_t MultiHeadAttention::scalar_gates_per_head() const noexcept {
  switch (config_.mode.kind) {
    case AttentionKind::kGLA: return 1;
    case AttentionKind::kGatedDeltaNet:
    case AttentionKind::kMLSTM: return 2;
    case AttentionKind::kDeltaProduct: return 1 + config_.mode.n_compositions;
    default: return 0;
  }
}

void MultiHeadAttention::step(double* state, std::uint64_t& mask) const noexcept {
  prepare_gates();
  const std::uint32_t land =
      has_levels(config_.mode.kind) ? fenwick_landing_level(mask, config_.mode.max_levels) : 0;
  for (std::size_t h = 0; h < config_.n_heads; ++h)
    head_step(h, proj_.data() + h * layout_.rows, state + h * head_state_, mask, land,
              heads_.data() + h * config_.d_value);
  if (config_.mode.kind == AttentionKind::kLogLinear) mask = fenwick_next_mask(mask, land);
  // The paper's forms: the merge lands as the counter's does, and level 0 then holds the token.
  if (is_loglinear_paper(config_.mode.kind)) mask = fenwick_next_mask(mask, land) | 1u;
}

void MultiHeadAttention::finish(std::span<double> out) const noexcept {
  matvec_hi32_packed(w_out_packed_.data(), heads_.data(), out.data(), config_.d_model, heads_.size());
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
    } else if (has_levels(config_.mode.kind)) {
      // The lambda rows follow the mode's gate rows (0 for the counter form).
      const std::size_t gate_rows = config_.mode.kind == AttentionKind::kLogLinearMamba2          ? 1
                                    : config_.mode.kind == AttentionKind::kLogLinearGatedDeltaNet ? 2
                                                                                                  : 0;
      level_weights(p + layout_.extra + gate_rows, lambda_.data());
      attn::levels_read(s, mask_, config_.mode.max_levels, dk, dv, lambda_.data(), p + dk + dv, o);
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

std::size_t MultiHeadAttention::memory_bytes() const noexcept {
  const std::size_t doubles = state_.capacity() + proj_.capacity() + heads_.capacity() + tmp_.capacity() +
                              lambda_.capacity() + peek_state_.capacity() + gates_.capacity() + w_proj_.capacity() +
                              w_out_.capacity();
  const std::size_t words = w_proj_packed_.capacity() + w_out_packed_.capacity();
  return sizeof(*this) + doubles * sizeof(double) + words * sizeof(std::uint32_t) +
         runs_.capacity() * sizeof(ProjectionRun);
}

// Layer format versions: 1 stored the weights as f64, 2 as f32, 3 as hi32
// words, each after the binary config; 4 leaves the config out (the owner
// builds it from its named settings and passes it to decode).
void MultiHeadAttention::encode(ByteWriter& out) const {
  out.u32(4);
  put_weights(out, w_proj_);
  put_weights(out, w_out_);
  out.f64s(state_);
  out.u64(mask_);
  out.u64(tokens_);
}

Status MultiHeadAttention::decode(ByteReader& in, const AttentionConfig& settings) {
  const std::uint32_t version = in.u32("attention version");
  if (version < 1 || version > 4) in.fail("attention: unsupported layer version");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  // Versions 1-3 carry the config they were built with, which they keep.
  AttentionConfig cfg = settings;
  if (version <= 3) IRITHYLL_RETURN_IF_ERROR(cfg.decode(in));
  IRITHYLL_RETURN_IF_ERROR(cfg.validate());
  // Arrays first: their lengths are bounded by the bytes actually present, so
  // a hostile configuration cannot make us allocate before it is checked.
  auto w_proj = get_weights(in, version, "projection weights");
  auto w_out = get_weights(in, version, "output weights");
  auto state = in.f64s("state");
  const std::uint64_t mask = in.u64("level mask");
  const std::uint64_t tokens = in.u64("tokens");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  const HeadLayout l = head_layout(cfg);
  std::size_t per_head = cfg.d_key * cfg.d_value;
  if (cfg.mode.kind == AttentionKind::kHawk) per_head = cfg.d_value;
  if (has_levels(cfg.mode.kind)) per_head *= cfg.mode.max_levels;
  // All factors are <= 4096 (validated), so these products cannot overflow.
  if (w_proj.size() != cfg.n_heads * l.rows * cfg.d_model || w_out.size() != cfg.d_model * cfg.n_heads * cfg.d_value ||
      state.size() != cfg.n_heads * per_head)
    return Status::corruption("attention: array lengths do not match the configuration");
  if (has_levels(cfg.mode.kind) && (mask >> cfg.mode.max_levels) != 0)
    return Status::corruption("attention: level mask has bits above max_levels");
  if (!all_within(w_proj) || !all_within(w_out) || !all_within(state))
    return Status::corruption("attention: non-finite or out-of-range weights or state");
  MultiHeadAttention fresh;
  fresh.config_ = cfg;
  fresh.allocate();
  fresh.w_proj_ = std::move(w_proj);
  fresh.w_out_ = std::move(w_out);
  fresh.repack();
  fresh.state_ = std::move(state);
  fresh.mask_ = mask;
  fresh.tokens_ = tokens;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
