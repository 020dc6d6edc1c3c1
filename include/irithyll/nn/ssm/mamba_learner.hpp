// MambaLearner ("mamba"): a streaming learner that runs a selective SSM as a
// fixed random feature extractor over the stream and fits an RLS readout on
// its features (the Rust library's StreamingMamba; readout as in echo-state
// networks, Jaeger 2001). The SSM is not trained: its input-dependent Delta, B,
// C already make the memory selective; the readout adapts with forgetting.
//
// Features for sample t: [y_t (d_in), h_{t-1} (the layer state, when it has at
// most state_feature_cap entries), 1]. Using the state *before* the step keeps
// predict_one read-only and identical to what learn_one then trains on.
//
// Versions: v1 (Mamba-1, ZOH, real diagonal), v3 (Mamba-3 SISO, complex,
// exp-trapezoidal, BCNorm), v3-tustin, v3-mimo (rank-R input), bd (block-
// diagonal transition mixing channels within blocks, selective_ssm_bd.hpp).
// Defaults follow the Rust library: n_state 32, RLS lambda 0.998, delta 100,
// warmup 10 samples (state fills before the readout trains). Task, classes,
// width and seed come from the LearnerContext (irithyll/learner.hpp).
//
// Bad input: non-finite features are imputed as 0; a non-finite target or a
// weight <= 0 still advances the state but skips the readout; a sample of the
// wrong width is ignored. Cost per sample: one SSM step plus O(K F^2) RLS for
// F features, K heads. No allocation after the first sample. One owner.
//
// BCNorm's gamma (v3 variants, config.bcnorm_lr > 0) trains on each readout
// update: before the RLS step, dy_q = sum_k (w_k . f - target_k) w_k[q] over
// the output channels q, and Mamba3::bcnorm_train takes one SGD step. On
// i.i.d. streams this is what lets the layer shrink its unit-RMS B and C,
// whose read-out otherwise drowns the D x skip (BENCHMARKS.md, Mamba-3).
// Records with it set carry bit 7 in the version byte, the rate, and gamma
// after the layer.
//
// Continual learning (config.continual, default off): regen re-initialises
// the least useful Mamba-3 groups (Mamba3::reinitialize_group) or BD blocks
// (SelectiveSsmBd::reinitialize_block) and resets the readout inputs they
// feed: the group's output channels and, when fed, its state entries
// (nn/continual/readout_regeneration.hpp). v1 has no per-group hook and
// rejects it; ewc and mask need a gradient and are rejected.
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

enum class MambaVersion : std::uint8_t { kV1 = 0, kV3 = 1, kV3Tustin = 2, kV3Mimo = 3, kBlockDiagonal = 4 };

struct MambaLearnerConfig {
  MambaVersion version = MambaVersion::kV1;
  std::size_t n_state = 32;            // N per channel (v1) or per group (v3)
  std::size_t n_groups = 1;            // v3: must divide the feature count
  std::size_t rank = 2;                // v3-mimo only
  std::size_t block_size = 1;          // bd only; must divide the feature count
  bool use_bcnorm = true;              // v3 variants
  std::size_t state_feature_cap = 64;  // feed h_{t-1} to the readout when it has <= this many entries
  // v3 variants with BCNorm: SGD rate of BCNorm's gamma, trained on the
  // readout's loss (Mamba3::bcnorm_train; the readout error times its weights
  // on the SSM outputs is dL/dy). 0 keeps gamma fixed at 1. The default was
  // chosen on Friedman (BENCHMARKS.md, Mamba-3 section); v1 and bd ignore it.
  double bcnorm_lr = 0.003;
  // True when the layer is a Mamba-3 with BCNorm and a positive bcnorm_lr.
  bool learns_bcnorm() const noexcept {
    return (version == MambaVersion::kV3 || version == MambaVersion::kV3Tustin || version == MambaVersion::kV3Mimo) &&
           use_bcnorm && bcnorm_lr > 0.0;
  }
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;
  ContinualConfig continual;  // regen only, v3 variants and bd; its seed is the context's
};

class MambaCore;  // internal (src/nn/ssm/mamba_core.hpp): the learner's machinery

class MambaLearner final : public BoxedLearner<MambaCore, MambaLearnerConfig, false> {
 public:
  using Config = MambaLearnerConfig;
  static constexpr std::string_view kName = "mamba";
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, then validate().
  static Result<std::unique_ptr<MambaLearner>> make(const Config& config, const LearnerContext& context);
  // The cross-field rules (groups and blocks dividing the width, classes,
  // continual strategy; also run on decoding and for the first sample's width).
  static Status validate(const Config& config, const LearnerContext& context);

  MambaLearner() = default;
  MambaLearner(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
