// AdaptiveSGBT ("adaptive_sgbt"): SGBT whose learning rate follows a
// schedule (lr_schedule.hpp). Before each sample is learned, its loss under
// the current model (squared error for regression, log loss for
// classification) is handed to the schedule, and the rate it returns becomes
// every committee's shrinkage (SGBT::set_learning_rate; prediction is
// base + lr * sum of tree outputs, so a new rate rescales the committee, as in
// the Rust library). The schedule starts from the SGBT learning rate.
//
// Cost: one extra prediction per sample. Allocation-free after warm-up.
#pragma once

#include <memory>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/lr_schedule.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {

struct AdaptiveSGBTConfig {
  SGBTConfig base;
  LrScheduleConfig schedule;

  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
};

// Own rows (schedule and its parameters); AdaptiveSGBT::config_fields() adds the SGBT rows for `base`.
std::span<const ConfigField<AdaptiveSGBTConfig>> adaptive_sgbt_config_fields();

class AdaptiveSGBT final : public Learner {
 public:
  using Config = AdaptiveSGBTConfig;
  static constexpr std::string_view kName = "adaptive_sgbt";
  // The schedule rows, then the shared SGBT rows for `base`.
  static std::span<const ConfigField<Config>> config_fields();

  AdaptiveSGBT();
  // REQUIRES: config.validate() ok; classification needs n_classes >= 2 (make() checks).
  AdaptiveSGBT(const AdaptiveSGBTConfig& config, const LearnerContext& context);
  // Task, classes, width and seed from the context (config.base.seed is overwritten).
  static Result<std::unique_ptr<AdaptiveSGBT>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return inner_.task(); }
  std::size_t n_classes() const override { return inner_.n_classes(); }
  std::size_t n_features() const override { return inner_.n_features(); }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override { return inner_.predict_one(x); }
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override {
    inner_.predict_proba_one(x, proba);
  }

  void reset() override;
  std::uint64_t n_samples_seen() const override { return inner_.n_samples_seen(); }
  std::size_t memory_bytes() const override { return sizeof(*this) + inner_.memory_bytes(); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const AdaptiveSGBTConfig& config() const { return config_; }
  double current_learning_rate() const { return scheduler_.current(); }
  // The SGBT that learns and predicts (explanations read its trees).
  const SGBTLearner& inner() const { return inner_; }

 private:
  AdaptiveSGBTConfig config_;
  SGBTLearner inner_;
  LrScheduler scheduler_;
  mutable std::vector<double> proba_;
};

}  // namespace irithyll
