// Pipeline: a chain of transformers feeding a final learner, itself a Learner,
// so pipelines nest and save like any model. Per sample: predict transforms
// with the current statistics; learn transforms with the current statistics,
// trains the learner, then updates the transformers (so no stored statistic
// includes the sample, and predict and learn see the same transformed vector;
// standard_scaler counts the sample's own value in on the fly, never its
// target). The transformed vector lives in scratch
// owned by the pipeline: no allocation per sample after the first.
#pragma once

#include <memory>
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/preprocess/transformer.hpp"

namespace irithyll {

class Pipeline final : public Learner {
 public:
  Pipeline() = default;
  Pipeline(std::vector<std::unique_ptr<Transformer>> steps, std::unique_ptr<Learner> learner);

  std::string_view name() const override { return "pipeline"; }
  Task task() const override { return learner_->task(); }
  std::size_t n_classes() const override { return learner_->n_classes(); }
  // The input width: the first step's, or the learner's when every step keeps
  // any width.
  std::size_t n_features() const override;
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return learner_->n_samples_seen(); }
  // Samples of the wrong width (refused before the steps) plus the learner's
  // own skips. The first count is not saved in checkpoints.
  std::uint64_t n_skipped() const override { return n_refused_ + learner_->n_skipped(); }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const Learner& learner() const { return *learner_; }

 private:
  std::span<const double> transform(std::span<const double> x) const;

  std::vector<std::unique_ptr<Transformer>> steps_;
  std::unique_ptr<Learner> learner_;
  // outputs_[i] is step i's output for the current sample; keeping one per
  // step lets learn_one update each step on its input without re-transforming.
  mutable std::vector<std::vector<double>> outputs_;
  std::uint64_t n_refused_ = 0;
};

// Transformer kinds that pipelines may hold in model files.
std::unique_ptr<Transformer> make_transformer(std::string_view name);

}  // namespace irithyll
