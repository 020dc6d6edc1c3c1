// LstmCore: the whole of LstmLearner, which holds it by pointer (include/irithyll/nn/rnn/lstm_learner.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include "nn/continual/readout_learner_fields.hpp"
#include "nn/continual/unit_regen_core.hpp"
#include "nn/rnn/cell_codec.hpp"
#include "nn/rnn/lstm.hpp"
#include "irithyll/nn/rnn/lstm_learner.hpp"

namespace irithyll::nn {

class LstmCore final : public UnitRegenCore<LstmCore, LstmLearnerConfig> {
 public:
  static constexpr std::string_view kName = LstmLearner::kName;
  static constexpr bool kProbaNeedsClassCount = false;
  static std::span<const ConfigField<LstmLearnerConfig>> config_fields() { return LstmLearner::config_fields(); }

  LstmCore() = default;
  LstmCore(const LstmLearnerConfig& config, const LearnerContext& context);
  static Status validate(const LstmLearnerConfig& config, const LearnerContext& context) {
    return LstmLearner::validate(config, context);
  }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const LstmCell& cell() const noexcept { return cell_; }

 private:
  friend RlsReadoutCore<LstmCore, LstmLearnerConfig>;
  friend UnitRegenCore<LstmCore, LstmLearnerConfig>;

  Status build(std::size_t n_features);
  template <bool kLearn>
  void featurize(std::span<const double> x) const {
    detail::cell_readout_features<kLearn>(cell_, x, xin_, features_);
  }
  std::size_t extractor_memory_bytes() const { return cell_.memory_bytes() + scratch_and_guard_bytes(); }
  void encode_extractor(ByteWriter& out) const { cell_.encode(out); }
  Status decode_extractor(ByteReader& in);
  void reinitialize_unit(std::size_t j, Xorshift64& rng) { cell_.reinitialize_unit(j, rng); }

  LstmCell cell_;
};

}  // namespace irithyll::nn
