// Linear models fitted by stochastic gradient descent, one step per sample:
//   linear_regression    squared loss (p - y)^2, gradient 2 (p - y) (River's,
//                        PyTorch's and Vowpal Wabbit's convention, so a
//                        learning rate means the step River's SGD takes)
//   logistic_regression  log loss on sigmoid(w.z + b); two classes use one
//                        output, more classes one-vs-rest (probabilities
//                        are the sigmoids normalised to sum to 1)
//   softmax_regression   multinomial log loss on softmax(W z + b)
//
// Per sample, with z the standardised features (Standardizer), g the loss
// gradient of an output times the sample weight, clipped to +-1e12:
//   coefficient j: grad = g z_j + l2 w_j; w_j -= step(grad);
//                  then L1 by the cumulative penalty of Tsuruoka, Tsujii &
//                  Ananiadou 2009 (w_j clipped at 0; exact zeros)
//   intercept:     step(g) at the intercept learning rate (never regularised)
// step() is the optimiser: sgd eta*grad; adagrad eta*grad/(sqrt(G)+1e-8)
// with G the running sum of squared gradients (Duchi et al. 2011); adam with
// beta1 0.9, beta2 0.999, epsilon 1e-8 and bias correction (Kingma & Ba 2015).
// eta follows the schedule (t = 1, 2, ...): constant; inverse-scaling
// eta/sqrt(t); optimal eta/(1 + eta alpha (t - 1)) with alpha = l2 (1e-4 when
// l2 is 0), Bottou's 1/(alpha (t0 + t)) with t0 set so that it starts at the
// learning rate (Bottou 2012, "Stochastic gradient descent tricks", eq. 10).
// The intercept's rate follows the same schedule from intercept-lr.
//
// Regression's intercept warm start (intercept-warm-start, on by default):
// while 1/(2t) exceeds the intercept's rate, the intercept takes the plain
// step g/(2t) instead (optimiser state untouched; a sample of weight v steps
// (p - y) min(v/t, 1), never past its target). On the squared loss, with
// unit weights, that is b <- b - (b + w.z - y)/t, the running mean of the
// residual target y - w.z (the Robbins-Monro 1/t step of a mean), so the
// intercept finds the target's level within a few samples however far it is
// from 0, and then tracks it at intercept-lr (from t = 1/(2 intercept-lr):
// 50 samples at 0.01).
// Off: the intercept starts at 0 and steps at intercept-lr throughout
// (River's LinearRegression with intercept_init=0).
//
// Continual learning (continual = ewc | mask, off by default): the
// coefficients and intercepts are the trained weights of a continual guard
// (nn/continual): elastic weight consolidation pulls them toward their
// values at the last drift in proportion to a streaming Fisher estimate
// (Kirkpatrick et al. 2017), or the most important ones freeze at each
// drift. The guard changes each gradient before the optimiser's step, and
// its detector watches the sample's loss (squared error, or log loss).
//
// Cost O(n_out * d) per sample (the guard: another O(n_out * d)); nothing
// allocated per sample.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/linear/linear_core.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "irithyll/tunable.hpp"

namespace irithyll {
namespace nn {
class GradientContinual;
}

enum class SgdOptimizer : std::uint8_t { kSgd = 0, kAdam = 1, kAdagrad = 2 };
enum class SgdSchedule : std::uint8_t { kConstant = 0, kInverseScaling = 1, kOptimal = 2 };

struct SgdLinearConfig {
  SgdOptimizer optimizer = SgdOptimizer::kSgd;
  double learning_rate = 0.01;
  SgdSchedule schedule = SgdSchedule::kConstant;
  double l1 = 0.0;
  double l2 = 0.0;
  bool intercept = true;
  double intercept_lr = 0.01;
  double intercept_init = 0.0;  // River's intercept_init; non-zero turns the warm start off
  bool standardize = true;
  bool intercept_warm_start = true;  // regression only (linear_regression's settings table)
  // ewc | mask on the coefficients and intercepts (none: the plain step).
  nn::ContinualConfig continual;
};

class SgdLinear : public LinearCore, public Tunable {
 public:
  using Config = SgdLinearConfig;
  ~SgdLinear() override;
  static std::span<const ConfigField<Config>> config_fields();
  const Config& config() const { return config_; }
  // The model's own settings table (regression's has the warm start).
  virtual std::span<const ConfigField<Config>> fields() const { return config_fields(); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;
  void reset() override;
  std::size_t memory_bytes() const override;
  // Tunable (sgd_linear_tuning.cpp). Signals: regularization_sensitivity is
  // the larger of l2 / (l2 + c), c the loss's curvature on standardised
  // features (2 for the squared loss, 1/4 at most for the log losses), and
  // under L1 the share of coefficients held at zero; effective_dof counts
  // the non-zero coefficients and intercepts; uncertainty is 1 / (1 + samples seen);
  // alignment and depth are 0. adjust_config scales both learning rates
  // (the coefficients' and the intercept's, kept in (0, 100]) and moves l2
  // (kept in [0, 100]). A linear model has no structure to change and no
  // parts to prune: a non-zero prune half-life is refused, and the proactive
  // rule replaces nothing.
  ConfigDiagnostics config_diagnostics() const override;
  Status adjust_config(double lr_multiplier, double lambda_delta) override;
  Status apply_structural_change(int depth_delta, int steps_delta) override;
  Status set_prune_half_life(double half_life) override;
  Result<bool> check_proactive_prune() override;

 protected:
  enum class Loss : std::uint8_t { kSquared, kLogistic, kSoftmax };
  explicit SgdLinear(Loss loss);  // out of line: guard_ holds a type this header only declares
  Status init(const Config& config, const LearnerContext& context);
  void update(std::span<const double> z, double y, double weight) override;
  void link(std::span<const double> scores, std::span<double> proba) const override;
  double intercept_start() const override { return config_.intercept ? config_.intercept_init : 0.0; }

 private:
  // guarded: each coefficient's gradient is read from the guard's vector
  // (the loss gradient plus L2, then EWC's pull or the mask), not computed here.
  void step_output(std::size_t k, double g, std::span<const double> z, double eta, double eta_b, double bc1,
                   double bc2, const double* guarded = nullptr);
  // The guard's step around the optimiser: gradients gathered, changed by the
  // strategy, stepped, and the sample's loss sent to its detector.
  void guarded_steps(std::span<const double> z, double weight, double eta, double eta_b, double bc1, double bc2,
                     double loss);
  double sample_loss(double y) const;
  // guard_ for the coefficients as they are now sized.
  Status make_guard();
  Config config_;
  Loss loss_;
  // Records of version 1 learned the squared loss with gradient p - y and no
  // warm start: a model decoded from one keeps learning that way.
  bool half_gradient_ = false;
  mutable std::vector<double> grad_;  // per-output loss gradients
  std::unique_ptr<nn::GradientContinual> guard_;  // continual on: made with the coefficients
};

class LinearRegressionLearner final : public SgdLinear {
 public:
  static constexpr std::string_view kName = "linear_regression";
  LinearRegressionLearner() : SgdLinear(Loss::kSquared) {}
  static std::span<const ConfigField<Config>> config_fields();
  std::span<const ConfigField<Config>> fields() const override { return config_fields(); }
  static Result<std::unique_ptr<LinearRegressionLearner>> make(const Config& config, const LearnerContext& context);
  std::string_view name() const override { return kName; }
};

class LogisticRegressionLearner final : public SgdLinear {
 public:
  static constexpr std::string_view kName = "logistic_regression";
  LogisticRegressionLearner() : SgdLinear(Loss::kLogistic) {}
  static Result<std::unique_ptr<LogisticRegressionLearner>> make(const Config& config, const LearnerContext& context);
  std::string_view name() const override { return kName; }
};

class SoftmaxRegressionLearner final : public SgdLinear {
 public:
  static constexpr std::string_view kName = "softmax_regression";
  SoftmaxRegressionLearner() : SgdLinear(Loss::kSoftmax) {}
  static Result<std::unique_ptr<SoftmaxRegressionLearner>> make(const Config& config, const LearnerContext& context);
  std::string_view name() const override { return kName; }
};

}  // namespace irithyll
