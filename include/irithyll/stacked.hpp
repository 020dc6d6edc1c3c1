// StackedLearner ("stacked"): stacking (Wolpert 1992) for streams with a
// temporal holdout: for each sample, every base model predicts first, the
// meta model learns from those predictions (and, with passthrough, the raw
// features), and only then do the bases learn the sample. So the meta model
// is only ever trained on predictions the bases made without having seen
// the target: the streaming analogue of out-of-fold predictions.
//
// Bases and meta model are any catalogue models, by name, each with optional
// settings: "sgbt(learning-rate=0.1;n-steps=50),mamba". Meta features per
// base: its estimate (regression) or its K class probabilities
// (classification); passthrough appends the d raw features.
//
// Cost: the bases' and the meta model's costs. Allocation-free per sample
// after warm-up when its parts are. One thread at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct StackedConfig {
  std::string bases = "sgbt,arf,hoeffding_tree";  // catalogue models with optional (key=value;...) settings
  std::string meta = "sgbt(n-steps=20;learning-rate=0.1;grace-period=50)";
  bool passthrough = false;
};

std::span<const ConfigField<StackedConfig>> stacked_config_fields();

// "name(key=value;key=value)" -> name and settings.
struct ModelSpec {
  std::string name;
  ModelSettings settings;
};
Result<std::vector<ModelSpec>> parse_model_specs(std::string_view text);

class StackedLearner final : public Learner {
 public:
  static constexpr std::string_view kName = "stacked";

  StackedLearner() = default;  // blank, to decode() into
  static Result<std::unique_ptr<StackedLearner>> make(const StackedConfig& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.task == Task::kClassification ? context_.n_classes : 0; }
  // The context's width, or the one the bases fixed on their first sample.
  std::size_t n_features() const override {
    return context_.n_features != 0 || bases_.empty() ? context_.n_features : bases_.front()->n_features();
  }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const StackedConfig& config() const { return config_; }
  std::size_t n_bases() const { return bases_.size(); }
  const Learner& base(std::size_t i) const { return *bases_[i]; }

 private:
  Status build();
  std::size_t width_per_base() const { return context_.task == Task::kClassification ? context_.n_classes : 1; }
  std::span<const double> meta_features(std::span<const double> x) const;

  StackedConfig config_;
  LearnerContext context_;
  std::vector<std::unique_ptr<Learner>> bases_;
  std::unique_ptr<Learner> meta_;
  std::uint64_t samples_seen_ = 0;
  mutable std::vector<double> features_, proba_;
};

}  // namespace irithyll
