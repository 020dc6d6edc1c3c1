// LogLinearCore: the whole of LogLinearLearner, which holds it by pointer (include/irithyll/nn/attention/log_linear_learner.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include <optional>
#include <vector>

#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "nn/continual/gradient_continual.hpp"
#include "nn/primitives.hpp"
#include "readout/readout_core.hpp"

namespace irithyll::nn {

class LogLinearCore final : public RlsReadoutCore<LogLinearCore, LogLinearLearnerConfig> {
 public:
  static constexpr std::string_view kName = LogLinearLearner::kName;
  static constexpr bool kProbaNeedsClassCount = true;
  static constexpr double kInputClamp = 5.0;

  static std::span<const ConfigField<LogLinearLearnerConfig>> config_fields() {
    return LogLinearLearner::config_fields();
  }

  LogLinearCore() = default;
  LogLinearCore(const LogLinearLearnerConfig& config, const LearnerContext& context);
  static Status validate(const LogLinearLearnerConfig& config, const LearnerContext& context) {
    return LogLinearLearner::validate(config, context);
  }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const LogLinearAttention& layer() const noexcept { return layer_; }
  // The continual-learning guard when config.continual is on and the learner is built.
  const GradientContinual* continual() const noexcept { return guard_ ? &*guard_ : nullptr; }

 private:
  friend RlsReadoutCore<LogLinearCore, LogLinearLearnerConfig>;

  void build(std::size_t n_features);
  void input(std::span<const double> x) const;  // z_, u_ and the z part of features_ (built, right width)
  bool try_build(std::size_t n_features);
  void advance(std::span<const double> x, double y, double weight);
  void peek_features(std::span<const double> x) const;
  std::size_t extractor_memory_bytes() const;
  void train_guarded(std::span<double> out);

  std::vector<double> w_in_;
  WelfordNormalizer scaler_, y_stats_;
  mutable LogLinearAttention layer_;
  mutable std::vector<double> z_, u_, target_;
  std::optional<GradientContinual> guard_;
};

}  // namespace irithyll::nn
