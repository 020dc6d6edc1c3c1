// MgradeLearner ("mgrade"): mGRADE (minimal gated recurrence with delay
// embeddings, 2025) as a streaming learner: x -> DelayConv1d (K taps per
// channel) -> MinGruCell, fixed random weights, with an RLS readout
// (readout/rls_head.hpp) in place of backpropagation.
//
// Features for sample t: [h_t (d_hidden), conv_t (d_in), x_t, 1]. predict_one
// uses the read-only forward_predict of both stages. Bad input: non-finite
// features imputed as 0; non-finite target or weight <= 0 advance the state but
// skip the readout; wrong width is ignored; the first `warmup` samples only
// fill the state. Cost per sample O(d_in K + d_h (2 d_in + d_h)) plus the RLS
// O(K F^2). No allocation after the first sample. Thread safety: one owner.
//
// Continual learning (config.continual, default off): regen re-initialises
// the least useful hidden units through MinGruCell::reinitialize_unit and
// resets their readout inputs (nn/continual/readout_regeneration.hpp); one
// group per unit. ewc and mask need a gradient and are rejected.
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

struct MgradeLearnerConfig {
  std::size_t d_hidden = 32;
  std::size_t taps = 4;  // delay-convolution taps per channel (1..256)
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;
  ContinualConfig continual;  // regen only; its seed is the context's
};

class MgradeCore;  // internal (src/nn/rnn/mgrade_core.hpp): the learner's machinery

class MgradeLearner final : public BoxedLearner<MgradeCore, MgradeLearnerConfig> {
 public:
  using Config = MgradeLearnerConfig;
  static constexpr std::string_view kName = "mgrade";
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, then validate().
  static Result<std::unique_ptr<MgradeLearner>> make(const Config& config, const LearnerContext& context);
  // The cross-field rules (also run on decoding and for the first sample's width).
  static Status validate(const Config& config, const LearnerContext& context);

  MgradeLearner() = default;
  MgradeLearner(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
