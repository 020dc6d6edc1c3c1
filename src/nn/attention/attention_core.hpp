// AttentionCore: the whole of AttentionLearner, which holds it by pointer (include/irithyll/nn/attention/attention_learner.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include <vector>

#include "irithyll/nn/attention/attention_learner.hpp"
#include "nn/attention/multi_head.hpp"
#include "nn/primitives.hpp"
#include "readout/readout_core.hpp"

namespace irithyll::nn {

class AttentionCore final : public RlsReadoutCore<AttentionCore, AttentionLearnerConfig> {
 public:
  static constexpr std::string_view kName = AttentionLearner::kName;
  static constexpr bool kProbaNeedsClassCount = true;
  static constexpr double kInputClamp = 5.0;

  static std::span<const ConfigField<AttentionLearnerConfig>> config_fields() {
    return AttentionLearner::config_fields();
  }

  AttentionCore() = default;
  AttentionCore(const AttentionLearnerConfig& config, const LearnerContext& context);
  static Status validate(const AttentionLearnerConfig& config, const LearnerContext& context) {
    return AttentionLearner::validate(config, context);
  }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const MultiHeadAttention& layer() const noexcept { return layer_; }

 private:
  friend RlsReadoutCore<AttentionCore, AttentionLearnerConfig>;

  void build(std::size_t n_features);
  // Fills features_ for x (built, right width); commits the layer step when learn is true.
  void featurize(std::span<const double> x, bool learn) const;
  bool try_build(std::size_t n_features);
  void advance(std::span<const double> x, double y, double weight);
  void peek_features(std::span<const double> x) const { featurize(x, false); }
  void restart();
  std::size_t extractor_memory_bytes() const;

  std::vector<double> w_in_;
  WelfordNormalizer scaler_;
  mutable MultiHeadAttention layer_;  // mutated only by learn_one (featurize with learn = true)
  mutable std::vector<double> z_, u_;
};

}  // namespace irithyll::nn
