// SGBTLearner: streaming gradient-boosted trees behind the Learner interface
// (name "sgbt"). Regression uses one committee with the configured loss;
// binary classification one logistic committee (proba = [1 - p, p]);
// K-class classification one softmax committee per class, trained on the
// exact softmax gradient p_c - 1[y = c] (each committee's loss is evaluated at
// its score minus the log-sum-exp of the other committees' scores) and
// predicting a max-shifted (stable) softmax.
//
// Input guards: a non-finite target, a non-positive or non-finite weight, a
// class label outside 0..K-1, or a feature vector whose length differs from
// the first sample's is skipped and counted (n_skipped()). Non-finite feature
// values are treated as missing (NaN, routed left); at prediction a short
// vector is padded with missing values.
//
// Cost: K committees x SGBT cost; predict allocates nothing (model-owned
// scratch). Thread safety: one thread at a time (const methods use mutable
// scratch).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "irithyll/ensemble/sgbt.hpp"
#include "irithyll/ensemble/sgbt_diagnostics.hpp"
#include "irithyll/interval.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/packed/exportable.hpp"
#include "irithyll/threaded.hpp"
#include "irithyll/tree_model.hpp"
#include "irithyll/tunable.hpp"

namespace irithyll {

class SGBTLearner final : public Learner,
                          public TreeModel,
                          public Exportable,
                          public Diagnosable,
                          public ConfidencePredictor,
                          public Tunable,
                          public Threaded {
 public:
  using Config = SGBTConfig;
  static constexpr std::string_view kName = "sgbt";
  static std::span<const ConfigField<SGBTConfig>> config_fields() { return sgbt_config_fields(); }

  // Blank regression instance (default config), e.g. to decode() into.
  SGBTLearner();
  // The committees of the family members: the seed is config.seed, the width
  // comes from the first sample. REQUIRES: config valid; classification
  // needs n_classes >= 2 (make() checks).
  SGBTLearner(const SGBTConfig& config, const LearnerContext& context);
  // Task, classes, width (0 = from the first sample) and seed from the
  // context; config.seed is overwritten by context.seed.
  static Result<std::unique_ptr<SGBTLearner>> make(const SGBTConfig& config, const LearnerContext& context);
  // make()'s checks alone, for a family member that builds its SGBTs itself
  // (building one only to check it costs every tree).
  static Status check(const SGBTConfig& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return task_; }
  std::size_t n_classes() const override { return task_ == Task::kClassification ? n_classes_ : 0; }
  std::size_t n_features() const override { return n_features_; }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  // One raw score per committee. REQUIRES: out.size() == n_committees().
  void predict_raw(std::span<const double> x, std::span<double> out) const;
  // Tree-major over the rows: one committee (regression, binary) over all
  // of them, softmax committees block by block, then the arg-max; rows of
  // another length or with non-finite values take the per-row path.
  // Bit-identical to predict_one either way.
  void predict_batch(std::span<const double> rows, std::size_t n_features, std::span<double> out) const override;
  // predict_one and a confidence 1/sqrt(sum lr^2/(H+lambda)) over the trees
  // (summed over committees for multi-class); 0 when untrained.
  std::pair<double, double> predict_with_confidence(std::span<const double> x) const override;

  void reset() override;
  // Threaded: every committee's pipeline from the next sample on (same results).
  Status set_threads(std::uint32_t threads) override;
  std::uint32_t threads() const override { return config_.threads; }
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;
  // The state without the settings and context (width, counters, each
  // committee's state), for a family member that derives this learner's
  // config from its own and writes that once. decode_state reads it into an
  // instance built with the config, task and classes that wrote it; `trees`
  // says whether the committees' trees carry their binary configs (records
  // written before the trees' settings were derived).
  void encode_state(ByteWriter& out) const;
  Status decode_state(ByteReader& in, TreeSettings trees = TreeSettings::kDerived);
  // Task, classes, the context's width (0 = from the first sample) and seed.
  LearnerContext context() const;

  const SGBTConfig& config() const { return config_; }
  // x as the committees read it: non-finite values -> NaN, the length fixed
  // to n_features() (padded with NaN); x itself when already clean. The
  // returned span may point into model-owned scratch, valid until the next call.
  std::span<const double> sanitize(std::span<const double> x) const;
  // Every committee's shrinkage (SGBT::set_learning_rate). REQUIRES: 0 < lr <= 1.
  void set_learning_rate(double lr) noexcept {
    config_.learning_rate = lr;
    for (SGBT& c : committees_) c.set_learning_rate(lr);
  }
  // Tunable (sgbt_learner_tuning.cpp). The signals: per committee as
  // SGBT::config_diagnostics gives them, averaged over the committees, except
  // effective_dof, which sums their leaves. adjust_config moves every
  // committee's learning rate (clamped to (0, 1]) and lambda (>= 0);
  // apply_structural_change their max-depth (clamped to 1..30) and n-steps
  // (1..10000).
  ConfigDiagnostics config_diagnostics() const override;
  Status adjust_config(double lr_multiplier, double lambda_delta) override;
  Status apply_structural_change(int depth_delta, int steps_delta) override;
  // Every committee's prune-half-life (SGBT::set_prune_half_life) and
  // proactive rule (SGBT::check_proactive_prune: true if any committee
  // replaced a step).
  Status set_prune_half_life(double half_life) override;
  Result<bool> check_proactive_prune() override;
  std::size_t n_committees() const { return committees_.size(); }
  const SGBT& committee(std::size_t c) const { return committees_[c]; }
  ExportModel export_model(std::size_t committee) const override { return committees_[committee].export_model(); }
  std::size_t n_export_models() const override { return committees_.size(); }
  std::size_t n_diagnosed_ensembles() const override { return committees_.size(); }
  SGBTDiagnostics ensemble_diagnostics(std::size_t k) const override { return committees_[k].diagnostics(); }
  std::uint64_t n_tree_replacements() const override {
    std::uint64_t n = 0;
    for (const auto& c : committees_) n += c.n_replacements();
    return n;
  }
  // Splits per feature over every committee's active trees.
  std::vector<std::uint64_t> feature_split_counts() const override;
  // Mean of the committees' normalised importances (by gain).
  std::vector<double> feature_importances() const override;
  // TreeModel: the active trees, committee-major (tree c * n_steps + s is
  // step s of committee c; committee = class for multi-class).
  std::size_t n_dump_trees() const override;
  std::string tree_label(std::size_t i) const override;
  std::string dump_tree(std::size_t i, TreeDumpFormat format, std::span<const std::string> feature_names = {},
                        std::span<const std::vector<std::string>> category_names = {}) const override;
  // Committee c is output c (sgbt_learner_explain.cpp).
  Result<TreeEnsembleView> tree_ensemble() const override;

 private:
  // The width and counters as reset() leaves them, the committees untouched.
  void start_counters();
  // decode_state without its copy: reads into this instance, which must be
  // built for the record and never trained; on an error it is left part
  // read, so only a scratch instance (decode's, or decode_state's copy)
  // calls it. The distributional SGBT reads its two fresh members with it.
  friend class DistributionalSGBT;
  Status read_state(ByteReader& in, TreeSettings trees);
  // The committees, each read by `read`, then the width and counters; into
  // an instance built for them.
  Status read_committees(const std::function<Status(SGBT&)>& read, std::uint64_t n_features, std::uint64_t seen,
                         std::uint64_t skipped);

  SGBTConfig config_;
  std::size_t fixed_features_ = 0;  // the context's width; reset() returns to it
  Task task_ = Task::kRegression;
  std::size_t n_classes_ = 0;
  std::vector<SGBT> committees_;
  std::size_t n_features_ = 0;
  std::uint64_t samples_seen_ = 0;
  std::uint64_t skipped_ = 0;
  mutable std::vector<double> clean_x_;  // scratch
  mutable std::vector<double> raw_;      // scratch, one per committee
};

}  // namespace irithyll
