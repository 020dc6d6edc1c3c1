#include "irithyll/linear/margin_linear.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {
namespace {

Result<PaMode> parse_mode(std::string_view v) {
  if (v == "pa") return PaMode::kPa;
  if (v == "pa-i") return PaMode::kPa1;
  if (v == "pa-ii") return PaMode::kPa2;
  return Status::invalid_argument("mode '" + std::string(v) + "' is not one of pa|pa-i|pa-ii");
}
std::string_view mode_name(PaMode m) { return m == PaMode::kPa ? "pa" : m == PaMode::kPa2 ? "pa-ii" : "pa-i"; }

double squared_norm(std::span<const double> z) {
  double s = 0.0;
  for (double v : z) s += v * v;
  return s;
}

}  // namespace

// ---- shared ------------------------------------------------------------

void MarginLinear::link(std::span<const double> scores, std::span<double> proba) const {
  if (scores.size() == 1) {
    const double p = logistic(scores[0]);
    proba[0] = 1.0 - p, proba[1] = p;
    return;
  }
  double total = 0.0;
  for (std::size_t c = 0; c < proba.size(); ++c) total += proba[c] = logistic(scores[c]);
  for (double& p : proba) p = total > 0.0 ? p / total : 1.0 / static_cast<double>(proba.size());
}

template <class Config>
void MarginLinear::encode_record(std::span<const ConfigField<Config>> fields, const Config& config,
                                 ByteWriter& out) const {
  out.u8(1);
  encode_config(fields, config, out);
  encode_context(context_, out);
  encode_core(out);
}

template <class Config>
Status MarginLinear::decode_head(std::span<const ConfigField<Config>> fields, ByteReader& in, Config& config,
                                 LearnerContext& context) const {
  const std::uint8_t version = in.u8("margin version");
  if (in.ok() && version != 1)
    return Status::corruption(std::string(name()) + ": unknown record version " + std::to_string(version));
  IRITHYLL_RETURN_IF_ERROR(decode_config(name(), fields, in, config));
  return decode_context(in, context);
}

// ---- passive-aggressive --------------------------------------------------

std::span<const ConfigField<PassiveAggressiveConfig>> PassiveAggressiveLearner::config_fields() {
  using C = PassiveAggressiveConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::choice("mode", "pa-i", "pa|pa-i|pa-ii", "step rule: PA (no bound), PA-I (step <= C), PA-II (soft)"),
       IRITHYLL_FIELD_ENUM(C, mode, parse_mode, mode_name)},
      {FieldInfo::real("c", "1", "aggressiveness C of PA-I and PA-II").in(0, 1e6, true), IRITHYLL_FIELD_REAL(C, c)},
      {FieldInfo::real("epsilon", "0.1", "regression: errors up to epsilon cost nothing").in(0, 1e6),
       IRITHYLL_FIELD_REAL(C, epsilon)},
      {FieldInfo::boolean("intercept", "on", "fit an intercept"), IRITHYLL_FIELD_BOOL(C, intercept)},
      {FieldInfo::boolean("standardize", "on", "standardise features with a running mean and variance"),
       IRITHYLL_FIELD_BOOL(C, standardize)},
  };
  return rows;
}

Status PassiveAggressiveLearner::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  setup(context, outputs_for(context), 0, 0, config.standardize);
  return Status::ok();
}

Result<std::unique_ptr<PassiveAggressiveLearner>> PassiveAggressiveLearner::make(const Config& config,
                                                                                 const LearnerContext& context) {
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument("passive_aggressive: classification needs at least 2 classes");
  auto out = std::make_unique<PassiveAggressiveLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

void PassiveAggressiveLearner::step(std::size_t k, std::span<const double> z, double direction, double loss,
                                    double sq, double weight) {
  if (!(loss > 0.0)) return;
  const double c = config_.c * weight;
  double tau;
  if (config_.mode == PaMode::kPa2) {
    tau = loss / (sq + 0.5 / c);
  } else {
    if (!(sq > 0.0)) return;  // z = 0: no direction to move in
    tau = loss / sq;
    if (config_.mode == PaMode::kPa1) tau = std::min(c, tau);
  }
  if (!std::isfinite(tau)) return;
  double* w = &w_[k * (width_ + 1)];
  const double u = tau * direction;
  for (std::size_t j = 0; j < width_; ++j) w[j] += u * z[j];
  if (config_.intercept) w[width_] += u;
  for (std::size_t j = 0; j <= width_; ++j)
    if (!std::isfinite(w[j])) w[j] = 0.0;  // a diverging step restarts the coefficient
}

void PassiveAggressiveLearner::update(std::span<const double> z, double y, double weight) {
  const double sq = squared_norm(z);
  if (context_.task == Task::kRegression) {
    const double r = y - score(0, z);
    step(0, z, r < 0.0 ? -1.0 : 1.0, std::fabs(r) - config_.epsilon, sq, weight);
    return;
  }
  for (std::size_t k = 0; k < n_out_; ++k) {
    const double label = sign_label(k, y);
    step(k, z, label, 1.0 - label * score(k, z), sq, weight);
  }
}

void PassiveAggressiveLearner::encode(ByteWriter& out) const { encode_record(config_fields(), config_, out); }

Status PassiveAggressiveLearner::decode(ByteReader& in) {
  Config config;
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_head(config_fields(), in, config, context));
  IRITHYLL_RETURN_IF_ERROR(init(config, context));
  return decode_core(in);
}

// ---- perceptron ------------------------------------------------------------

std::span<const ConfigField<PerceptronConfig>> PerceptronLearner::config_fields() {
  using C = PerceptronConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::real("learning-rate", "1", "step on a mistake").in(0, 1e6, true),
       IRITHYLL_FIELD_REAL(C, learning_rate)},
      {FieldInfo::boolean("intercept", "on", "fit an intercept"), IRITHYLL_FIELD_BOOL(C, intercept)},
      {FieldInfo::boolean("standardize", "on", "standardise features with a running mean and variance"),
       IRITHYLL_FIELD_BOOL(C, standardize)},
  };
  return rows;
}

Status PerceptronLearner::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  setup(context, outputs_for(context), 0, 0, config.standardize);
  return Status::ok();
}

Result<std::unique_ptr<PerceptronLearner>> PerceptronLearner::make(const Config& config,
                                                                   const LearnerContext& context) {
  if (context.task != Task::kClassification || context.n_classes < 2)
    return Status::invalid_argument("perceptron: a classifier (at least 2 classes)");
  auto out = std::make_unique<PerceptronLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

void PerceptronLearner::update(std::span<const double> z, double y, double weight) {
  for (std::size_t k = 0; k < n_out_; ++k) {
    const double label = sign_label(k, y);
    if (label * score(k, z) > 0.0) continue;
    double* w = &w_[k * (width_ + 1)];
    const double u = config_.learning_rate * weight * label;
    for (std::size_t j = 0; j < width_; ++j) w[j] += u * z[j];
    if (config_.intercept) w[width_] += u;
    for (std::size_t j = 0; j <= width_; ++j)
      if (!std::isfinite(w[j])) w[j] = 0.0;
  }
}

void PerceptronLearner::encode(ByteWriter& out) const { encode_record(config_fields(), config_, out); }

Status PerceptronLearner::decode(ByteReader& in) {
  Config config;
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_head(config_fields(), in, config, context));
  IRITHYLL_RETURN_IF_ERROR(init(config, context));
  return decode_core(in);
}

// ---- ALMA ------------------------------------------------------------------

std::span<const ConfigField<AlmaConfig>> AlmaLearner::config_fields() {
  using C = AlmaConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::real("p", "2", "norm order p of the inputs (the weights use q = p/(p-1))").in(2, 100),
       IRITHYLL_FIELD_REAL(C, p)},
      {FieldInfo::real("alpha", "0.9", "approximation: the margin sought is (1 - alpha) of the largest").in(0, 1, true),
       IRITHYLL_FIELD_REAL(C, alpha)},
      {FieldInfo::real("b", "1.1111111111111112", "margin scale B").in(0, 1e6, true), IRITHYLL_FIELD_REAL(C, b)},
      {FieldInfo::real("c", "1.4142135623730951", "step scale C").in(0, 1e6, true), IRITHYLL_FIELD_REAL(C, c)},
      {FieldInfo::boolean("intercept", "on", "fit an intercept (a constant input 1)"),
       IRITHYLL_FIELD_BOOL(C, intercept)},
      {FieldInfo::boolean("standardize", "on", "standardise features with a running mean and variance"),
       IRITHYLL_FIELD_BOOL(C, standardize)},
  };
  return rows;
}

Status AlmaLearner::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  const std::size_t n_out = outputs_for(context);
  setup(context, n_out, 0, n_out, config.standardize);  // aux_: update count k per output
  return Status::ok();
}

Result<std::unique_ptr<AlmaLearner>> AlmaLearner::make(const Config& config, const LearnerContext& context) {
  if (context.task != Task::kClassification || context.n_classes < 2)
    return Status::invalid_argument("alma: a classifier (at least 2 classes)");
  auto out = std::make_unique<AlmaLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

void AlmaLearner::update(std::span<const double> z, double y, double weight) {
  const double p = config_.p, q = p / (p - 1.0);
  const bool two = p == 2.0;
  // |(z, 1)|_p: the input scaled to unit p-norm (Gentile 2001, Fig. 1).
  double norm = config_.intercept ? 1.0 : 0.0;
  for (double v : z) norm += two ? v * v : std::pow(std::fabs(v), p);
  norm = two ? std::sqrt(norm) : std::pow(norm, 1.0 / p);
  if (!(norm > 0.0) || !std::isfinite(norm)) return;
  const double inv = 1.0 / norm;
  const double sp = std::sqrt(p - 1.0);
  for (std::size_t k = 0; k < n_out_; ++k) {
    const double label = sign_label(k, y);
    const double sk = std::sqrt(aux_[k]);
    const double gamma = config_.b * sp / sk;
    if (label * score(k, z) * inv > (1.0 - config_.alpha) * gamma) continue;
    double* w = &w_[k * (width_ + 1)];
    const double u = config_.c / (sp * sk) * weight * label * inv;
    for (std::size_t j = 0; j < width_; ++j) w[j] += u * z[j];
    if (config_.intercept) w[width_] += u;
    double wn = 0.0;
    for (std::size_t j = 0; j <= width_; ++j) wn += two ? w[j] * w[j] : std::pow(std::fabs(w[j]), q);
    wn = two ? std::sqrt(wn) : std::pow(wn, 1.0 / q);
    if (wn > 1.0 && std::isfinite(wn))
      for (std::size_t j = 0; j <= width_; ++j) w[j] /= wn;
    for (std::size_t j = 0; j <= width_; ++j)
      if (!std::isfinite(w[j])) w[j] = 0.0;
    aux_[k] += 1.0;
  }
}

void AlmaLearner::encode(ByteWriter& out) const { encode_record(config_fields(), config_, out); }

Status AlmaLearner::decode(ByteReader& in) {
  Config config;
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_head(config_fields(), in, config, context));
  IRITHYLL_RETURN_IF_ERROR(init(config, context));
  IRITHYLL_RETURN_IF_ERROR(decode_core(in));
  for (double k : aux_)
    if (!(k >= 1.0)) return Status::corruption("alma: update count below 1");
  return Status::ok();
}

}  // namespace irithyll
