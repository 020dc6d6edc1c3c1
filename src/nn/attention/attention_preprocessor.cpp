#include "irithyll/nn/attention/attention_preprocessor.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/field_rows.hpp"
#include "nn/attention/multi_head.hpp"
#include "preprocess/common.hpp"

namespace irithyll {
namespace {

using C = AttentionPreprocessorConfig;
using Row = ConfigField<C>;
constexpr std::uint8_t kVersion = 1;
constexpr double kClamp = 5.0;

const std::array kFields = {
    Row{FieldInfo::text("mode", "gla", "attention mode: retnet, hawk, gla, glavector, deltanet, gated_deltanet, rwkv, "
                                       "mlstm, ... (as the attention model's --mode)"),
        [](C& c, std::string_view v) -> Status {
          auto m = nn::parse_attention_mode(v);
          if (!m) return m.status();
          c.mode = std::string(v);
          return Status::ok();
        },
        [](const C& c) { return c.mode; }},
    Row{FieldInfo::integer("d-model", "16", "attention outputs (the layer's width)").in(1, 256),
        IRITHYLL_FIELD_UINT(C, d_model)},
    Row{FieldInfo::integer("n-heads", "2", "attention heads").in(1, 16), IRITHYLL_FIELD_UINT(C, n_heads)},
    Row{FieldInfo::integer("d-key", "4", "key width per head").in(1, 64), IRITHYLL_FIELD_UINT(C, d_key)},
    Row{FieldInfo::integer("d-value", "4", "value width per head").in(1, 64), IRITHYLL_FIELD_UINT(C, d_value)},
    Row{FieldInfo::boolean("passthrough", "on", "the inputs come first in the output, then the attention features"),
        IRITHYLL_FIELD_BOOL(C, passthrough)},
};

}  // namespace

std::span<const ConfigField<AttentionPreprocessorConfig>> AttentionPreprocessor::config_fields() { return kFields; }

AttentionPreprocessor::AttentionPreprocessor() = default;
AttentionPreprocessor::~AttentionPreprocessor() = default;
AttentionPreprocessor::AttentionPreprocessor(AttentionPreprocessor&&) noexcept = default;
AttentionPreprocessor& AttentionPreprocessor::operator=(AttentionPreprocessor&&) noexcept = default;

Result<std::unique_ptr<AttentionPreprocessor>> AttentionPreprocessor::make(const Config& config,
                                                                           const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  if (context.n_features == 0 || context.n_features > 4096)
    return Status::invalid_argument("attention_features: needs 1 to 4096 input features");
  auto t = std::make_unique<AttentionPreprocessor>();
  t->config_ = config;
  t->n_in_ = context.n_features;
  t->seed_ = context.seed;
  IRITHYLL_RETURN_IF_ERROR(t->build());
  return t;
}

Status AttentionPreprocessor::build() {
  auto mode = nn::parse_attention_mode(config_.mode);
  if (!mode) return mode.status();
  nn::AttentionConfig ac;
  ac.d_model = config_.d_model;
  ac.n_heads = config_.n_heads;
  ac.d_key = config_.d_key;
  ac.d_value = config_.d_value;
  ac.mode = *mode;
  ac.seed = seed_;
  ac.init_scale = 1.0 / std::sqrt(static_cast<double>(ac.d_model));
  IRITHYLL_RETURN_IF_ERROR(ac.validate().with_context(kName));
  layer_ = std::make_unique<nn::MultiHeadAttention>(ac);
  // W_in from a stream apart from the layer's: N(0, 1/(d+1)) entries.
  Xorshift64 rng(seed_ ^ 0x5DEECE66Dull);
  const std::size_t cols = n_in_ + 1;
  w_in_.assign(static_cast<std::size_t>(config_.d_model) * cols, 0.0);
  const double s = 1.0 / std::sqrt(static_cast<double>(cols));
  for (double& w : w_in_) w = rng.normal() * s;
  mean_.assign(n_in_, 0.0);
  m2_.assign(n_in_, 0.0);
  count_.assign(n_in_, 0.0);
  z_.assign(cols, 1.0);
  u_.assign(config_.d_model, 0.0);
  o_.assign(config_.d_model, 0.0);
  return Status::ok();
}

void AttentionPreprocessor::project(std::span<const double> x) const {
  for (std::size_t i = 0; i < n_in_; ++i) {
    const double v = i < x.size() ? x[i] : 0.0;
    double z = 0.0;
    if (std::isfinite(v) && count_[i] >= 2.0) {
      const double var = m2_[i] / (count_[i] - 1.0);
      if (var > 0.0) z = std::clamp((v - mean_[i]) / std::sqrt(var), -kClamp, kClamp);
    }
    z_[i] = z;
  }
  const std::size_t cols = n_in_ + 1;
  for (std::size_t r = 0; r < config_.d_model; ++r) {
    double s = 0.0;
    const double* w = &w_in_[r * cols];
    for (std::size_t c = 0; c < cols; ++c) s += w[c] * z_[c];
    u_[r] = s;
  }
}

void AttentionPreprocessor::learn_one(std::span<const double> x) {
  if (!layer_) return;
  project(x);
  layer_->forward(u_, o_);
  for (std::size_t i = 0; i < n_in_ && i < x.size(); ++i) {
    if (!std::isfinite(x[i])) continue;
    count_[i] += 1.0;
    const double d = x[i] - mean_[i];
    mean_[i] += d / count_[i];
    m2_[i] += d * (x[i] - mean_[i]);
  }
}

void AttentionPreprocessor::transform_one(std::span<const double> x, std::span<double> out) const {
  if (!layer_ || out.size() != output_size(n_in_)) {
    for (double& v : out) v = 0.0;
    return;
  }
  std::size_t o = 0;
  if (config_.passthrough)
    for (std::size_t i = 0; i < n_in_; ++i) out[o++] = i < x.size() ? x[i] : 0.0;
  project(x);
  std::span<double> att = out.subspan(o, config_.d_model);
  layer_->peek(u_, att);
  if (!nn::is_bounded(layer_->config().mode.kind))
    for (double& v : att) v = std::tanh(v);
}

void AttentionPreprocessor::reset() {
  if (!layer_) return;
  layer_->reset();
  std::fill(mean_.begin(), mean_.end(), 0.0);
  std::fill(m2_.begin(), m2_.end(), 0.0);
  std::fill(count_.begin(), count_.end(), 0.0);
}

std::size_t AttentionPreprocessor::memory_bytes() const {
  return sizeof(*this) + (layer_ ? layer_->memory_bytes() : 0) +
         (w_in_.capacity() + mean_.capacity() + m2_.capacity() + count_.capacity() + z_.capacity() + u_.capacity() +
          o_.capacity()) *
             sizeof(double);
}

void AttentionPreprocessor::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kVersion, config_fields(), config_, n_in_, {}, out);
  out.u64(seed_);
  out.f64s(mean_);
  out.f64s(m2_);
  out.f64s(count_);
  layer_->encode(out);
}

Status AttentionPreprocessor::decode(ByteReader& in) {
  AttentionPreprocessor t;
  std::vector<std::uint32_t> cols;
  IRITHYLL_RETURN_IF_ERROR(
      preprocess_detail::decode_header(kName, kVersion, config_fields(), in, t.config_, t.n_in_, cols));
  if (t.n_in_ > 4096) return Status::corruption("attention_features: input width out of range");
  t.seed_ = in.u64("attention_features seed");
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(t.build());
  std::vector<double> mean, m2, count;
  if (!preprocess_detail::read_exact(in, t.n_in_, mean, "attention_features mean") ||
      !preprocess_detail::read_exact(in, t.n_in_, m2, "attention_features m2") ||
      !preprocess_detail::read_exact(in, t.n_in_, count, "attention_features count"))
    return in.status();
  for (std::size_t i = 0; i < t.n_in_; ++i)
    if (!std::isfinite(mean[i]) || !(m2[i] >= 0.0) || !std::isfinite(m2[i]) || !(count[i] >= 0.0) ||
        count[i] != std::floor(count[i]))
      return Status::corruption("attention_features: statistics of feature " + std::to_string(i) + " out of range");
  nn::MultiHeadAttention layer;
  IRITHYLL_RETURN_IF_ERROR(layer.decode(in, t.layer_->config()));
  const auto& lc = layer.config();
  if (lc.d_model != t.config_.d_model || lc.n_heads != t.config_.n_heads || lc.d_key != t.config_.d_key ||
      lc.d_value != t.config_.d_value || nn::attention_mode_name(lc.mode) != nn::attention_mode_name(t.layer_->config().mode))
    return Status::corruption("attention_features: the layer does not match the settings");
  *t.layer_ = std::move(layer);
  t.mean_ = std::move(mean);
  t.m2_ = std::move(m2);
  t.count_ = std::move(count);
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
