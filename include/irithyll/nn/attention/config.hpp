// Configuration of the streaming linear-attention engine: which recurrence
// (mode) and its hyperparameters. Every mode is an instance of
//
//   S_t = decay_t (.) S_{t-1} + write_t,   o_t = S_t^T q_t
//
// and the modes differ in how decay, write and read are formed (see
// multi_head.hpp for the table and the papers). A mode is a plain value so it
// can be encoded into checkpoints and parsed from the command line.
//
// Thread safety: plain data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

enum class AttentionKind : std::uint8_t {
  kRetNet = 0,
  kHawk,
  kGLA,
  kGLAVector,
  kDeltaNet,
  kGatedDeltaNet,
  kRWKV,
  kMLSTM,
  kDeltaProduct,
  kRWKV7,
  kHGRN2,
  kLogLinear,
  // The paper's two variants (fenwick_levels.hpp): each level carries the
  // inner rule's decay / delta transition, the current token has a level of
  // its own. kLogLinear above is the Rust library's counter form.
  kLogLinearMamba2,
  kLogLinearGatedDeltaNet,
};
inline constexpr std::size_t kAttentionKindCount = 14;

struct AttentionMode {
  AttentionKind kind = AttentionKind::kRetNet;
  double gamma = 0.95;               // RetNet fixed decay, in (0, 1]
  double beta_scale = 1.0;           // GatedDeltaNet write strength when not per token
  bool beta_per_token = false;       // GatedDeltaNet: beta = sigmoid(w_b . x) per token
  double initial_decay = 0.5;        // RWKV d0: decay = exp(-(d0 + softplus(w . x)))
  std::uint32_t n_compositions = 2;  // DeltaProduct Householder steps per token, >= 1
  bool reflections = false;          // DeltaProduct: beta in (0, 2) instead of (0, 1)
  double lower_bound = 0.5;          // HGRN2 forget-gate floor, in [0, 1)
  AttentionKind inner = AttentionKind::kGLA;  // LogLinear: wrapped mode (not LogLinear)
  std::uint32_t max_levels = 32;     // LogLinear (all three forms) Fenwick depth L, 1..62
  double lambda_init = -1.0;         // LogLinear lambda bias; < 0 means 1/L
  double rwkv7_removal = 0.5;        // RWKV-7 alpha in k~ = k (1 + alpha (a - 1)), in [0, 1]
  // RWKV-7 order of decay and removal. false (default, the Rust library's):
  // decay first, the removal reads the decayed state D = diag(w) S. true: the
  // upstream order of the RWKV-7 paper's reference, S <- diag(w) S - (a kh)(S^T kh)^T
  // + k~ v^T, the removal reading the un-decayed state. Name "rwkv7:upstream".
  // Checkpoints carry it as bit 7 of the kind byte (clear in every record
  // written before it existed, so those decode as decay-first).
  bool rwkv7_upstream_order = false;

  double lambda_bias() const noexcept {
    return lambda_init < 0.0 ? 1.0 / static_cast<double>(max_levels) : lambda_init;
  }
  Status validate() const;
  Status decode(ByteReader& in);
};

// Modes whose key is L2-normalised and whose write is the delta rule.
constexpr bool is_delta_family(AttentionKind k) noexcept {
  return k == AttentionKind::kDeltaNet || k == AttentionKind::kGatedDeltaNet || k == AttentionKind::kDeltaProduct ||
         k == AttentionKind::kRWKV7;
}
// The paper's log-linear variants (not the counter form).
constexpr bool is_loglinear_paper(AttentionKind k) noexcept {
  return k == AttentionKind::kLogLinearMamba2 || k == AttentionKind::kLogLinearGatedDeltaNet;
}
// Modes with a Fenwick level stack of max_levels matrices per head.
constexpr bool has_levels(AttentionKind k) noexcept { return k == AttentionKind::kLogLinear || is_loglinear_paper(k); }
// Modes whose layer output is passed through tanh (so lies in (-1, 1)).
constexpr bool is_bounded(AttentionKind k) noexcept {
  return is_delta_family(k) || k == AttentionKind::kHGRN2 || has_levels(k);
}

std::string_view attention_kind_name(AttentionKind k) noexcept;
// Accepts the names above ("retnet", "hawk", "gla", "gla_vector", "deltanet",
// "gated_deltanet", "rwkv", "mlstm", "deltaproduct", "rwkv7", "hgrn2",
// "loglinear", "loglinear_mamba2", "loglinear_gated_deltanet") and
// "loglinear:<inner>" (the counter form; default inner gla), and
// "rwkv7:upstream" (the upstream removal order).
Result<AttentionMode> parse_attention_mode(std::string_view text);
std::string attention_mode_name(const AttentionMode& mode);

struct AttentionConfig {
  std::size_t d_model = 16;
  std::size_t n_heads = 4;
  std::size_t d_key = 4;
  std::size_t d_value = 4;
  AttentionMode mode{};
  std::uint64_t seed = 42;
  double init_scale = 0.01;  // weights ~ N(0, 1) * init_scale

  Status validate() const;
  Status decode(ByteReader& in);
};

}  // namespace irithyll::nn
