#include "irithyll/nn/attention/attention_learner.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "nn/attention/attention_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/kernels.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll::nn {

namespace {
constexpr std::size_t kAttentionMaxFeatures = 1u << 16;

AttentionConfig resolved(AttentionConfig c) {
  if (!(c.init_scale > 0.0)) c.init_scale = 1.0 / std::sqrt(static_cast<double>(c.d_model));
  return c;
}
}  // namespace

Status AttentionLearner::validate(const Config& c, const LearnerContext& context) {
  if (context.task == Task::kClassification && (context.n_classes < 2 || context.n_classes > 4096))
    return Status::invalid_argument("attention learner: classification needs 2..4096 classes");
  if (context.n_features > kAttentionMaxFeatures) return Status::invalid_argument("attention learner: too many features");
  IRITHYLL_RETURN_IF_ERROR(check_rls_config("attention learner", c.rls));
  return resolved(c.attention).validate();
}

Result<std::unique_ptr<AttentionLearner>> AttentionLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<AttentionLearner>(config, context);
}

AttentionLearner::AttentionLearner(const Config& config, const LearnerContext& context)
    : BoxedLearner(config, context) {}

AttentionCore::AttentionCore(const AttentionLearnerConfig& config, const LearnerContext& context)
    : RlsReadoutCore(config, context) {
  assert(validate(config, context).is_ok());
  cfg_.attention = resolved(cfg_.attention);
  cfg_.attention.seed = ctx_.seed;
  if (ctx_.n_features > 0) build(ctx_.n_features);
}

void AttentionCore::build(std::size_t n_features) {
  ctx_.n_features = n_features;
  layer_ = MultiHeadAttention(cfg_.attention);
  // W_in is drawn from a stream separate from the layer's (seed + 1).
  Xorshift64 rng(cfg_.attention.seed ^ 0x5DEECE66Dull);
  // Last column is a bias: without a constant component q_t is zero-mean and
  // every readout feature (q_t . k_s) v_s averages to zero over x_t, so a
  // linear readout could not recover past inputs (tests/nn_attention lag task).
  const std::size_t cols = n_features + 1;
  w_in_.assign(cfg_.attention.d_model * cols, 0.0);
  const double s = 1.0 / std::sqrt(static_cast<double>(cols));
  for (double& w : w_in_) w = rng.normal() * s;
  scaler_ = WelfordNormalizer(n_features);
  const std::size_t n_readout = n_features + cfg_.attention.d_model + 1;
  head_ = RlsHead(ctx_.task, ctx_.n_classes, n_readout, cfg_.rls);
  z_.assign(n_features + 1, 1.0);
  u_.assign(cfg_.attention.d_model, 0.0);
  features_.assign(n_readout, 0.0);
  features_.back() = 1.0;
  built_ = true;
}

void AttentionCore::featurize(std::span<const double> x, bool learn) const {
  const std::size_t d = cfg_.attention.d_model, nf = ctx_.n_features;
  scaler_.normalize(x, std::span<double>(z_).first(nf));
  for (std::size_t i = 0; i < nf; ++i)
    z_[i] = std::isfinite(z_[i]) ? std::clamp(z_[i], -kInputClamp, kInputClamp) : 0.0;
  matvec(w_in_.data(), z_.data(), u_.data(), d, nf + 1);
  std::span<double> o(features_.data() + nf, d);
  if (learn) {
    layer_.forward(u_, o);
  } else {
    layer_.peek(u_, o);
  }
  if (!is_bounded(cfg_.attention.mode.kind)) tanh_inplace(o);
  std::copy_n(z_.begin(), nf, features_.begin());
}

bool AttentionCore::try_build(std::size_t n_features) {
  if (ctx_.n_features != 0 || n_features > kAttentionMaxFeatures) return false;
  build(n_features);
  return true;
}

void AttentionCore::advance(std::span<const double> x, double, double) {
  // Features for this sample use the statistics before it, as predict_one did.
  featurize(x, true);
  scaler_.update(x);
}

void AttentionCore::restart() {
  layer_.reset();
  scaler_.reset();
  head_.reset();
}

std::size_t AttentionCore::extractor_memory_bytes() const {
  // The layer and the readout already lie inside sizeof(*this): count only
  // what they own beyond it.
  return layer_.memory_bytes() - sizeof(layer_) - sizeof(head_) +
         (w_in_.capacity() + z_.capacity() + u_.capacity()) * sizeof(double) + scaler_.dim() * 3 * sizeof(double);
}

// 1: u8 task, u64 classes and width, the layer configuration, RLS lambda
//    and delta, then the state.
// 2: the settings by name and the learner context, then the layer
//    configuration (its constants the table does not list), then the state.
// 3: the settings by name and the learner context, then the state: the
//    layer's configuration is derived from the settings (resolved(), the
//    context's seed) as for a new learner, so a new setting changes no layout.
constexpr std::uint32_t kRecordV1 = 1;
constexpr std::uint32_t kRecordV2 = 2;
constexpr std::uint32_t kAttentionRecordVersion = 3;

void AttentionCore::encode(ByteWriter& out) const {
  out.u32(kAttentionRecordVersion);
  encode_config(config_fields(), cfg_, out);
  encode_context(ctx_, out);
  out.boolean(built_);
  out.u64(n_seen_);
  if (!built_) return;
  out.f64s(w_in_);
  out.u64s(scaler_.counts());
  out.f64s(scaler_.means());
  out.f64s(scaler_.m2s());
  layer_.encode(out);
  head_.encode(out);
}

namespace {
// Version 2: the layer configuration after the settings must print every
// setting as the settings did, and carry the context's seed.
Status check_layer_matches(std::span<const ConfigField<AttentionLearnerConfig>> fields,
                           const AttentionLearnerConfig& named, const AttentionConfig& layer, std::uint64_t seed) {
  AttentionLearnerConfig full = named;
  full.attention = layer;
  for (const auto& f : fields)
    if (f.get(full) != f.get(named))
      return Status::corruption("attention learner: the layer configuration does not match setting " +
                                std::string(f.info.name));
  if (layer.seed != seed) return Status::corruption("attention learner: the layer's seed is not the context's");
  return Status::ok();
}
}  // namespace

Status AttentionCore::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("attention learner version");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  if (version < kRecordV1 || version > kAttentionRecordVersion)
    return Status::corruption("attention learner: unsupported version");
  AttentionLearnerConfig c;
  LearnerContext context;
  if (version == kAttentionRecordVersion) {
    IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, c));
    IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
    c.attention = resolved(c.attention);
    c.attention.seed = context.seed;
  } else if (version == kRecordV2) {
    IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, c));
    IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
    AttentionConfig layer_config;
    IRITHYLL_RETURN_IF_ERROR(layer_config.decode(in));
    IRITHYLL_RETURN_IF_ERROR(check_layer_matches(config_fields(), c, layer_config, context.seed));
    c.attention = layer_config;
  } else {
    const std::uint8_t task = in.u8("task");
    const std::uint64_t classes = in.u64("n_classes");
    context.n_features = in.u64("n_features");
    IRITHYLL_RETURN_IF_ERROR(in.status());
    if (task > 1) return Status::corruption("attention learner: bad task");
    context.task = static_cast<Task>(task);
    context.n_classes = context.task == Task::kClassification ? classes : 0;
    IRITHYLL_RETURN_IF_ERROR(c.attention.decode(in));
    context.seed = c.attention.seed;
    c.rls.forgetting_factor = in.f64("rls lambda");
    c.rls.delta = in.f64("rls delta");
  }
  const bool built = in.boolean("built");
  const std::uint64_t n_seen = in.u64("n_seen");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  if (context.task != Task::kClassification && context.n_classes != 0)
    return Status::corruption("attention learner: a regressor with classes");
  if (Status s = validate(c, context); !s.is_ok()) return Status::corruption(s.message());
  if (built && context.n_features == 0) return Status::corruption("attention learner: built without features");
  AttentionCore fresh;
  fresh.cfg_ = c;
  fresh.ctx_ = context;
  fresh.n_seen_ = n_seen;
  if (built) {
    const std::size_t nf = context.n_features;
    // Arrays first (bounded by the bytes present), so that sizes are checked
    // before build() allocates anything from the configuration.
    auto w_in = in.f64s("input projection");
    auto counts = in.u64s("scaler counts");
    auto means = in.f64s("scaler means");
    auto m2s = in.f64s("scaler m2");
    IRITHYLL_RETURN_IF_ERROR(in.status());
    if (w_in.size() != c.attention.d_model * (nf + 1) || counts.size() != nf || means.size() != nf ||
        m2s.size() != nf)
      return Status::corruption("attention learner: wrong array lengths");
    if (!all_within(w_in) || !WelfordNormalizer::valid_state(counts, means, m2s))
      return Status::corruption("attention learner: non-finite input projection or statistics");
    MultiHeadAttention layer;
    IRITHYLL_RETURN_IF_ERROR(layer.decode(in, c.attention));
    const AttentionConfig& lc = layer.config();
    if (lc.d_model != c.attention.d_model || lc.n_heads != c.attention.n_heads || lc.d_key != c.attention.d_key ||
        lc.d_value != c.attention.d_value || lc.mode.kind != c.attention.mode.kind)
      return Status::corruption("attention learner: layer does not match the configuration");
    fresh.build(nf);
    fresh.w_in_ = std::move(w_in);
    fresh.scaler_.counts() = std::move(counts);
    fresh.scaler_.means() = std::move(means);
    fresh.scaler_.m2s() = std::move(m2s);
    fresh.layer_ = std::move(layer);
    IRITHYLL_RETURN_IF_ERROR(fresh.head_.decode(in, fresh.features_.size()));
  }
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::AttentionCore, nn::AttentionLearnerConfig>;
}  // namespace irithyll
