// MambaLearner ("mamba"): a streaming learner that runs a selective SSM as a
// fixed random feature extractor over the stream and fits an RLS readout on
// its features (the original's StreamingMamba; readout as in echo-state
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
// Defaults follow the original: n_state 32, RLS lambda 0.998, delta 100,
// warmup 10 samples (state fills before the readout trains), seed 42.
//
// Bad input: non-finite features are imputed as 0; a non-finite target or a
// weight <= 0 still advances the state but skips the readout; a sample of the
// wrong width is ignored. Cost per sample: one SSM step plus O(K F^2) RLS for
// F features, K heads. No allocation after the first sample. One owner.
//
// Continual learning (config.continual, default off): regen re-initialises
// the least useful Mamba-3 groups (Mamba3::reinitialize_group) or BD blocks
// (SelectiveSsmBd::reinitialize_block) and resets the readout inputs they
// feed: the group's output channels and, when fed, its state entries
// (nn/continual/readout_regeneration.hpp). v1 has no per-group hook and
// rejects it; ewc and mask need a gradient and are rejected.
#pragma once

#include <memory>
#include <optional>

#include "irithyll/nn/continual/readout_learner_fields.hpp"
#include "irithyll/nn/continual/readout_regeneration.hpp"
#include "irithyll/nn/ssm/ssm_layer.hpp"
#include "irithyll/readout/readout_learner.hpp"

namespace irithyll::nn {

enum class MambaVersion : std::uint8_t { kV1 = 0, kV3 = 1, kV3Tustin = 2, kV3Mimo = 3, kBlockDiagonal = 4 };

struct MambaLearnerConfig {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification: >= 2
  std::size_t n_features = 0;  // 0 = taken from the first sample
  MambaVersion version = MambaVersion::kV1;
  std::size_t n_state = 32;            // N per channel (v1) or per group (v3)
  std::size_t n_groups = 1;            // v3: must divide n_features
  std::size_t rank = 2;                // v3-mimo only
  std::size_t block_size = 1;          // bd only; must divide n_features
  bool use_bcnorm = true;              // v3 variants
  std::size_t state_feature_cap = 64;  // feed h_{t-1} to the readout when it has <= this many entries
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;
  std::uint64_t seed = 42;
  ContinualConfig continual;  // regen only, v3 variants and bd
};

class MambaLearner final : public RlsReadoutLearner<MambaLearner, MambaLearnerConfig> {
 public:
  static constexpr std::string_view kName = "mamba";
  static constexpr bool kProbaNeedsClassCount = false;

  MambaLearner() = default;
  explicit MambaLearner(const MambaLearnerConfig& config);
  static Status validate(const MambaLearnerConfig& config);

  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const SsmLayer* layer() const noexcept { return layer_.get(); }
  std::size_t n_readout_features() const noexcept { return features_.size(); }
  const RlsHead& readout() const noexcept { return head_; }
  // The regeneration guard when config.continual is on and the learner is built.
  const ReadoutRegenerator* continual() const noexcept { return regen_ ? &*regen_ : nullptr; }

 private:
  friend RlsReadoutLearner<MambaLearner, MambaLearnerConfig>;

  Status build(std::size_t n_features);
  // Writes [y, h_{t-1}, 1] into features_; commits the step when kLearn.
  template <bool kLearn>
  void featurize(std::span<const double> x) const;
  std::size_t extractor_memory_bytes() const;
  void encode_extractor(ByteWriter& out) const { layer_->encode(out); }
  Status decode_extractor(ByteReader& in);
  Status make_regenerator();
  void update_readout(double y);
  void encode_continual(ByteWriter& out) const {
    if (regen_) regen_->encode_state(out);
  }
  Status decode_continual(ByteReader& in) { return regen_ ? regen_->decode_state(in) : Status::ok(); }

  bool use_state_ = false;  // first: shares the base's tail padding
  std::unique_ptr<SsmLayer> layer_;
  std::optional<ReadoutRegenerator> regen_;
  mutable std::vector<double> xin_;
};

}  // namespace irithyll::nn
