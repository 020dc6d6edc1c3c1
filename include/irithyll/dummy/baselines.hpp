// Baselines every streaming evaluation should print beside a model:
//   no_change  predicts the last label (classification) or target (regression)
//              seen; on a stream with temporal dependence (Electricity) it is
//              hard to beat, and kappa_t measures a model against it.
//   majority   predicts the most frequent class so far (probabilities are the
//              class frequencies); kappa_m measures a model against it.
//   mean       predicts the mean target so far (regression).
// With half-life h > 0, majority and mean forget: each sample's weight decays
// by 2^(-1/h) per later sample, so they track a drifting prior.
//
// They are learners under the contract (learner.hpp), with a config table
// each, so `--model no_change`, checkpoints and Python all reach them. Cost:
// O(1) per sample (majority: O(classes) per prediction), nothing allocated
// after construction.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct NoChangeConfig {};

class NoChangeLearner final : public Learner {
 public:
  using Config = NoChangeConfig;
  static constexpr std::string_view kName = "no_change";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<NoChangeLearner>> make(const Config& config, const LearnerContext& context);

  NoChangeLearner() = default;
  const Config& config() const { return config_; }

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.n_classes; }
  std::size_t n_features() const override { return context_.n_features; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override { return sizeof(*this); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  Config config_;
  LearnerContext context_;
  std::size_t width_ = 0;  // context's n_features, or the first sample's
  double last_ = 0.0;      // nothing seen: class 0 / target 0
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;
};

struct PriorConfig {
  double half_life = 0.0;  // samples; 0 = never forget
};

// "majority" (classification) and "mean" (regression): the prior of the
// target, with optional exponential forgetting.
class PriorLearner : public Learner {
 public:
  using Config = PriorConfig;
  static std::span<const ConfigField<Config>> config_fields();
  const Config& config() const { return config_; }

  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.n_classes; }
  std::size_t n_features() const override { return width_; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override { return sizeof(*this) + mass_.capacity() * sizeof(double); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 protected:
  Status init(const Config& config, const LearnerContext& context);

 private:
  Config config_;
  LearnerContext context_;
  std::size_t width_ = 0;
  double keep_ = 1.0;          // per-sample decay 2^(-1/half_life)
  std::vector<double> mass_;   // classification: weight per class; regression: {weight, weighted sum}
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;
};

class MajorityLearner final : public PriorLearner {
 public:
  static constexpr std::string_view kName = "majority";
  static Result<std::unique_ptr<MajorityLearner>> make(const Config& config, const LearnerContext& context);
  std::string_view name() const override { return kName; }
};

class MeanLearner final : public PriorLearner {
 public:
  static constexpr std::string_view kName = "mean";
  static Result<std::unique_ptr<MeanLearner>> make(const Config& config, const LearnerContext& context);
  std::string_view name() const override { return kName; }
};

}  // namespace irithyll
