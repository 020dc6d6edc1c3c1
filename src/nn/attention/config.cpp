#include "irithyll/nn/attention/config.hpp"

#include <array>
#include <cmath>

namespace irithyll::nn {

namespace {
constexpr std::array<std::string_view, kAttentionKindCount> kNames = {
    "retnet", "hawk",         "gla",   "gla_vector", "deltanet", "gated_deltanet",
    "rwkv",   "mlstm",        "deltaproduct", "rwkv7", "hgrn2", "loglinear", "loglinear_mamba2",
    "loglinear_gated_deltanet"};

// Model files and the CLI are untrusted: cap sizes so a hostile config cannot
// ask for terabytes.
constexpr std::size_t kMaxDim = 4096;
constexpr std::uint32_t kMaxLevels = 62;
constexpr std::uint32_t kMaxCompositions = 16;

}  // namespace

std::string_view attention_kind_name(AttentionKind k) noexcept {
  const auto i = static_cast<std::size_t>(k);
  return i < kNames.size() ? kNames[i] : "unknown";
}

Result<AttentionMode> parse_attention_mode(std::string_view text) {
  AttentionMode mode;
  std::string_view head = text, inner;
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    head = text.substr(0, colon);
    inner = text.substr(colon + 1);
  }
  auto lookup = [](std::string_view name, AttentionKind& out) {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
      if (kNames[i] == name) {
        out = static_cast<AttentionKind>(i);
        return true;
      }
    }
    return false;
  };
  if (!lookup(head, mode.kind)) return Status::invalid_argument("unknown attention mode '" + std::string(text) + "'");
  if (mode.kind == AttentionKind::kRWKV7 && !inner.empty()) {
    if (inner != "upstream") return Status::invalid_argument("bad rwkv7 order in '" + std::string(text) + "'");
    mode.rwkv7_upstream_order = true;
    return mode;
  }
  if (!inner.empty()) {
    if (mode.kind != AttentionKind::kLogLinear || !lookup(inner, mode.inner) ||
        has_levels(mode.inner))
      return Status::invalid_argument("bad inner mode in '" + std::string(text) + "'");
  }
  return mode;
}

std::string attention_mode_name(const AttentionMode& mode) {
  std::string s(attention_kind_name(mode.kind));
  if (mode.kind == AttentionKind::kLogLinear) {
    s.push_back(':');
    s.append(attention_kind_name(mode.inner));
  }
  if (mode.kind == AttentionKind::kRWKV7 && mode.rwkv7_upstream_order) s.append(":upstream");
  return s;
}

Status AttentionMode::validate() const {
  if (static_cast<std::size_t>(kind) >= kAttentionKindCount) return Status::invalid_argument("attention: bad mode");
  if (!(gamma > 0.0 && gamma <= 1.0)) return Status::invalid_argument("attention: gamma must be in (0, 1]");
  if (!std::isfinite(beta_scale) || beta_scale < 0.0 || beta_scale > 2.0)
    return Status::invalid_argument("attention: beta_scale must be in [0, 2]");
  if (!std::isfinite(initial_decay) || initial_decay < 0.0) return Status::invalid_argument("attention: initial_decay >= 0");
  if (n_compositions < 1 || n_compositions > kMaxCompositions)
    return Status::invalid_argument("attention: n_compositions must be in [1, 16]");
  if (!(lower_bound >= 0.0 && lower_bound < 1.0)) return Status::invalid_argument("attention: lower_bound in [0, 1)");
  if (static_cast<std::size_t>(inner) >= kAttentionKindCount || has_levels(inner))
    return Status::invalid_argument("attention: LogLinear cannot wrap LogLinear");
  if (max_levels < 1 || max_levels > kMaxLevels) return Status::invalid_argument("attention: max_levels in [1, 62]");
  if (!std::isfinite(lambda_init)) return Status::invalid_argument("attention: lambda_init must be finite");
  if (rwkv7_upstream_order && kind != AttentionKind::kRWKV7)
    return Status::invalid_argument("attention: the upstream removal order applies to rwkv7 only");
  if (!(rwkv7_removal >= 0.0 && rwkv7_removal <= 1.0))
    return Status::invalid_argument("attention: rwkv7_removal in [0, 1]");
  return Status::ok();
}

Status AttentionMode::decode(ByteReader& in) {
  const std::uint8_t kind_byte = in.u8("attention kind");
  kind = static_cast<AttentionKind>(kind_byte & 0x7fu);
  rwkv7_upstream_order = (kind_byte & 0x80u) != 0;
  gamma = in.f64();
  beta_scale = in.f64();
  beta_per_token = in.boolean();
  initial_decay = in.f64();
  n_compositions = in.u32();
  reflections = in.boolean();
  lower_bound = in.f64();
  inner = static_cast<AttentionKind>(in.u8("attention inner kind"));
  max_levels = in.u32();
  lambda_init = in.f64();
  rwkv7_removal = in.f64();
  IRITHYLL_RETURN_IF_ERROR(in.status());
  return validate();
}

Status AttentionConfig::validate() const {
  for (std::size_t d : {d_model, n_heads, d_key, d_value})
    if (d < 1 || d > kMaxDim) return Status::invalid_argument("attention: dimensions must be in [1, 4096]");
  if (n_heads * (d_key + d_value) > 4 * kMaxDim) return Status::invalid_argument("attention: too many head dims");
  if (!std::isfinite(init_scale) || init_scale < 0.0) return Status::invalid_argument("attention: init_scale >= 0");
  return mode.validate();
}

Status AttentionConfig::decode(ByteReader& in) {
  d_model = in.u64();
  n_heads = in.u64();
  d_key = in.u64();
  d_value = in.u64();
  IRITHYLL_RETURN_IF_ERROR(mode.decode(in));
  seed = in.u64();
  init_scale = in.f64();
  IRITHYLL_RETURN_IF_ERROR(in.status());
  return validate();
}

}  // namespace irithyll::nn
