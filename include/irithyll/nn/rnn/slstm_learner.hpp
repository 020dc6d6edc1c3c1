// SlstmLearner ("slstm"): an sLSTM cell (slstm.hpp) run as a fixed random
// recurrent feature extractor with an RLS readout (readout/rls_head.hpp), the
// streaming form of the Rust library's StreamingsLSTM.
//
// Features for sample t: [h_t (d_hidden), x_t, 1], where h_t is the cell's
// output for x_t; predict_one computes it with forward_predict (read-only).
// Bad input: non-finite features imputed as 0; non-finite target or weight <= 0
// advance the state but skip the readout; wrong width is ignored. The first
// `warmup` samples only fill the state. Cost per sample: one cell step plus
// O(K F^2) RLS for F = d_hidden + d_in + 1. No allocation after the first
// sample. Thread safety: one owner.
//
// Continual learning (config.continual, default off): regen re-initialises the
// least useful hidden units through SlstmCell::reinitialize_unit and resets
// their readout inputs (nn/continual/readout_regeneration.hpp); one group per
// unit. ewc and mask need a gradient and are rejected.
#pragma once

#include <string_view>
#include "irithyll/learner.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

struct SlstmLearnerConfig {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification: 2..1024
  std::size_t n_features = 0;  // 0 = from the first sample
  std::size_t d_hidden = 32;
  std::size_t n_heads = 4;                              // must divide d_hidden
  double forget_bias_start = 3.0, forget_bias_stop = 6.0;  // linspace over units (Beck et al.: 3..6)
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;
  std::uint64_t seed = 42;
  ContinualConfig continual;  // regen only
};

class SlstmCore;  // internal (src/nn/rnn/slstm_core.hpp): the learner's machinery

class SlstmLearner final : public BoxedLearner<SlstmCore, SlstmLearnerConfig> {
 public:
  static constexpr std::string_view kName = "slstm";

  SlstmLearner() = default;
  explicit SlstmLearner(const SlstmLearnerConfig& config) : BoxedLearner(config) {}
  static Status validate(const SlstmLearnerConfig& config);
};

}  // namespace irithyll::nn
