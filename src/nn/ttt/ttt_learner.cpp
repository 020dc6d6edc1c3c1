#include "irithyll/nn/ttt/ttt_learner.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/sanitize_input.hpp"
#include "nn/ttt/ttt_core.hpp"

namespace irithyll::nn {

namespace {
constexpr double kTiny = 1e-10;          // below this the long-run residual RMS is "not yet known"
constexpr double kNoiseAvgRate = 0.001;  // EWMA weight of the long-run residual RMS
constexpr double kSurgeRate = 0.1;       // EWMA weight of the short-run squared error
constexpr double kMinForgetting = 0.95;  // the readout's lambda is never lowered below this
}  // namespace

Status TttLearner::validate(const Config& c, const LearnerContext& context) {
  if (context.task == Task::kClassification && (context.n_classes < 2 || context.n_classes > 1024))
    return Status::invalid_argument("ttt: classification needs 2..1024 classes");
  if (c.d_model == 0 || c.d_model > 1024) return Status::invalid_argument("ttt: d-model must be in 1..1024");
  if (!(c.eta >= 0.0) || !std::isfinite(c.eta)) return Status::invalid_argument("ttt: eta must be finite and >= 0");
  if (!(c.alpha >= 0.0 && c.alpha <= 1.0)) return Status::invalid_argument("ttt: alpha must be in [0, 1]");
  if (!(c.momentum >= 0.0 && c.momentum < 1.0)) return Status::invalid_argument("ttt: momentum must be in [0, 1)");
  if (c.batch_size == 0 || c.batch_size > 100000) return Status::invalid_argument("ttt: batch-size must be in 1..100000");
  if (context.n_features > 4096) return Status::invalid_argument("ttt: too many features");
  // Bounds what a record can make the learner allocate: the readout holds
  // K (d+m+1)^2 doubles for K heads, the projections 3 d m.
  constexpr std::size_t kMaxDoubles = std::size_t{1} << 25;  // 256 MiB each
  const std::size_t heads = context.task == Task::kClassification ? context.n_classes : 1;
  const std::size_t width = c.d_model + context.n_features + 1;
  if (heads * width * width > kMaxDoubles || 3 * c.d_model * context.n_features > kMaxDoubles)
    return Status::invalid_argument("ttt: d-model too large for this many classes or features");
  return check_rls_config(kName, c.rls);
}

Result<std::unique_ptr<TttLearner>> TttLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<TttLearner>(config, context);
}

TttLearner::TttLearner(const Config& config, const LearnerContext& context) : BoxedLearner(config, context) {}

TttCore::TttCore(const TttLearnerConfig& config, const LearnerContext& context) : RlsReadoutCore(config, context) {
  if (ctx_.n_features > 0) (void)build(ctx_.n_features);
}

Status TttCore::build(std::size_t n_features) {
  const TttLearnerConfig& c = cfg_;
  LearnerContext width = ctx_;
  width.n_features = n_features;
  IRITHYLL_RETURN_IF_ERROR(TttLearner::validate(c, width));
  ctx_.n_features = n_features;
  layer_ = FastWeightLayer(c.d_model, n_features, c.alpha, c.momentum, c.batch_size > 1, ctx_.seed);
  head_ = RlsHead(ctx_.task, ctx_.n_classes, c.d_model + n_features + 1, c.rls);
  xin_.assign(n_features, 0.0);
  features_.assign(c.d_model + n_features + 1, 0.0);
  noise_avg_ = 0.0;
  surge_ms_ = 0.0;
  proj_lr_ = c.eta / 10.0;
  tau_ = std::max(static_cast<double>(c.d_model * n_features), 1.0);
  proj_steps_ = 0;
  n_surges_ = 0;
  in_surge_ = false;
  built_ = true;
  return Status::ok();
}

double TttCore::readout_noise() const noexcept {
  const std::size_t k = head_.n_heads();
  if (k == 0) return 0.0;
  double s = 0.0;
  for (std::size_t i = 0; i < k; ++i) s += head_.head(i).residual_variance();
  return s / static_cast<double>(k);
}

double TttCore::readout_error(double y, std::span<const double>& weights) const noexcept {
  if (ctx_.task != Task::kClassification) {
    const RecursiveLeastSquares& h = head_.head(0);
    weights = h.weights();
    return y - h.predict(features_);
  }
  const RecursiveLeastSquares& h = head_.head(static_cast<std::size_t>(y));
  weights = h.weights();
  return 1.0 - h.predict(features_);
}

void TttCore::advance(std::span<const double> x, double y, double) {
  const TttLearnerConfig& c = cfg_;
  const std::size_t d = c.d_model;
  const std::span<double> z(features_.data(), d);
  sanitize_input(x, xin_);
  std::copy(xin_.begin(), xin_.end(), features_.begin() + static_cast<std::ptrdiff_t>(d));
  features_.back() = 1.0;
  // Noise-scaled step size and readout memory: both follow the ratio of the
  // readout's current residual RMS to its long-run level, so W learns faster
  // and the readout forgets faster while the stream is harder than usual.
  const double noise = std::sqrt(std::max(readout_noise(), 0.0));
  noise_avg_ = (1.0 - kNoiseAvgRate) * noise_avg_ + kNoiseAvgRate * noise;
  double eta = c.eta;
  if (noise_avg_ > kTiny) {
    const double ratio = noise / noise_avg_;
    eta *= std::clamp(ratio, 0.5, 2.0);
    const double lambda = c.rls.forgetting_factor;
    head_.set_forgetting_factor(
        std::clamp(lambda - 0.02 * (std::clamp(ratio, 0.5, 3.0) - 1.0), std::min(kMinForgetting, lambda), lambda));
  }
  layer_.prepare(xin_);
  // The current sample's own error, from the representation predict_one
  // gives for x, directs W's step once the readout has trained.
  bool directed = false;
  double e = 0.0;
  if (head_.head(0).n_updates() > 0 && target_admissible(y, ctx_.task, ctx_.n_classes)) {
    layer_.output(z);
    std::span<const double> w;
    e = readout_error(y, w);
    if (std::isfinite(e)) {
      directed = true;
      surge_ms_ = (1.0 - kSurgeRate) * surge_ms_ + kSurgeRate * e * e;
      const bool above = noise_avg_ > kTiny && std::sqrt(surge_ms_) > kSurgeRatio * noise_avg_;
      if (above && !in_surge_) {
        // An error surge (a drift): what W memorised no longer applies. It
        // is cleared when the short-run error first crosses the threshold,
        // not again on every sample while the readout catches up.
        layer_.reset_fast_weights();
        ++n_surges_;
      }
      in_surge_ = above;
    }
  }
  layer_.step(eta, directed, e);
  if (layer_.batch() && layer_.batch_count() >= c.batch_size) layer_.flush(eta);
  layer_.output(z);
}

void TttCore::update_readout(double y) {
  head_.update(features_, y);
  if (!(proj_lr_ > kTiny)) return;
  std::span<const double> w;
  const double e = readout_error(y, w);
  layer_.projection_step(e, w, proj_lr_);
  ++proj_steps_;
  // Robbins-Monro: sum of rates diverges, sum of squares converges.
  proj_lr_ = cfg_.eta / 10.0 / (1.0 + static_cast<double>(proj_steps_) / tau_);
}

void TttCore::peek_features(std::span<const double> x) const {
  sanitize_input(x, const_cast<std::vector<double>&>(xin_));
  layer_.prepare(xin_);
  layer_.output(std::span<double>(features_.data(), cfg_.d_model));
  std::copy(xin_.begin(), xin_.end(), features_.begin() + static_cast<std::ptrdiff_t>(cfg_.d_model));
  features_.back() = 1.0;
}

std::size_t TttCore::extractor_memory_bytes() const {
  return layer_.memory_bytes() + xin_.capacity() * sizeof(double);
}

void TttCore::encode(ByteWriter& out) const {
  out.u32(kRecordVersion);
  encode_config(TttLearner::config_fields(), cfg_, out);
  encode_context(ctx_, out);
  encode_state(out);
}

void TttCore::encode_extractor(ByteWriter& out) const {
  layer_.encode(out);
  out.f64(noise_avg_);
  out.f64(surge_ms_);
  out.f64(proj_lr_);
  out.u64(proj_steps_);
  out.u64(n_surges_);
  out.boolean(in_surge_);
}

Status TttCore::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("ttt record version");
  if (!in.ok()) return in.status();
  if (version != kRecordVersion) return Status::corruption("ttt: unsupported record version");
  TttLearnerConfig c;
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, TttLearner::config_fields(), in, c));
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  if (context.task != Task::kClassification && context.n_classes != 0)
    return Status::corruption("ttt: a regressor with classes");
  const std::uint64_t n_seen = in.u64("ttt samples seen");
  const bool built = in.boolean("ttt built");
  if (!in.ok()) return in.status();
  if (Status s = TttLearner::validate(c, context); !s.is_ok())
    return Status::corruption("ttt: decoded settings are invalid: " + s.message());
  return decode_state(c, context, n_seen, built, in);
}

// RecursiveLeastSquares::decode already refused weights beyond 1e100, a
// non-finite P and a bad residual variance; what is left is TTT's own: the
// read-out's settings and the bound its forgetting keeps on P's diagonal.
Status TttCore::check_readout() const {
  for (std::size_t k = 0; k < head_.n_heads(); ++k) {
    const RecursiveLeastSquares& h = head_.head(k);
    const double cap = static_cast<double>(h.n_inputs()) * h.config().delta * (1.0 + 1e-9);
    if (!(h.config().forgetting_factor >= std::min(kMinForgetting, cfg_.rls.forgetting_factor) &&
          h.config().forgetting_factor <= cfg_.rls.forgetting_factor) ||
        h.config().delta != cfg_.rls.delta)
      return Status::corruption("ttt: readout settings do not match the configuration");
    const std::span<const double> pm = h.covariance();
    const std::size_t n = h.n_inputs();
    for (std::size_t i = 0; i < pm.size(); ++i) {
      const bool diagonal = i % (n + 1) == 0;
      if (!std::isfinite(pm[i]) || (diagonal && !(pm[i] >= 0.0 && pm[i] <= cap)))
        return Status::corruption("ttt: readout covariance out of range");
    }
  }
  return Status::ok();
}

Status TttCore::decode_extractor(ByteReader& in) {
  IRITHYLL_RETURN_IF_ERROR(layer_.decode(in));
  const double noise_avg = in.f64("ttt noise average");
  const double surge = in.f64("ttt surge tracker");
  const double lr = in.f64("ttt projection lr");
  const std::uint64_t steps = in.u64("ttt projection steps");
  const std::uint64_t surges = in.u64("ttt surge count");
  const bool in_surge = in.boolean("ttt in surge");
  if (!in.ok()) return in.status();
  if (!(noise_avg >= 0.0) || !std::isfinite(noise_avg) || !(surge >= 0.0) || !std::isfinite(surge) ||
      !(lr >= 0.0 && lr <= cfg_.eta / 10.0))
    return Status::corruption("ttt: trackers out of range");
  if (layer_.batch_count() >= std::max<std::size_t>(cfg_.batch_size, 1) && layer_.batch())
    return Status::corruption("ttt: batch count past the batch size");
  noise_avg_ = noise_avg;
  surge_ms_ = surge;
  proj_lr_ = lr;
  proj_steps_ = steps;
  n_surges_ = surges;
  in_surge_ = in_surge;
  return Status::ok();
}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::TttCore, nn::TttLearnerConfig>;
}  // namespace irithyll
