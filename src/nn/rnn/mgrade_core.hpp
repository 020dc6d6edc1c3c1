// MgradeCore: the whole of MgradeLearner, which holds it by pointer (include/irithyll/nn/rnn/mgrade_learner.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include "nn/continual/readout_learner_fields.hpp"
#include "nn/continual/unit_regen_core.hpp"
#include "nn/rnn/delay_conv.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "nn/rnn/mingru.hpp"

namespace irithyll::nn {

class MgradeCore final : public UnitRegenCore<MgradeCore, MgradeLearnerConfig> {
 public:
  static constexpr std::string_view kName = MgradeLearner::kName;
  static constexpr bool kProbaNeedsClassCount = false;
  static std::span<const ConfigField<MgradeLearnerConfig>> config_fields() { return MgradeLearner::config_fields(); }

  MgradeCore() = default;
  MgradeCore(const MgradeLearnerConfig& config, const LearnerContext& context);
  static Status validate(const MgradeLearnerConfig& config, const LearnerContext& context) {
    return MgradeLearner::validate(config, context);
  }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const MinGruCell& cell() const noexcept { return cell_; }
  const DelayConv1d& conv() const noexcept { return conv_; }

 private:
  friend RlsReadoutCore<MgradeCore, MgradeLearnerConfig>;
  friend UnitRegenCore<MgradeCore, MgradeLearnerConfig>;

  Status build(std::size_t n_features);
  template <bool kLearn>
  void featurize(std::span<const double> x) const;
  std::size_t extractor_memory_bytes() const;
  void encode_extractor(ByteWriter& out) const;
  Status decode_extractor(ByteReader& in);
  void reinitialize_unit(std::size_t j, Xorshift64& rng) { cell_.reinitialize_unit(j, rng); }

  DelayConv1d conv_;
  MinGruCell cell_;
};

}  // namespace irithyll::nn
