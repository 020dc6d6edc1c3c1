// HoeffdingTreeLearner: a single incremental decision tree behind the Learner
// interface (name "hoeffding_tree"): VFDT for classification, a FIMT-DD style
// variance-reduction tree for regression (see irithyll/tree/vfdt.hpp for the
// algorithm and its cost).
//
// Input guards: a non-finite target, a non-positive or non-finite weight, a
// class label outside 0..K-1, or a feature vector whose length differs from
// the model's is skipped and counted (n_skipped()). Non-finite feature values
// are missing: estimators skip them and routing sends them left. With
// n_features 0 the first sample fixes it. Predictions before any sample:
// class 0 with uniform probabilities, or 0.
//
// Cost: one tree; learn_one allocates only when the tree grows. Thread
// safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/tree/vfdt.hpp"
#include "irithyll/tree/vfdt_tree_model.hpp"

namespace irithyll {

class HoeffdingTreeLearner final : public Learner, public VfdtTreeModel {
 public:
  using Config = HoeffdingTreeConfig;
  static constexpr std::string_view kName = "hoeffding_tree";
  static std::span<const ConfigField<Config>> config_fields() { return hoeffding_tree_config_fields(); }

  // Blank classification instance (default config), e.g. to decode() into.
  HoeffdingTreeLearner();
  // REQUIRES: config valid; classification n_classes >= 2 (make() checks).
  HoeffdingTreeLearner(const Config& config, const LearnerContext& context);
  static Result<std::unique_ptr<HoeffdingTreeLearner>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.task == Task::kClassification ? context_.n_classes : 0; }
  std::size_t n_features() const override { return n_features_; }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const Config& config() const { return config_; }
  // TreeModel: its one tree (none before the feature count is known).
  std::size_t n_dump_trees() const override;
  std::string tree_label(std::size_t i) const override;
  Result<TreeEnsembleView> tree_ensemble() const override;
  // nullptr until the number of features is known.
  const Vfdt* tree() const { return tree_.has_value() ? &*tree_ : nullptr; }

 private:
  const Vfdt& vfdt_tree(std::size_t i) const override;
  std::size_t vfdt_n_features() const override { return n_features_; }
  std::span<const double> fit(std::span<const double> x) const;  // pads a short vector with NaN

  Status decode_v1(ByteReader& in);  // records written before the settings were saved by name

  HoeffdingTreeConfig config_{};
  // Task, classes, seed; its n_features is the one asked for (0 = from the
  // first sample), n_features_ the one in use.
  LearnerContext context_{Task::kClassification, 2, 0, 0};
  std::size_t n_features_ = 0;
  std::optional<Vfdt> tree_;
  std::uint64_t samples_seen_ = 0;
  std::uint64_t skipped_ = 0;
  mutable std::vector<double> padded_;
};

}  // namespace irithyll
