// AttentionLearner ("attention"): a streaming learner built from an input
// projection, one MultiHeadAttention layer (any mode) used as a fixed random
// recurrent feature extractor, and an RLS readout (one per class with one-hot
// targets for classification, see readout/rls_head.hpp) -- the echo-state
// recipe (Jaeger 2001) with a linear-attention memory instead of a reservoir.
//
// Per sample x_t: z = clamp(standardise(x_t), +-5) (Welford, updated only by
// learn_one), u = W_in [z, 1] (W_in ~ N(0, 1/(n_features+1)), with a bias column), o_t = layer(u) read
// after the update (the layer's own semantics), tanh(o_t) for the modes whose
// output is not already tanh-bounded. Readout features: [z, o_t, 1].
// predict_one runs the same step on a scratch copy of the state (peek), so
// prediction never changes the model and is exactly what learn_one trains on.
//
// Bad input: non-finite features are imputed as 0 (the standardiser skips
// them); a non-finite target or weight <= 0 still advances the memory but
// skips the readout; other weights count as 1 (RLS has no per-sample weight);
// a sample of the wrong width is ignored. Cost per sample: two layer steps
// (predict + learn) and O(K F^2) RLS for F = n_features + d_model + 1.
// No allocation per sample. One owner.
//
// Settings: AttentionLearnerConfig through its field table; task, classes,
// width and seed (attention.seed is set from it) come from the
// LearnerContext (irithyll/learner.hpp).
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/attention/config.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

struct AttentionLearnerConfig {
  // Layer shape and mode; attention.init_scale <= 0 means 1/sqrt(d_model),
  // which keeps projections O(1) for standardised inputs.
  AttentionConfig attention{32, 4, 8, 8, AttentionMode{AttentionKind::kGLA}, 42, 0.0};
  // Forgetting 0.9999: at 0.998 the readout's P winds up along the slowly
  // varying directions of real streams (elec: accuracy 0.59 at 0.998, 0.78 at 0.9999).
  RlsConfig rls{0.9999, 100.0};
};

class AttentionCore;  // internal (src/nn/attention/attention_core.hpp): the learner's machinery

class AttentionLearner final : public BoxedLearner<AttentionCore, AttentionLearnerConfig> {
 public:
  using Config = AttentionLearnerConfig;
  static constexpr std::string_view kName = "attention";
  static constexpr double kInputClamp = 5.0;
  // The table lists the layer's shape, mode and levels; the mode's other
  // constants (and the init scale) travel in the layer configuration's own
  // record inside the learner's.
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, then validate().
  static Result<std::unique_ptr<AttentionLearner>> make(const Config& config, const LearnerContext& context);
  // Classes, width, readout and the layer's own checks (also run on decoding).
  static Status validate(const Config& config, const LearnerContext& context);

  AttentionLearner() = default;
  AttentionLearner(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
