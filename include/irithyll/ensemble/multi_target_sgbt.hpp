// MultiTargetSGBT ("multi_target_sgbt"): several regression targets per
// sample, one SGBT per target. Every member takes the same SGBT settings and
// the same seed, so member k is bit for bit the SGBT that `--model sgbt
// --target k` would train on that column alone; the targets share nothing but
// the feature vector (no cross-target information: the simplest multi-output
// boosting, and the baseline any shared-tree variant has to beat).
//
// Through the Learner interface: n_outputs() = number of targets,
// predict_multi() fills one estimate per target and learn_multi() teaches
// every member whose target is finite (a missing target leaves only its own
// member untaught). predict_one / learn_one address target 0 alone.
//
// Cost: n_targets x SGBT per sample, no extra allocation after warm-up.
// Memory: the members' sum. One thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {

class MultiTargetSGBT final : public Learner {
 public:
  // Every member's settings (a regression loss); the number of targets
  // comes from the data (LearnerContext::n_targets).
  using Config = SGBTConfig;
  static constexpr std::string_view kName = "multi_target_sgbt";
  static constexpr std::size_t kMaxTargets = 4096;
  static std::span<const ConfigField<Config>> config_fields() { return sgbt_config_fields(); }

  MultiTargetSGBT();  // blank one-target instance, to decode() into
  // context.n_targets members seeded with context.seed. REQUIRES: config
  // valid with a regression loss, 1 <= n_targets <= kMaxTargets (make() checks).
  MultiTargetSGBT(const Config& config, const LearnerContext& context);
  // Regression only; the targets and the seed from the context
  // (config.seed is overwritten), the width from the first sample.
  static Result<std::unique_ptr<MultiTargetSGBT>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return members_.front().n_features(); }
  std::size_t n_outputs() const override { return members_.size(); }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_multi(std::span<const double> x, std::span<double> out) const override;
  void learn_multi(std::span<const double> x, std::span<const double> y, double weight = 1.0) override;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const Config& config() const { return config_; }
  const SGBTLearner& member(std::size_t k) const { return members_[k]; }

 private:
  void build(std::size_t n_targets);

  // The settings and target count checked together (make(), decode()).
  static Status validate(const Config& config, std::uint64_t n_targets);

  Config config_;
  std::vector<SGBTLearner> members_;  // one per target, in target order
  std::uint64_t samples_seen_ = 0;    // learn calls with at least one target taught
};

}  // namespace irithyll
