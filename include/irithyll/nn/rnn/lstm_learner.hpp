// LstmLearner ("lstm"): a plain LSTM cell (Hochreiter & Schmidhuber 1997 with
// the forget gate of Gers et al. 2000; src/nn/rnn/lstm.hpp) run as a fixed
// random recurrent feature extractor with an RLS readout
// (readout/rls_head.hpp), exactly as SlstmLearner runs its sLSTM cell: the
// cell's weights are drawn once from the seed and never trained (a random
// reservoir with gated memory); only the readout learns, online.
//
// Features for sample t: [h_t (d_hidden), x_t, 1], where h_t is the cell's
// output for x_t; predict_one computes it with forward_predict (read-only).
// Bad input: non-finite features imputed as 0; non-finite target or weight <= 0
// advance the state but skip the readout; wrong width is ignored. The first
// `warmup` samples only fill the state. Cost per sample: one cell step,
// O(4 d_h (d_in + d_h)), plus O(K F^2) RLS for F = d_hidden + d_in + 1. No
// allocation after the first sample. Thread safety: one owner.
//
// Continual learning (config.continual, default off): regen re-initialises the
// least useful hidden units through LstmCell::reinitialize_unit and resets
// their readout inputs (nn/continual/readout_regeneration.hpp); one group per
// unit. ewc and mask need a gradient and are rejected.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

struct LstmLearnerConfig {
  std::size_t d_hidden = 32;
  double forget_bias = 1.0;  // forget-gate bias of every unit (Jozefowicz et al. 2015: +1)
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;
  ContinualConfig continual;  // regen only; its seed is the context's
};

class LstmCore;  // internal (src/nn/rnn/lstm_core.hpp): the learner's machinery

class LstmLearner final : public BoxedLearner<LstmCore, LstmLearnerConfig> {
 public:
  using Config = LstmLearnerConfig;
  static constexpr std::string_view kName = "lstm";
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, then validate().
  static Result<std::unique_ptr<LstmLearner>> make(const Config& config, const LearnerContext& context);
  // The cross-field rules (also run on decoding and for the first sample's width).
  static Status validate(const Config& config, const LearnerContext& context);

  LstmLearner() = default;
  LstmLearner(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
