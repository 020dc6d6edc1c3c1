// MambaCore: the whole of MambaLearner, which holds it by pointer (include/irithyll/nn/ssm/mamba_learner.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include <memory>
#include <optional>

#include "nn/continual/readout_learner_fields.hpp"
#include "nn/continual/readout_regeneration.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "nn/ssm/ssm_layer.hpp"
#include "readout/readout_core.hpp"

namespace irithyll::nn {

class MambaCore final : public RlsReadoutCore<MambaCore, MambaLearnerConfig> {
 public:
  static constexpr std::string_view kName = MambaLearner::kName;
  static constexpr bool kProbaNeedsClassCount = false;
  static std::span<const ConfigField<MambaLearnerConfig>> config_fields() { return MambaLearner::config_fields(); }

  MambaCore() = default;
  MambaCore(const MambaLearnerConfig& config, const LearnerContext& context);
  static Status validate(const MambaLearnerConfig& config, const LearnerContext& context) {
    return MambaLearner::validate(config, context);
  }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const SsmLayer* layer() const noexcept { return layer_.get(); }
  std::size_t n_readout_features() const noexcept { return features_.size(); }
  const RlsHead& readout() const noexcept { return head_; }
  // The regeneration guard when config.continual is on and the learner is built.
  const ReadoutRegenerator* continual() const noexcept { return regen_ ? &*regen_ : nullptr; }

 private:
  friend RlsReadoutCore<MambaCore, MambaLearnerConfig>;

  Status build(std::size_t n_features);
  // Writes [y, h_{t-1}, 1] into features_; commits the step when kLearn.
  template <bool kLearn>
  void featurize(std::span<const double> x) const;
  std::size_t extractor_memory_bytes() const;
  void encode_extractor(ByteWriter& out) const;
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
  std::vector<double> dy_;  // dL/dy for BCNorm's gamma (bcnorm_lr > 0)
};

}  // namespace irithyll::nn
