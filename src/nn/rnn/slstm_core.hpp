// SlstmCore: the whole of SlstmLearner, which holds it by pointer (include/irithyll/nn/rnn/slstm_learner.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include "nn/continual/readout_learner_fields.hpp"
#include "nn/continual/unit_regen_core.hpp"
#include "nn/rnn/slstm.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"

namespace irithyll::nn {

class SlstmCore final : public UnitRegenCore<SlstmCore, SlstmLearnerConfig> {
 public:
  static constexpr std::string_view kName = SlstmLearner::kName;
  static constexpr bool kProbaNeedsClassCount = false;
  static std::span<const ConfigField<SlstmLearnerConfig>> config_fields() { return SlstmLearner::config_fields(); }

  SlstmCore() = default;
  SlstmCore(const SlstmLearnerConfig& config, const LearnerContext& context);
  static Status validate(const SlstmLearnerConfig& config, const LearnerContext& context) {
    return SlstmLearner::validate(config, context);
  }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const SlstmCell& cell() const noexcept { return cell_; }

 private:
  friend RlsReadoutCore<SlstmCore, SlstmLearnerConfig>;
  friend UnitRegenCore<SlstmCore, SlstmLearnerConfig>;

  Status build(std::size_t n_features);
  template <bool kLearn>
  void featurize(std::span<const double> x) const;
  std::size_t extractor_memory_bytes() const;
  void encode_extractor(ByteWriter& out) const { cell_.encode(out); }
  Status decode_extractor(ByteReader& in);
  void reinitialize_unit(std::size_t j, Xorshift64& rng) { cell_.reinitialize_unit(j, rng); }

  SlstmCell cell_;
};

}  // namespace irithyll::nn
