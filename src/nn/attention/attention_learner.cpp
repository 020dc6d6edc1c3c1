#include "irithyll/nn/attention/attention_learner.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "nn/attention/attention_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/kernels.hpp"

namespace irithyll::nn {

namespace {
constexpr std::size_t kMaxFeatures = 1u << 16;

AttentionConfig resolved(AttentionConfig c) {
  if (!(c.init_scale > 0.0)) c.init_scale = 1.0 / std::sqrt(static_cast<double>(c.d_model));
  return c;
}
}  // namespace

Status AttentionLearner::validate(const AttentionLearnerConfig& c) {
  if (c.task == Task::kClassification && (c.n_classes < 2 || c.n_classes > 4096))
    return Status::invalid_argument("attention learner: classification needs 2..4096 classes");
  if (c.n_features > kMaxFeatures) return Status::invalid_argument("attention learner: too many features");
  IRITHYLL_RETURN_IF_ERROR(check_rls_config("attention learner", c.rls));
  return resolved(c.attention).validate();
}

Result<AttentionLearner> AttentionLearner::make(const AttentionLearnerConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(validate(config));
  return AttentionLearner(config);
}

AttentionCore::AttentionCore(const AttentionLearnerConfig& config) : RlsReadoutLearner(config) {
  assert(validate(config).is_ok());
  cfg_.attention = resolved(cfg_.attention);
  if (cfg_.n_features > 0) build(cfg_.n_features);
}

void AttentionCore::build(std::size_t n_features) {
  cfg_.n_features = n_features;
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
  head_ = RlsHead(cfg_.task, cfg_.n_classes, n_readout, cfg_.rls);
  z_.assign(n_features + 1, 1.0);
  u_.assign(cfg_.attention.d_model, 0.0);
  features_.assign(n_readout, 0.0);
  features_.back() = 1.0;
  built_ = true;
}

void AttentionCore::featurize(std::span<const double> x, bool learn) const {
  const std::size_t d = cfg_.attention.d_model, nf = cfg_.n_features;
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
  if (cfg_.n_features != 0 || n_features > kMaxFeatures) return false;
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

void AttentionCore::encode(ByteWriter& out) const {
  out.u32(1);  // format version
  out.u8(static_cast<std::uint8_t>(cfg_.task));
  out.u64(cfg_.n_classes);
  out.u64(cfg_.n_features);
  cfg_.attention.encode(out);
  out.f64(cfg_.rls.forgetting_factor);
  out.f64(cfg_.rls.delta);
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

Status AttentionCore::decode(ByteReader& in) {
  if (in.u32("attention learner version") != 1) in.fail("attention learner: unsupported version");
  AttentionLearnerConfig c;
  const std::uint8_t task = in.u8("task");
  c.n_classes = in.u64("n_classes");
  c.n_features = in.u64("n_features");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  if (task > 1) return Status::corruption("attention learner: bad task");
  c.task = static_cast<Task>(task);
  IRITHYLL_RETURN_IF_ERROR(c.attention.decode(in));
  c.rls.forgetting_factor = in.f64("rls lambda");
  c.rls.delta = in.f64("rls delta");
  const bool built = in.boolean("built");
  const std::uint64_t n_seen = in.u64("n_seen");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  if (Status s = validate(c); !s.is_ok()) return Status::corruption(s.message());
  if (built && c.n_features == 0) return Status::corruption("attention learner: built without features");
  AttentionCore fresh;
  fresh.cfg_ = c;
  fresh.n_seen_ = n_seen;
  if (built) {
    // Arrays first (bounded by the bytes present), so that sizes are checked
    // before build() allocates anything from the configuration.
    auto w_in = in.f64s("input projection");
    auto counts = in.u64s("scaler counts");
    auto means = in.f64s("scaler means");
    auto m2s = in.f64s("scaler m2");
    IRITHYLL_RETURN_IF_ERROR(in.status());
    if (w_in.size() != c.attention.d_model * (c.n_features + 1) || counts.size() != c.n_features ||
        means.size() != c.n_features || m2s.size() != c.n_features)
      return Status::corruption("attention learner: wrong array lengths");
    MultiHeadAttention layer;
    IRITHYLL_RETURN_IF_ERROR(layer.decode(in));
    const AttentionConfig& lc = layer.config();
    if (lc.d_model != c.attention.d_model || lc.n_heads != c.attention.n_heads || lc.d_key != c.attention.d_key ||
        lc.d_value != c.attention.d_value || lc.mode.kind != c.attention.mode.kind)
      return Status::corruption("attention learner: layer does not match the configuration");
    fresh.build(c.n_features);
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
