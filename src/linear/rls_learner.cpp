#include "irithyll/linear/rls_learner.hpp"

#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"
#include "readout/rls.hpp"

namespace irithyll {

RlsLearner::RlsLearner() = default;
RlsLearner::~RlsLearner() = default;

std::span<const ConfigField<RlsLearnerConfig>> RlsLearner::config_fields() {
  using C = RlsLearnerConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::real("forgetting-factor", "0.999", "lambda: memory about 1/(1 - lambda) samples; 1 never forgets")
           .in(kMinForgettingFactor, 1),
       IRITHYLL_FIELD_REAL(C, forgetting_factor)},
      {FieldInfo::real("delta", "100", "initial covariance P = delta I (ridge penalty 1/delta)").in(kMinRlsDelta, kMaxRlsDelta),
       IRITHYLL_FIELD_REAL(C, delta)},
      {FieldInfo::boolean("intercept", "on", "fit an intercept"), IRITHYLL_FIELD_BOOL(C, intercept)},
      {FieldInfo::boolean("standardize", "on", "standardise features with a running mean and variance"),
       IRITHYLL_FIELD_BOOL(C, standardize)},
  };
  return rows;
}

Status RlsLearner::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  context_ = context;
  width_ = 0;
  rls_.reset();
  u_.clear();
  scaler_.resize(0, config.standardize);
  seen_ = skipped_ = 0;
  width_ = context.n_features;  // the filter comes with the first admitted sample
  return Status::ok();
}

void RlsLearner::allocate(std::size_t width) {
  width_ = width;
  const std::size_t n = width + (config_.intercept ? 1 : 0);
  rls_ = std::make_unique<RecursiveLeastSquares>(n, RlsConfig{config_.forgetting_factor, config_.delta});
  u_.assign(n, 0.0);
  scaler_.resize(width, config_.standardize);
}

Result<std::unique_ptr<RlsLearner>> RlsLearner::make(const Config& config, const LearnerContext& context) {
  if (context.task != Task::kRegression) return Status::invalid_argument("rls: a regressor");
  auto out = std::make_unique<RlsLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

void RlsLearner::augment(std::span<const double> x) const {
  scaler_.transform(x, std::span<double>(u_).first(width_));
  if (config_.intercept) u_[width_] = 1.0;
}

void RlsLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, Task::kRegression, 0)) {
    ++skipped_;
    return;
  }
  if (!rls_) allocate(width_ == 0 ? x.size() : width_);
  scaler_.learn(x, weight);
  augment(x);
  const double root = std::sqrt(weight);
  if (root != 1.0)
    for (double& v : u_) v *= root;
  rls_->update(u_, y * root);
}

double RlsLearner::predict_one(std::span<const double> x) const {
  if (!rls_ || x.size() != width_) return 0.0;
  augment(x);
  const double p = rls_->predict(u_);
  return std::isfinite(p) ? p : 0.0;
}

void RlsLearner::reset() {
  const Config config = config_;
  const LearnerContext context = context_;
  (void)init(config, context);
}

std::span<const double> RlsLearner::coefficients() const {
  return rls_ ? rls_->weights() : std::span<const double>();
}

std::size_t RlsLearner::memory_bytes() const {
  return sizeof(*this) + scaler_.memory_bytes() + u_.capacity() * sizeof(double) + (rls_ ? rls_->memory_bytes() : 0);
}

void RlsLearner::encode(ByteWriter& out) const {
  out.u8(1);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.boolean(rls_ != nullptr);
  if (rls_) rls_->encode(out);
  scaler_.encode(out);
  out.u64(seen_);
  out.u64(skipped_);
}

Status RlsLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("rls version");
  if (in.ok() && version != 1) return Status::corruption("rls: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  if (context.task != Task::kRegression) return Status::corruption("rls: checkpoint is not a regressor");
  const std::uint64_t width = in.u64("rls width");
  const bool learned = in.boolean("rls learned");
  if (!in.ok()) return in.status();
  if (width > (1u << 24) || (context.n_features != 0 && width != context.n_features) || (learned && width == 0))
    return Status::corruption("rls: width out of range");
  // A learned filter's P (read from the record) bounds the width.
  RecursiveLeastSquares filter;
  if (learned) {
    IRITHYLL_RETURN_IF_ERROR(filter.decode(in));
    const std::size_t n = width + (config.intercept ? 1 : 0);
    if (filter.n_inputs() != n || filter.config().forgetting_factor != config.forgetting_factor ||
        filter.config().delta != config.delta)
      return Status::corruption("rls: filter does not match the settings");
    for (double v : filter.weights())
      if (!std::isfinite(v)) return Status::corruption("rls: non-finite coefficient");
  }
  Standardizer scaler;
  IRITHYLL_RETURN_IF_ERROR(scaler.decode(in, learned ? width : 0, config.standardize));
  const std::uint64_t seen = in.u64("rls seen");
  const std::uint64_t skipped = in.u64("rls skipped");
  if (!in.ok()) return in.status();
  if (skipped > seen) return Status::corruption("rls: more skipped than seen");
  IRITHYLL_RETURN_IF_ERROR(init(config, context));
  width_ = width;
  if (learned) {
    allocate(width);
    *rls_ = std::move(filter);
  }
  scaler_ = std::move(scaler);
  seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
