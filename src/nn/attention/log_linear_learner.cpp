#include "irithyll/nn/attention/log_linear_learner.hpp"

#include <algorithm>
#include <cmath>
#include <cassert>

#include "nn/attention/log_linear_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "irithyll/core/rng.hpp"
#include "nn/kernels.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll::nn {

namespace {
constexpr std::size_t kLogLinearMaxFeatures = 1u << 16;
}

Status LogLinearLearner::validate(const Config& c, const LearnerContext& context) {
  if (context.task == Task::kClassification && (context.n_classes < 2 || context.n_classes > 4096))
    return Status::invalid_argument("loglinear learner: classification needs 2..4096 classes");
  if (context.n_features > kLogLinearMaxFeatures) return Status::invalid_argument("loglinear learner: too many features");
  IRITHYLL_RETURN_IF_ERROR(check_rls_config("loglinear learner", c.rls));
  IRITHYLL_RETURN_IF_ERROR(c.continual.validate());
  return c.layer.validate();
}

Result<std::unique_ptr<LogLinearLearner>> LogLinearLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<LogLinearLearner>(config, context);
}

LogLinearLearner::LogLinearLearner(const Config& config, const LearnerContext& context)
    : BoxedLearner(config, context) {}

LogLinearCore::LogLinearCore(const LogLinearLearnerConfig& config, const LearnerContext& context)
    : RlsReadoutCore(config, context) {
  assert(validate(config, context).is_ok());
  cfg_.layer.seed = ctx_.seed;
  if (ctx_.n_features > 0) build(ctx_.n_features);
}

void LogLinearCore::build(std::size_t n_features) {
  ctx_.n_features = n_features;
  layer_ = LogLinearAttention(cfg_.layer);
  Xorshift64 rng(cfg_.layer.seed ^ 0x5DEECE66Dull);
  const std::size_t cols = n_features + 1;
  w_in_.assign(cfg_.layer.d_model * cols, 0.0);
  const double s = 1.0 / std::sqrt(static_cast<double>(cols));
  for (double& w : w_in_) w = rng.normal() * s;
  scaler_ = WelfordNormalizer(n_features);
  y_stats_ = WelfordNormalizer(1);
  const std::size_t n_readout = n_features + cfg_.layer.d_value + 1;
  head_ = RlsHead(ctx_.task, ctx_.n_classes, n_readout, cfg_.rls);
  z_.assign(cols, 1.0);
  u_.assign(cfg_.layer.d_model, 0.0);
  target_.assign(cfg_.layer.d_value, 0.0);
  features_.assign(n_readout, 0.0);
  features_.back() = 1.0;
  guard_.reset();
  if (cfg_.continual.enabled()) {
    // validate() accepted the configuration, so make() cannot fail here.
    auto g = GradientContinual::make(cfg_.continual, layer_.n_params(), cfg_.layer.d_model);
    if (g.is_ok()) guard_ = std::move(g).value();
  }
  built_ = true;
}

void LogLinearCore::train_guarded(std::span<double> out) {
  if (!layer_.forward_and_gradient(u_, target_, out)) return;
  std::span<double> params = guard_->params(), grads = guard_->grads();
  layer_.copy_params(params);
  layer_.dense_gradient(u_, grads);
  const double lr = layer_.config().learning_rate;
  guard_->set_step_size(lr);
  guard_->pre_update();
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * grads[i];
  guard_->post_update();
  layer_.set_params(params);
  double loss = 0.0;
  for (std::size_t c = 0; c < target_.size(); ++c) loss += 0.5 * (out[c] - target_[c]) * (out[c] - target_[c]);
  guard_->observe_loss(loss);
}

void LogLinearCore::input(std::span<const double> x) const {
  const std::size_t nf = ctx_.n_features;
  scaler_.normalize(x, std::span<double>(z_).first(nf));
  for (std::size_t i = 0; i < nf; ++i)
    z_[i] = std::isfinite(z_[i]) ? std::clamp(z_[i], -kInputClamp, kInputClamp) : 0.0;
  matvec(w_in_.data(), z_.data(), u_.data(), cfg_.layer.d_model, nf + 1);
  std::copy_n(z_.begin(), nf, features_.begin());
}

bool LogLinearCore::try_build(std::size_t n_features) {
  if (ctx_.n_features != 0 || n_features > kLogLinearMaxFeatures) return false;
  build(n_features);
  return true;
}

void LogLinearCore::advance(std::span<const double> x, double y, double weight) {
  input(x);
  std::span<double> o(features_.data() + ctx_.n_features, cfg_.layer.d_value);
  const bool good = weight_admissible(weight) && target_admissible(y, ctx_.task, ctx_.n_classes);
  if (good && ctx_.task == Task::kRegression) {
    const double sd = std::sqrt(y_stats_.variance(0) + 1e-12);
    const double ys = y_stats_.count(0) < 2 ? 0.0 : (y - y_stats_.mean(0)) / sd;
    std::fill(target_.begin(), target_.end(), std::tanh(0.5 * ys));
  } else if (good) {
    const auto cls = static_cast<std::size_t>(y);
    for (std::size_t c = 0; c < target_.size(); ++c) target_[c] = c % ctx_.n_classes == cls ? 0.5 : -0.5;
  }
  if (good && guard_) {
    train_guarded(o);
  } else if (good) {
    layer_.train_one(u_, target_, o);
  } else {
    layer_.forward(u_, o);
  }
  scaler_.update(x);
  // Same condition as the readout's (RlsReadoutCore::learn_one): the
  // target statistics follow exactly the targets the readout trains on.
  if (good && ctx_.task == Task::kRegression) y_stats_.update(std::span<const double>(&y, 1));
}

void LogLinearCore::peek_features(std::span<const double> x) const {
  input(x);
  layer_.peek(u_, std::span<double>(features_.data() + ctx_.n_features, cfg_.layer.d_value));
}

std::size_t LogLinearCore::extractor_memory_bytes() const {
  // The layer and the readout already lie inside sizeof(*this): count only
  // what they own beyond it.
  return layer_.memory_bytes() - sizeof(layer_) - sizeof(head_) +
         (w_in_.capacity() + z_.capacity() + u_.capacity() + target_.capacity()) * sizeof(double) +
         (scaler_.dim() + 1) * 3 * sizeof(double) + (guard_ ? guard_->memory_bytes() : 0);
}

// 1: u8 task, u64 classes and width, RLS lambda and delta, then the state.
// 2: as 1 with the continual configuration after the RLS fields (and the
//    guard's state at the end).
// 3: the settings by name and the learner context, then the state.
// The state: built flag, count, then the layer alone before the first sample
// (its configuration carries the constants the table does not list), or the
// whole learner after it.
// 4: as 3, but the layer's configuration is derived from the settings and
// the context's seed, as for a new learner: nothing before the first
// sample, and the layer's weights and state alone after it.
constexpr std::uint32_t kLogLinearRecordVersion = 4;

void LogLinearCore::encode(ByteWriter& out) const {
  out.u32(kLogLinearRecordVersion);
  encode_config(config_fields(), cfg_, out);
  encode_context(ctx_, out);
  out.boolean(built_);
  out.u64(n_seen_);
  if (!built_) return;
  out.f64s(w_in_);
  for (const WelfordNormalizer* w : {&scaler_, &y_stats_}) {
    out.u64s(w->counts());
    out.f64s(w->means());
    out.f64s(w->m2s());
  }
  layer_.encode(out);
  head_.encode(out);
  if (guard_) guard_->encode_state(out);
}

Status LogLinearCore::decode(ByteReader& in) {
  const std::uint32_t record = in.u32("loglinear learner version");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  if (record < 1 || record > kLogLinearRecordVersion)
    return Status::corruption("loglinear learner: unsupported version");
  LogLinearLearnerConfig c;
  LearnerContext context;
  const bool derived = record == kLogLinearRecordVersion;  // the layer's configuration from the settings
  if (record >= 3) {
    IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, c));
    IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
    c.continual.seed = context.seed;
    c.layer.seed = context.seed;
  } else {
    const std::uint8_t task = in.u8("task");
    const std::uint64_t classes = in.u64("n_classes");
    context.n_features = in.u64("n_features");
    c.rls.forgetting_factor = in.f64("rls lambda");
    c.rls.delta = in.f64("rls delta");
    if (record == 2 && in.ok()) {
      auto cc = decode_continual_config(in);
      if (!cc.is_ok()) return cc.status();
      c.continual = *cc;
    }
    IRITHYLL_RETURN_IF_ERROR(in.status());
    if (task > 1) return Status::corruption("loglinear learner: bad task");
    context.task = static_cast<Task>(task);
    context.n_classes = context.task == Task::kClassification ? classes : 0;
  }
  const bool built = in.boolean("built");
  const std::uint64_t n_seen = in.u64("n_seen");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  if (context.task != Task::kClassification && context.n_classes != 0)
    return Status::corruption("loglinear learner: a regressor with classes");
  if (built && context.n_features == 0) return Status::corruption("loglinear learner: built without features");
  // Before version 4 the layer's record carries its whole configuration; in
  // version 3 it must print every setting as the settings did and carry the
  // context's seed (older records take the seed from it).
  const auto adopt_layer = [&](const LogLinearConfig& layer) -> Status {
    if (record >= 3) {
      LogLinearLearnerConfig full = c;
      full.layer = layer;
      for (const auto& f : config_fields())
        if (f.get(full) != f.get(c))
          return Status::corruption("loglinear learner: the layer does not match setting " + std::string(f.info.name));
      if (layer.seed != context.seed)
        return Status::corruption("loglinear learner: the layer's seed is not the context's");
    } else {
      context.seed = layer.seed;
    }
    c.layer = layer;
    if (Status s = validate(c, context); !s.is_ok()) return Status::corruption(s.message());
    return Status::ok();
  };
  LogLinearCore fresh;
  if (!built) {
    if (derived) {
      IRITHYLL_RETURN_IF_ERROR(adopt_layer(c.layer));
    } else {
      LogLinearAttention layer;
      IRITHYLL_RETURN_IF_ERROR(layer.decode(in, c.layer));
      IRITHYLL_RETURN_IF_ERROR(adopt_layer(layer.config()));
    }
    fresh.cfg_ = c;
    fresh.ctx_ = context;
    fresh.n_seen_ = n_seen;
    *this = std::move(fresh);
    return Status::ok();
  }
  const std::size_t nf = context.n_features;
  if (nf > kLogLinearMaxFeatures) return Status::corruption("loglinear learner: too many features");
  auto w_in = in.f64s("input projection");
  std::vector<std::uint64_t> counts[2];
  std::vector<double> means[2], m2s[2];
  for (int i = 0; i < 2; ++i) {
    counts[i] = in.u64s("counts");
    means[i] = in.f64s("means");
    m2s[i] = in.f64s("m2");
  }
  LogLinearAttention layer;
  IRITHYLL_RETURN_IF_ERROR(in.status());
  IRITHYLL_RETURN_IF_ERROR(layer.decode(in, c.layer));
  IRITHYLL_RETURN_IF_ERROR(adopt_layer(layer.config()));
  if (w_in.size() != c.layer.d_model * (nf + 1) || counts[0].size() != nf || means[0].size() != nf ||
      m2s[0].size() != nf ||
      counts[1].size() != 1 || means[1].size() != 1 || m2s[1].size() != 1)
    return Status::corruption("loglinear learner: wrong array lengths");
  if (!all_within(w_in) || !WelfordNormalizer::valid_state(counts[0], means[0], m2s[0]) ||
      !WelfordNormalizer::valid_state(counts[1], means[1], m2s[1]))
    return Status::corruption("loglinear learner: non-finite input projection or statistics");
  fresh.cfg_ = c;
  fresh.ctx_ = context;
  fresh.build(nf);
  fresh.w_in_ = std::move(w_in);
  WelfordNormalizer* ws[2] = {&fresh.scaler_, &fresh.y_stats_};
  for (int i = 0; i < 2; ++i) {
    ws[i]->counts() = std::move(counts[i]);
    ws[i]->means() = std::move(means[i]);
    ws[i]->m2s() = std::move(m2s[i]);
  }
  fresh.layer_ = std::move(layer);
  IRITHYLL_RETURN_IF_ERROR(fresh.head_.decode(in, fresh.features_.size()));
  if (fresh.guard_) IRITHYLL_RETURN_IF_ERROR(fresh.guard_->decode_state(in));
  fresh.n_seen_ = n_seen;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::LogLinearCore, nn::LogLinearLearnerConfig>;
}  // namespace irithyll
