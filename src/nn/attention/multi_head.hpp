// MultiHeadAttention: one streaming linear-attention layer with every mode of
// the unified recurrence S_t = decay_t (.) S_{t-1} + write_t, o_t = S_t^T q_t.
// Per head h: k = W_k x, v = W_v x, q = W_q x (plus mode gates); the head
// outputs are concatenated and projected by W_out (d_model x n_heads*d_value).
//
//   RetNet (Sun et al. 2023)          S <- gamma S + k v^T
//   Hawk (De et al. 2024, Griffin)    h <- a (.) h + b (.) v, a,b = sigmoid(W x); vector state, o = h
//   GLA (Yang et al. 2024)            S <- g S + k v^T, g = sigmoid(w . x)
//   GLAVector                         S[i,:] <- a_i S[i,:] + k_i v^T, a = sigmoid(W x)
//   DeltaNet (Schlag 2021; Yang 2024) S <- S + kh (v - S^T kh)^T, kh = k / |k|
//   GatedDeltaNet (Yang et al. 2025)  S <- g S; S += kh (beta (v - S^T kh))^T
//   RWKV (Peng et al. 2023)           S <- e^-w S + exp(k) v^T, e^-w = exp(-(d0 + softplus(w . x)))
//   mLSTM (Beck et al. 2024)          S <- f S + k (i v)^T
//   DeltaProduct (Siems et al. 2025)  S <- g S; then n delta steps with their own (kh_j, v_j, beta_j)
//   RWKV-7 (Peng et al. 2025)         D = diag(w) S; S <- D - (a (.) kh)(D^T kh)^T + k~ v^T
//                                     (decay first, the Rust library's order), or with
//                                     mode.rwkv7_upstream_order (the RWKV-7 paper's reference)
//                                     S <- D - (a (.) kh)(S^T kh)^T + k~ v^T; w in (0.6, 1), a = sigmoid(W_a x), kh = k/|k|,
//                                     k~ = k (.) (1 + alpha (a - 1)) with the constant alpha
//                                     = mode.rwkv7_removal (the Rust library's learned key scale xi
//                                     is fixed at 1: this layer has no gradient path)
//   HGRN2 (Qin et al. 2024)           S <- diag(lb + (1-lb) sigmoid(W x)) S + k v^T
//   LogLinear (Guo et al. 2026)       Fenwick stack of leaves kh v^T, o = sum_l lambda_l S_l^T q
//                                     (the Rust library's counter form: no decay, token merged into buckets)
//   LogLinearMamba2 (Guo et al. 2026) the paper's variant (fenwick_levels.hpp): dt = softplus(w . x),
//                                     every level S_l <- e^-dt S_l, the token's own level 0 += dt k v^T
//   LogLinearGatedDeltaNet (same)     every level S_l <- g (I - beta kh kh^T) S_l, level 0 += beta kh v^T,
//                                     g, beta = sigmoid(w . x); both read o = sum_l lambda_l S_l^T q
//
// Every mode reads after its update (o_t includes token t), LogLinear
// included: the leaf is pushed, then the level mix is read. The Rust library's
// multi-head path already did so, while its single-head layer read before the
// push; here both (this layer and LogLinearAttention) read after, which is
// also the output that LogLinearAttention::train_one optimises.
// Delta-family, HGRN2 and LogLinear outputs pass through tanh after W_out.
//
// RWKV's exp(k) write is computed as exp(min(k, 20)): the Rust library wrote
// exp(k) unclamped and reached 1e103 at input scale 1e3 and inf at 1e4; with
// the clamp every state entry stays finite for any finite input.
//
// Weights lie on the hi32 grid (doubles with 21 significant bits, streamed
// as 4-byte words) and every computation is f64: they are drawn in f64 and
// rounded onto the grid once (construction and the setters),
// and the matvecs widen each word exactly in registers (kernels_hi32.hpp).
// So the layer is the f64 layer whose weights happen to lie on that grid, and
// an f64 reference fed the same weight values matches it to rounding, while
// the weight bytes streamed per token halve. (The Rust library stored f64
// weights. Checkpoints of this layer from before, version 1 with f64 and
// version 2 with f32 weights, are rounded onto the grid on decode.) The
// layer is not trained by gradient, so 21 bits of a random projection lose
// nothing; LogLinearAttention, which is trained, keeps plain f64 weights.
//
// Cost per token: one fused projection matvec (n_heads * rows_per_head x
// d_model, from the packed copy of kernels_hi32.hpp), O(n_heads d_key d_value)
// recurrence work (x n_compositions for DeltaProduct, x active levels for
// the log-linear forms) in the fused sweeps of state_kernels.hpp and
// level_kernels.hpp, vectorised gate maps
// (vmath.hpp, scalar gates of all heads in one call) and the W_out matvec.
// The weights (~65-100 KB of hi32 words at d_model 64, 4 heads, 16/16) do not fit
// L1, so the step is bound by streaming them from L2 once per token
// (BENCHMARKS.md has the figures). No allocation after construction.
// Memory: the weights (as doubles, and the packed words) plus n_heads * d_key * d_value doubles of state
// (d_value for Hawk, x L for LogLinear).
// Thread safety: one owner; const methods use mutable scratch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/aligned.hpp"
#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/nn/attention/config.hpp"

namespace irithyll::nn {

// Clamp on the exponent of RWKV's exp(k) write (exp(20) ~ 4.85e8).
inline constexpr double kRwkvMaxExponent = 20.0;
// Keys shorter than this are treated as zero by the L2 normalisation.
inline constexpr double kKeyNormFloor = 1e-12;

// Rows of one head's block of the fused projection matrix, in order:
// k (d_key), v (d_value), q (d_key), then the mode's extra rows starting at
// `extra`. The named offsets below are what tests and references use.
struct HeadLayout {
  std::size_t rows = 0;   // total rows per head
  std::size_t extra = 0;  // first mode-specific row (= 2 d_key + d_value)
  // DeltaProduct: composition j >= 1 has k_j rows at comp_base + (j-1)*comp_stride,
  // v_j right after, then one beta row; composition 0 uses the main k, v and
  // the beta row at extra + 1. extra + 0 is the scalar gate.
  std::size_t comp_base = 0, comp_stride = 0;
};
HeadLayout head_layout(const AttentionConfig& config) noexcept;

class MultiHeadAttention {
 public:
  MultiHeadAttention() = default;
  // Checked construction: an invalid config (config.validate()) comes back as its Status.
  static Result<MultiHeadAttention> make(const AttentionConfig& config);
  // REQUIRES: config.validate() is OK (debug assert; use make() for untrusted configs).
  explicit MultiHeadAttention(const AttentionConfig& config);

  // One token: updates the state, writes d_model outputs. A non-finite x
  // writes zeros and leaves the state untouched; returns false then.
  bool forward(std::span<const double> x, std::span<double> out) noexcept;
  // What forward(x) would write, without committing the state.
  void peek(std::span<const double> x, std::span<double> out) const noexcept;
  // Read-only readout of the current state with q(x): S_{t-1}^T q through
  // W_out (tanh for bounded modes; for Hawk the state h itself). Never mutates.
  void query_state(std::span<const double> x, std::span<double> out) const noexcept;

  void reset() noexcept;  // zero every state; weights kept

  const AttentionConfig& config() const noexcept { return config_; }
  const HeadLayout& layout() const noexcept { return layout_; }
  std::size_t output_dim() const noexcept { return config_.d_model; }
  // Flat state of all heads: n_heads * (d_key*d_value | d_value | L*d_key*d_value); constant length.
  std::span<const double> state() const noexcept { return state_; }
  std::size_t state_size_per_head() const noexcept { return head_state_; }
  std::uint64_t tokens_seen() const noexcept { return tokens_; }
  std::uint64_t level_mask() const noexcept { return mask_; }  // LogLinear active levels

  // Head h's block of the fused projection, layout().rows x d_model, row-major.
  // Weights are hi32 grid values (see above). Writes go through the setters,
  // which round onto the grid and refresh the packed copy the step reads;
  // they return false (and change nothing) on a size mismatch.
  std::span<const double> head_weights(std::size_t h) const noexcept;
  std::span<const double> output_weights() const noexcept { return w_out_; }  // d_model x n_heads*d_value
  bool set_head_weights(std::size_t h, std::span<const double> w) noexcept;
  bool set_output_weights(std::span<const double> w) noexcept;

  std::size_t memory_bytes() const noexcept;
  // The weights and state alone; decode reads them into a layer with
  // `settings` (its owner derives them from its named settings). Records
  // from before (layer versions 1-3) carry their own config, which wins.
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in, const AttentionConfig& settings);

 private:
  void allocate();
  void draw_weights();
  void repack() noexcept;  // w_*_packed_ from w_proj_ / w_out_ (sizes fixed by allocate())
  // proj_ = W_proj x (the rows the mode reads).
  void project(const double* x) const noexcept;
  // Advances `state`/`mask` by one token with the projection in proj_; head outputs to heads_.
  void step(double* state, std::uint64_t& mask) const noexcept;
  void head_step(std::size_t h, const double* p, double* s, std::uint64_t mask, std::uint32_t land,
                 double* o) const noexcept;
  void finish(std::span<double> out) const noexcept;
  // lambda = softplus_softmax_mix(rows + lambda0): max_levels level weights from their projection rows.
  void level_weights(const double* rows, double* lambda) const noexcept;
  void prepare_gates() const noexcept;  // maps the gate rows of proj_ into gates_
  void prepare_rwkv() const noexcept;
  std::size_t scalar_gates_per_head() const noexcept;  // sigmoid gates of GLA / GDN / mLSTM / DeltaProduct

  AttentionConfig config_;
  HeadLayout layout_;
  std::size_t head_state_ = 0;
  std::vector<double> w_proj_, w_out_;  // hi32 grid values, row-major
  // Rows [row0, row0 + rows) of w_proj_ packed at w_proj_packed_[offset].
  struct ProjectionRun {
    std::size_t row0, rows, offset;
  };
  std::vector<ProjectionRun> runs_;
  // pack_hi32 copies of w_proj_ (its runs) / w_out_, the only form the step reads.
  AlignedVector<std::uint32_t> w_proj_packed_, w_out_packed_;
  std::vector<double> state_;
  std::uint64_t mask_ = 0, tokens_ = 0;
  // Scratch (mutable so const readouts can use it without allocating).
  mutable std::vector<double> proj_, heads_, tmp_, lambda_, peek_state_, gates_;
};

}  // namespace irithyll::nn
