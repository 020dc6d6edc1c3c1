// ContinualLearner ("continual"): continual learning around any catalogue
// model, by one of four strategies.
//
//   reset (any model)  A drift detector watches the model's prequential loss:
//                      the 0/1 error of its prediction for a classifier,
//                      |y - y_hat| for a regressor. On a Warning a fresh
//                      model built from the same settings starts learning
//                      beside it (when `background` is on); on a Drift that
//                      background model, or a fresh one where there is none,
//                      takes the model's place. This is the warning/drift
//                      protocol of Gama et al. (2004), which River offers as
//                      DriftRetrainingClassifier. The old model keeps
//                      answering until the drift, so a warning that never
//                      turns into a drift costs nothing but the background
//                      model's learning; a second warning while one is
//                      learning keeps it (it has seen the most of the new
//                      concept). A drift that is a fall in the loss (ADWIN,
//                      KSWIN and Page-Hinkley see both directions; a recent
//                      average of the loss below a longer one tells it)
//                      replaces nothing.
//   ewc | mask         The guard acts on the trained weights of models that
//                      expose them (Kirkpatrick et al. 2017's elastic weight
//                      consolidation with a streaming Fisher estimate; a
//                      drift-triggered freeze of the most important weights).
//   regen              Regeneration of the least useful units, for models
//                      that expose units.
// For ewc, mask and regen the model applies the guard in its own update:
// the wrapper hands the strategy and detector to the model's `continual`
// settings, and a model that has no such settings, or not that strategy, is
// refused with its name and what it offers. Other guard settings
// (ewc-lambda, continual-fraction, ...) go in `base` with the model's own.
//
// Deterministic: every fresh model is built from the same settings and seed.
// Cost under reset: the model's, one detector update per sample, and a second
// model's learning between a warning and the drift that follows it. encode()
// includes the model, the background model and the detector, so a resumed
// run takes the same decisions.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/model_report.hpp"
#include "irithyll/selection/member_factory.hpp"

namespace irithyll {

enum class ContinualStrategy : std::uint8_t { kReset = 0, kEwc = 1, kMask = 2, kRegen = 3 };

struct ContinualLearnerConfig {
  std::string model = "hoeffding_tree";  // the wrapped model: "name" or "name:key=value,key=value"
  ContinualStrategy strategy = ContinualStrategy::kReset;
  DriftKind detector = DriftKind::kAdwin;
  bool background = true;  // reset: learn a replacement from the first warning on
};

class ContinualLearner final : public Learner, public ModelReport {
 public:
  using Config = ContinualLearnerConfig;
  static constexpr std::string_view kName = "continual";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<ContinualLearner>> make(const Config& config, const LearnerContext& context,
                                                        const MemberFactory& factory);

  ContinualLearner() = default;  // blank without a factory: decode() refuses
  explicit ContinualLearner(const MemberFactory& factory) : factory_(factory) {}
  const Config& config() const { return config_; }
  const Learner& model() const { return *model_; }
  bool has_background() const { return background_ != nullptr; }
  std::uint64_t n_warnings() const { return warnings_; }
  std::uint64_t n_drifts() const { return drifts_; }
  // Drifts where a background model (not a fresh one) took over.
  std::uint64_t n_promotions() const { return promotions_; }
  // Drifts that were falls in the loss (two-sided detectors), left alone.
  std::uint64_t n_improvements() const { return improvements_; }

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.task == Task::kClassification ? context_.n_classes : 0; }
  std::size_t n_features() const override { return model_ ? model_->n_features() : 0; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  std::uint64_t n_skipped() const override { return skipped_; }
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  std::string report_text() const override;
  std::string report_json() const override;

 private:
  Result<std::unique_ptr<Learner>> fresh_model() const;
  double loss(std::span<const double> x, double y) const;

  MemberFactory factory_;
  Config config_;
  LearnerContext context_;
  std::unique_ptr<Learner> model_;
  std::unique_ptr<Learner> background_;   // reset: learning since the last warning
  std::unique_ptr<DriftDetector> detector_;  // reset only
  std::uint64_t seen_ = 0, skipped_ = 0;
  std::uint64_t warnings_ = 0, drifts_ = 0, promotions_ = 0, improvements_ = 0;
  double recent_loss_ = 0.0, longer_loss_ = 0.0;  // reset: EWMAs of the loss (a rise or a fall?)
  bool loss_is_rising() const;  // the recent loss average above the longer one
};

// "reset" | "ewc" | "mask" | "regen".
Result<ContinualStrategy> parse_continual_strategy(std::string_view name);
std::string_view continual_strategy_name(ContinualStrategy strategy);

}  // namespace irithyll
