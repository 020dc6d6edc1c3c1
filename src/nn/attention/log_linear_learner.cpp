#include "irithyll/nn/attention/log_linear_learner.hpp"

#include <algorithm>
#include <cmath>
#include <cassert>

#include "nn/attention/log_linear_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "irithyll/core/rng.hpp"
#include "nn/kernels.hpp"

namespace irithyll::nn {

namespace {
constexpr std::size_t kMaxFeatures = 1u << 16;
}

Status LogLinearLearner::validate(const LogLinearLearnerConfig& c) {
  if (c.task == Task::kClassification && (c.n_classes < 2 || c.n_classes > 4096))
    return Status::invalid_argument("loglinear learner: classification needs 2..4096 classes");
  if (c.n_features > kMaxFeatures) return Status::invalid_argument("loglinear learner: too many features");
  IRITHYLL_RETURN_IF_ERROR(check_rls_config("loglinear learner", c.rls));
  IRITHYLL_RETURN_IF_ERROR(c.continual.validate());
  return c.layer.validate();
}

Result<LogLinearLearner> LogLinearLearner::make(const LogLinearLearnerConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(validate(config));
  return LogLinearLearner(config);
}

LogLinearCore::LogLinearCore(const LogLinearLearnerConfig& config) : RlsReadoutLearner(config) {
  assert(validate(config).is_ok());
  if (cfg_.n_features > 0) build(cfg_.n_features);
}

void LogLinearCore::build(std::size_t n_features) {
  cfg_.n_features = n_features;
  layer_ = LogLinearAttention(cfg_.layer);
  Xorshift64 rng(cfg_.layer.seed ^ 0x5DEECE66Dull);
  const std::size_t cols = n_features + 1;
  w_in_.assign(cfg_.layer.d_model * cols, 0.0);
  const double s = 1.0 / std::sqrt(static_cast<double>(cols));
  for (double& w : w_in_) w = rng.normal() * s;
  scaler_ = WelfordNormalizer(n_features);
  y_stats_ = WelfordNormalizer(1);
  const std::size_t n_readout = n_features + cfg_.layer.d_value + 1;
  head_ = RlsHead(cfg_.task, cfg_.n_classes, n_readout, cfg_.rls);
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
  const std::size_t nf = cfg_.n_features;
  scaler_.normalize(x, std::span<double>(z_).first(nf));
  for (std::size_t i = 0; i < nf; ++i)
    z_[i] = std::isfinite(z_[i]) ? std::clamp(z_[i], -kInputClamp, kInputClamp) : 0.0;
  matvec(w_in_.data(), z_.data(), u_.data(), cfg_.layer.d_model, nf + 1);
  std::copy_n(z_.begin(), nf, features_.begin());
}

bool LogLinearCore::try_build(std::size_t n_features) {
  if (cfg_.n_features != 0 || n_features > kMaxFeatures) return false;
  build(n_features);
  return true;
}

void LogLinearCore::advance(std::span<const double> x, double y, double weight) {
  input(x);
  std::span<double> o(features_.data() + cfg_.n_features, cfg_.layer.d_value);
  const bool good = weight_admissible(weight) && target_admissible(y, cfg_.task, cfg_.n_classes);
  if (good && cfg_.task == Task::kRegression) {
    const double sd = std::sqrt(y_stats_.variance(0) + 1e-12);
    const double ys = y_stats_.count(0) < 2 ? 0.0 : (y - y_stats_.mean(0)) / sd;
    std::fill(target_.begin(), target_.end(), std::tanh(0.5 * ys));
  } else if (good) {
    const auto cls = static_cast<std::size_t>(y);
    for (std::size_t c = 0; c < target_.size(); ++c) target_[c] = c % cfg_.n_classes == cls ? 0.5 : -0.5;
  }
  if (good && guard_) {
    train_guarded(o);
  } else if (good) {
    layer_.train_one(u_, target_, o);
  } else {
    layer_.forward(u_, o);
  }
  scaler_.update(x);
  // Same condition as the readout's (RlsReadoutLearner::learn_one): the
  // target statistics follow exactly the targets the readout trains on.
  if (good && cfg_.task == Task::kRegression) y_stats_.update(std::span<const double>(&y, 1));
}

void LogLinearCore::peek_features(std::span<const double> x) const {
  input(x);
  layer_.peek(u_, std::span<double>(features_.data() + cfg_.n_features, cfg_.layer.d_value));
}

std::size_t LogLinearCore::extractor_memory_bytes() const {
  // The layer and the readout already lie inside sizeof(*this): count only
  // what they own beyond it.
  return layer_.memory_bytes() - sizeof(layer_) - sizeof(head_) +
         (w_in_.capacity() + z_.capacity() + u_.capacity() + target_.capacity()) * sizeof(double) +
         (scaler_.dim() + 1) * 3 * sizeof(double) + (guard_ ? guard_->memory_bytes() : 0);
}

void LogLinearCore::encode(ByteWriter& out) const {
  // Version 2 adds the continual configuration (and, when built, the guard's
  // state at the end); without continual learning the bytes are version 1's.
  const bool continual = cfg_.continual.enabled();
  out.u32(continual ? 2 : 1);
  out.u8(static_cast<std::uint8_t>(cfg_.task));
  out.u64(cfg_.n_classes);
  out.u64(cfg_.n_features);
  out.f64(cfg_.rls.forgetting_factor);
  out.f64(cfg_.rls.delta);
  if (continual) encode_continual_config(cfg_.continual, out);
  out.boolean(built_);
  out.u64(n_seen_);
  if (!built_) {
    // Only the layer's configuration matters before the first sample.
    LogLinearAttention(cfg_.layer).encode(out);
    return;
  }
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
  if (record != 1 && record != 2) in.fail("loglinear learner: unsupported version");
  LogLinearLearnerConfig c;
  const std::uint8_t task = in.u8("task");
  c.n_classes = in.u64("n_classes");
  c.n_features = in.u64("n_features");
  c.rls.forgetting_factor = in.f64("rls lambda");
  c.rls.delta = in.f64("rls delta");
  if (record == 2 && in.ok()) {
    auto cc = decode_continual_config(in);
    if (!cc.is_ok()) return cc.status();
    c.continual = *cc;
  }
  const bool built = in.boolean("built");
  const std::uint64_t n_seen = in.u64("n_seen");
  IRITHYLL_RETURN_IF_ERROR(in.status());
  if (task > 1) return Status::corruption("loglinear learner: bad task");
  c.task = static_cast<Task>(task);
  if (built && c.n_features == 0) return Status::corruption("loglinear learner: built without features");
  LogLinearCore fresh;
  if (!built) {
    LogLinearAttention layer;
    IRITHYLL_RETURN_IF_ERROR(layer.decode(in));
    c.layer = layer.config();
    if (Status s = validate(c); !s.is_ok()) return Status::corruption(s.message());
    fresh.cfg_ = c;
    fresh.n_seen_ = n_seen;
    *this = std::move(fresh);
    return Status::ok();
  }
  const std::size_t nf = c.n_features;
  if (nf > kMaxFeatures) return Status::corruption("loglinear learner: too many features");
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
  IRITHYLL_RETURN_IF_ERROR(layer.decode(in));
  c.layer = layer.config();
  if (Status s = validate(c); !s.is_ok()) return Status::corruption(s.message());
  if (w_in.size() != c.layer.d_model * (nf + 1) || counts[0].size() != nf || means[0].size() != nf ||
      m2s[0].size() != nf ||
      counts[1].size() != 1 || means[1].size() != 1 || m2s[1].size() != 1)
    return Status::corruption("loglinear learner: wrong array lengths");
  fresh.cfg_ = c;
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
