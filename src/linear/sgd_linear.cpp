#include "irithyll/linear/sgd_linear.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"
#include "nn/continual/continual_fields.hpp"
#include "nn/continual/gradient_continual.hpp"

namespace irithyll {
namespace {

Result<SgdOptimizer> parse_optimizer(std::string_view v) {
  if (v == "sgd") return SgdOptimizer::kSgd;
  if (v == "adam") return SgdOptimizer::kAdam;
  if (v == "adagrad") return SgdOptimizer::kAdagrad;
  return Status::invalid_argument("optimizer '" + std::string(v) + "' is not one of sgd|adam|adagrad");
}
std::string_view optimizer_name(SgdOptimizer o) {
  return o == SgdOptimizer::kAdam ? "adam" : o == SgdOptimizer::kAdagrad ? "adagrad" : "sgd";
}
Result<SgdSchedule> parse_schedule(std::string_view v) {
  if (v == "constant") return SgdSchedule::kConstant;
  if (v == "inverse-scaling") return SgdSchedule::kInverseScaling;
  if (v == "optimal") return SgdSchedule::kOptimal;
  return Status::invalid_argument("schedule '" + std::string(v) + "' is not one of constant|inverse-scaling|optimal");
}
std::string_view schedule_name(SgdSchedule s) {
  return s == SgdSchedule::kInverseScaling ? "inverse-scaling" : s == SgdSchedule::kOptimal ? "optimal" : "constant";
}

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8, kClip = 1e12;
// aux_: steps taken, beta1^t, beta2^t, the L1 penalty each weight could
// have received so far (u of Tsuruoka et al. 2009).
constexpr std::size_t kSteps = 0, kB1t = 1, kB2t = 2, kL1Total = 3;

// The coefficients are trained weights (EWC, masks) but there are no units
// to regenerate.
constexpr std::string_view kContinualKinds = "none|ewc|mask";
constexpr std::string_view kContinualHelp =
    "continual learning on the coefficients: none | ewc (pull toward their values at the last drift) | mask "
    "(freeze the most important at each drift)";

}  // namespace

SgdLinear::SgdLinear(Loss loss) : loss_(loss) {}
SgdLinear::~SgdLinear() = default;

std::span<const ConfigField<SgdLinearConfig>> SgdLinear::config_fields() {
  using C = SgdLinearConfig;
  static const std::vector<ConfigField<C>> rows = [] {
    std::vector<ConfigField<C>> out = {
      {FieldInfo::choice("optimizer", "sgd", "sgd|adam|adagrad", "gradient step rule"),
       IRITHYLL_FIELD_ENUM(C, optimizer, parse_optimizer, optimizer_name)},
      {FieldInfo::real("learning-rate", "0.01", "step size of the coefficients").in(0, 100, true),
       IRITHYLL_FIELD_REAL(C, learning_rate)},
      {FieldInfo::choice("schedule", "constant", "constant|inverse-scaling|optimal",
                         "learning rate over time: constant, rate/sqrt(t), or rate/(1 + rate alpha t) with alpha = l2 or 1e-4"),
       IRITHYLL_FIELD_ENUM(C, schedule, parse_schedule, schedule_name)},
      {FieldInfo::real("l1", "0", "L1 penalty (cumulative-penalty clipping at 0: exact zeros)").in(0, 100),
       IRITHYLL_FIELD_REAL(C, l1)},
      {FieldInfo::real("l2", "0", "L2 penalty (added to the gradient)").in(0, 100), IRITHYLL_FIELD_REAL(C, l2)},
      {FieldInfo::boolean("intercept", "on", "fit an intercept"), IRITHYLL_FIELD_BOOL(C, intercept)},
      {FieldInfo::real("intercept-lr", "0.01", "step size of the intercept").in(0, 100),
       IRITHYLL_FIELD_REAL(C, intercept_lr)},
      {FieldInfo::real("intercept-init", "0",
                       "every intercept before the first sample (River's intercept_init; regression: a non-zero "
                       "start turns intercept-warm-start off)").in(-1e12, 1e12),
       IRITHYLL_FIELD_REAL(C, intercept_init)},
      {FieldInfo::boolean("standardize", "on", "standardise features with a running mean and variance"),
       IRITHYLL_FIELD_BOOL(C, standardize)},
    };
    for (auto& row : nn::continual_rows<C>(kContinualKinds, kContinualHelp)) out.push_back(std::move(row));
    return out;
  }();
  return rows;
}

std::span<const ConfigField<SgdLinearConfig>> LinearRegressionLearner::config_fields() {
  using C = SgdLinearConfig;
  static const std::vector<ConfigField<C>> rows = [] {
    const auto shared = SgdLinear::config_fields();
    // The shared rows up to the continual ones, the warm start, then the
    // continual rows: the table's order is the order `models` prints.
    const auto first_continual = std::find_if(shared.begin(), shared.end(), [](const ConfigField<C>& f) {
      return f.info.name == "continual";
    });
    std::vector<ConfigField<C>> out(shared.begin(), first_continual);
    out.push_back({FieldInfo::boolean("intercept-warm-start", "on",
                                      "the intercept steps 1/(2t) while that exceeds intercept-lr: the running "
                                      "mean of the residual target over the first samples"),
                   IRITHYLL_FIELD_BOOL(C, intercept_warm_start)});
    out.insert(out.end(), first_continual, shared.end());
    return out;
  }();
  return rows;
}

Status SgdLinear::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(name(), fields(), config));
  if (config.continual.kind == nn::ContinualKind::kRegen)
    return Status::invalid_argument(std::string(name()) + ": continual regen needs units to regenerate; a linear "
                                    "model offers " + std::string(kContinualKinds));
  IRITHYLL_RETURN_IF_ERROR(config.continual.validate().with_context(name()));
  config_ = config;
  config_.continual.seed = context.seed;
  guard_.reset();
  half_gradient_ = false;
  const std::size_t n_out = loss_ == Loss::kSquared ? 1
                            : loss_ == Loss::kSoftmax ? context.n_classes
                            : context.n_classes == 2 ? 1
                                                     : context.n_classes;
  // Optimiser moments, then (with L1) the penalty each weight received.
  const std::size_t n_state = (config.optimizer == SgdOptimizer::kAdam      ? 2
                               : config.optimizer == SgdOptimizer::kAdagrad ? 1
                                                                            : 0) +
                              (config.l1 > 0.0 ? 1 : 0);
  setup(context, n_out, n_state, 4, config.standardize);
  aux_[kB1t] = aux_[kB2t] = 1.0;
  grad_.assign(n_out, 0.0);
  return Status::ok();
}

Result<std::unique_ptr<LinearRegressionLearner>> LinearRegressionLearner::make(const Config& config,
                                                                               const LearnerContext& context) {
  if (context.task != Task::kRegression)
    return Status::invalid_argument("linear_regression: a regressor; for classes use logistic_regression");
  auto out = std::make_unique<LinearRegressionLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

Result<std::unique_ptr<LogisticRegressionLearner>> LogisticRegressionLearner::make(const Config& config,
                                                                                   const LearnerContext& context) {
  if (context.task != Task::kClassification || context.n_classes < 2)
    return Status::invalid_argument("logistic_regression: a classifier (at least 2 classes)");
  auto out = std::make_unique<LogisticRegressionLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

Result<std::unique_ptr<SoftmaxRegressionLearner>> SoftmaxRegressionLearner::make(const Config& config,
                                                                                 const LearnerContext& context) {
  if (context.task != Task::kClassification || context.n_classes < 2)
    return Status::invalid_argument("softmax_regression: a classifier (at least 2 classes)");
  auto out = std::make_unique<SoftmaxRegressionLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

void SgdLinear::link(std::span<const double> scores, std::span<double> proba) const {
  const std::size_t k = proba.size();
  if (loss_ == Loss::kSoftmax) {
    const double top = *std::max_element(scores.begin(), scores.end());
    double total = 0.0;
    for (std::size_t c = 0; c < k; ++c) total += proba[c] = std::exp(scores[c] - top);
    for (double& p : proba) p /= total;
    return;
  }
  if (scores.size() == 1) {
    const double p = logistic(scores[0]);
    proba[0] = 1.0 - p, proba[1] = p;
    return;
  }
  double total = 0.0;
  for (std::size_t c = 0; c < k; ++c) total += proba[c] = logistic(scores[c]);
  for (double& p : proba) p = total > 0.0 ? p / total : 1.0 / static_cast<double>(k);
}

void SgdLinear::update(std::span<const double> z, double y, double weight) {
  // Loss gradients with respect to each output's score.
  for (std::size_t k = 0; k < n_out_; ++k) grad_[k] = score(k, z);
  if (loss_ == Loss::kSquared) {
    grad_[0] = half_gradient_ ? grad_[0] - y : 2.0 * (grad_[0] - y);
  } else if (loss_ == Loss::kSoftmax) {
    const double top = *std::max_element(grad_.begin(), grad_.end());
    double total = 0.0;
    for (double& g : grad_) total += g = std::exp(g - top);
    for (double& g : grad_) g /= total;
    grad_[static_cast<std::size_t>(y)] -= 1.0;
  } else if (n_out_ == 1) {
    grad_[0] = logistic(grad_[0]) - y;
  } else {
    for (std::size_t k = 0; k < n_out_; ++k) grad_[k] = logistic(grad_[k]) - (static_cast<double>(k) == y ? 1.0 : 0.0);
  }
  // The schedule's rate for this step (t counts from 1).
  const double t = aux_[kSteps] += 1.0;
  double eta = config_.learning_rate, eta_b = config_.intercept_lr;
  if (config_.schedule == SgdSchedule::kInverseScaling) {
    const double f = 1.0 / std::sqrt(t);
    eta *= f, eta_b *= f;
  } else if (config_.schedule == SgdSchedule::kOptimal) {
    // eta_t = eta0 / (1 + eta0 alpha t) (Bottou 2012, "Stochastic gradient
    // descent tricks", eq. 10): 1/(alpha (t0 + t)) with t0 = 1/(alpha eta0).
    const double alpha = config_.l2 > 0.0 ? config_.l2 : 1e-4;
    const double f = 1.0 / (1.0 + config_.learning_rate * alpha * (t - 1.0));
    eta *= f, eta_b *= f;
  }
  if (!config_.intercept) eta_b = 0.0;
  // Warm start (regression): a negative rate tells step_output to take the
  // plain step g/(2t) for the intercept, i.e. (weight/t)(p - y); capped at
  // (p - y), so that a heavy sample moves the intercept to its target and
  // no further.
  if (loss_ == Loss::kSquared && config_.intercept && config_.intercept_warm_start && config_.intercept_init == 0.0 &&
      !half_gradient_ && 0.5 / t > eta_b)
    eta_b = -std::min(0.5 / t, 0.5 / weight);
  double bc1 = 1.0, bc2 = 1.0;
  if (config_.optimizer == SgdOptimizer::kAdam) {
    aux_[kB1t] *= kBeta1, aux_[kB2t] *= kBeta2;
    bc1 = 1.0 / (1.0 - aux_[kB1t]), bc2 = 1.0 / (1.0 - aux_[kB2t]);
  }
  aux_[kL1Total] += eta * config_.l1;
  // Plain SGD on the squared loss moves the prediction by gain (y - p), gain
  // = (eta |z|^2 + eta_b) w (twice that for the full gradient). Above 1 the
  // step overshoots the target, and one spike in a standardised feature
  // (|z|^2 in the hundreds) starts oscillations that grow without end
  // (Electricity's nswdemand from its other columns: R2 -4e26). Such a
  // sample's rates are cut to land the prediction on the target, normalised
  // LMS's rule; every sample with gain <= 1 steps as before. (The intercept's
  // warm start, eta_b < 0, is capped by its own rule.)
  if (loss_ == Loss::kSquared && config_.optimizer == SgdOptimizer::kSgd) {
    double zz = 0.0;
    for (const double v : z) zz += v * v;
    const double gain = (eta * zz + std::max(eta_b, 0.0)) * weight * (half_gradient_ ? 1.0 : 2.0);
    if (gain > 1.0) {
      eta /= gain;
      if (eta_b > 0.0) eta_b /= gain;
    }
  }
  if (config_.continual.enabled()) {
    guarded_steps(z, weight, eta, eta_b, bc1, bc2, sample_loss(y));
    return;
  }
  for (std::size_t k = 0; k < n_out_; ++k) {
    const double g = std::clamp(grad_[k] * weight, -kClip, kClip);
    step_output(k, g, z, eta, eta_b, bc1, bc2);
  }
}

double SgdLinear::sample_loss(double y) const {
  if (loss_ == Loss::kSquared) {
    const double r = half_gradient_ ? grad_[0] : 0.5 * grad_[0];  // p - y
    return r * r;
  }
  // Every classification gradient of the true class's output is its
  // probability less 1 (one output: sigmoid - y, so 1 - |gradient| is the
  // probability given to the label).
  const std::size_t k = n_out_ == 1 ? 0 : static_cast<std::size_t>(y);
  return -std::log(std::max(1.0 - std::fabs(grad_[k]), 1e-15));
}

Status SgdLinear::make_guard() {
  // One group per output: its coefficients and intercept.
  auto made = nn::GradientContinual::make(config_.continual, w_.size(), width_ + 1);
  if (!made) return made.status();
  guard_ = std::make_unique<nn::GradientContinual>(std::move(made).value());
  return Status::ok();
}

void SgdLinear::guarded_steps(std::span<const double> z, double weight, double eta, double eta_b, double bc1,
                              double bc2, double loss) {
  const std::size_t stride = width_ + 1;
  // The coefficients exist from the first learned sample; init validated the configuration.
  if (!guard_ && !make_guard().is_ok()) return;
  std::span<double> params = guard_->params(), grads = guard_->grads();
  std::copy(w_.begin(), w_.end(), params.begin());
  for (std::size_t k = 0; k < n_out_; ++k) {
    const double g = std::clamp(grad_[k] * weight, -kClip, kClip);
    const double* w = &w_[k * stride];
    double* gk = &grads[k * stride];
    for (std::size_t j = 0; j < width_; ++j) gk[j] = g * z[j] + config_.l2 * w[j];
    gk[width_] = g;
  }
  guard_->set_step_size(eta);
  guard_->pre_update();
  for (std::size_t k = 0; k < n_out_; ++k) step_output(k, 0.0, z, eta, eta_b, bc1, bc2, &grads[k * stride]);
  std::copy(w_.begin(), w_.end(), params.begin());
  guard_->post_update();
  guard_->observe_loss(loss);
}

void SgdLinear::step_output(std::size_t k, double g, std::span<const double> z, double eta, double eta_b,
                            double bc1, double bc2, const double* guarded) {
  const std::size_t stride = width_ + 1;
  double* w = &w_[k * stride];
  const double l2 = config_.l2;
  // L1 by the cumulative penalty (Tsuruoka, Tsujii & Ananiadou 2009): each
  // weight is clipped at 0 by the penalty it could have received so far (u)
  // less what it did receive (q), so noisy steps cannot keep an irrelevant
  // weight away from exactly 0.
  const bool l1 = config_.l1 > 0.0;
  const double u = aux_[kL1Total];
  double* q = l1 ? &state_[(n_state_ - 1) * w_.size() + k * stride] : nullptr;
  const auto param = [&](std::size_t j, double grad, double rate) {
    double s;
    switch (config_.optimizer) {
      case SgdOptimizer::kSgd:
        s = rate * grad;
        break;
      case SgdOptimizer::kAdagrad: {
        double& acc = state_[k * stride + j];
        acc += grad * grad;
        s = rate * grad / (std::sqrt(acc) + kEps);
        break;
      }
      default: {
        double& m = state_[k * stride + j];
        double& v = state_[w_.size() + k * stride + j];
        m = kBeta1 * m + (1.0 - kBeta1) * grad;
        v = kBeta2 * v + (1.0 - kBeta2) * grad * grad;
        s = rate * (m * bc1) / (std::sqrt(v * bc2) + kEps);
        break;
      }
    }
    const double next = w[j] - s;
    w[j] = std::isfinite(next) ? next : 0.0;  // a diverging step restarts the coefficient
  };
  for (std::size_t j = 0; j < width_; ++j) {
    param(j, guarded ? guarded[j] : g * z[j] + l2 * w[j], eta);
    if (l1) {
      const double before = w[j];
      if (before > 0.0) w[j] = std::max(0.0, before - (u + q[j]));
      else if (before < 0.0) w[j] = std::min(0.0, before + (u - q[j]));
      q[j] += w[j] - before;
    }
  }
  const double g_intercept = guarded ? guarded[width_] : g;
  if (eta_b > 0.0) {
    param(width_, g_intercept, eta_b);
  } else if (eta_b < 0.0) {
    const double next = w[width_] + eta_b * g_intercept;
    w[width_] = std::isfinite(next) ? next : 0.0;
  }
}

void SgdLinear::reset() {
  LinearCore::reset();
  guard_.reset();
}

std::size_t SgdLinear::memory_bytes() const {
  return LinearCore::memory_bytes() + grad_.capacity() * sizeof(double) +
         (guard_ ? sizeof(*guard_) + guard_->memory_bytes() : 0);
}

void SgdLinear::encode(ByteWriter& out) const {
  out.u8(2);
  encode_config(fields(), config_, out);
  encode_context(context_, out);
  out.u8(half_gradient_ ? 1 : 0);
  encode_core(out);
  // The guard's state follows only when continual learning is on, so a
  // record without it is byte for byte what it was before the setting.
  if (config_.continual.enabled()) {
    out.boolean(guard_ != nullptr);
    if (guard_) guard_->encode_state(out);
  }
}

Status SgdLinear::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("linear version");
  if (in.ok() && version != 1 && version != 2)
    return Status::corruption(std::string(name()) + ": unknown record version " + std::to_string(version));
  Config config;
  // Version 1 had no warm start (a record keeps the default of a setting it lacks).
  if (version == 1) config.intercept_warm_start = false;
  IRITHYLL_RETURN_IF_ERROR(decode_config(name(), fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  if ((context.task == Task::kRegression) != (loss_ == Loss::kSquared))
    return Status::corruption(std::string(name()) + ": checkpoint is for the other task");
  bool half_gradient = version == 1;
  if (version == 2) {
    const std::uint8_t flag = in.u8("linear gradient convention");
    if (!in.ok()) return in.status();
    if (flag > 1) return Status::corruption(std::string(name()) + ": gradient convention flag out of range");
    half_gradient = flag == 1;
  }
  IRITHYLL_RETURN_IF_ERROR(init(config, context));
  half_gradient_ = half_gradient && loss_ == Loss::kSquared;
  IRITHYLL_RETURN_IF_ERROR(decode_core(in));
  if (!config_.continual.enabled()) return Status::ok();
  const bool has_guard = in.boolean("linear continual guard present");
  if (!in.ok()) return in.status();
  if (!has_guard) return Status::ok();
  if (w_.empty()) return Status::corruption(std::string(name()) + ": a continual guard before any coefficient");
  IRITHYLL_RETURN_IF_ERROR(make_guard().with_context(name()));
  const Status read = guard_->decode_state(in).with_context(name());
  if (!read.is_ok()) guard_.reset();
  return read;
}

}  // namespace irithyll
