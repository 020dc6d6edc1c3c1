// LogLinearLearner ("loglinear"): a streaming learner whose feature extractor
// is a LogLinearAttention layer trained online with its own train_one (seed
// 004's SGD on W_q, W_k, W_v, W_lambda), followed by an RLS readout (one per
// class on one-hot targets for classification, see readout/rls_head.hpp).
//
// Per sample: z = clamp(standardise(x), +-5), u = W_in [z, 1] (fixed random,
// N(0, 1/(n_features+1))), o = layer(u) (post-push read, tanh-bounded).
// The layer's SGD target is bounded like its output: regression
// t_c = tanh(y_std / 2) for every output c (y standardised with running
// statistics of past targets); classification t_c = +0.5 for the class's
// outputs (c mod n_classes == y) and -0.5 otherwise. Readout features [z, o, 1].
// predict_one peeks (same output train_one will start from), so prediction
// never changes the model.
//
// Bad input: non-finite features are imputed as 0; a non-finite target or
// weight <= 0 advances the layer (push, no SGD step) and skips the readout;
// other weights count as 1; a sample of the wrong width is ignored.
// Cost per sample: one log-linear step plus its SGD step (O((3dk+dv+L) d_model
// + popcount dk dv)) and O(K F^2) RLS. No allocation per sample. One owner.
//
// Continual learning (config.continual, default off): ewc | mask | regen act
// on the layer's SGD step over the flat vector [W_q, W_k, W_v, W_lambda]
// (nn/continual/gradient_continual.hpp): the dense gradient goes through the
// strategy's pre_update before the step and post_update after it, and the
// step's loss 1/2 |o - t|^2 feeds the drift detector whose Warning/Drift goes
// to on_drift (EWC anchors, the mask freezes, regeneration regenerates).
// Regeneration groups are the rows (one output's fan-in of d_model weights).
// Costs O(n) more per sample for n layer weights.
//
// Settings: LogLinearLearnerConfig through its field table; task, classes,
// width and seed (layer.seed and continual.seed are set from it) come from
// the LearnerContext (irithyll/learner.hpp).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/attention/log_linear.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

struct LogLinearLearnerConfig {
  // d_model, d_key, d_value, levels, inner mode, lr, seed of the layer.
  LogLinearConfig layer{AttentionKind::kGatedDeltaNet, 16, 8, 8, 32, -1.0, 1.0, 0.05, 42, 0.25};
  RlsConfig rls{0.9999, 100.0};
  ContinualConfig continual;
};

class LogLinearCore;  // internal (src/nn/attention/log_linear_core.hpp): the learner's machinery

class LogLinearLearner final : public BoxedLearner<LogLinearCore, LogLinearLearnerConfig> {
 public:
  using Config = LogLinearLearnerConfig;
  static constexpr std::string_view kName = "loglinear";
  static constexpr double kInputClamp = 5.0;
  // The table lists the layer's form, shape, levels and rate; its other
  // constants (lambda init, tau, init scale) travel in the layer's own
  // record inside the learner's.
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, then validate().
  static Result<std::unique_ptr<LogLinearLearner>> make(const Config& config, const LearnerContext& context);
  // Classes, width, readout, continual and the layer's own checks (also run on decoding).
  static Status validate(const Config& config, const LearnerContext& context);

  LogLinearLearner() = default;
  LogLinearLearner(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
