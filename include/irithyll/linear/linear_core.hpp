// LinearCore: the state and the sample path every linear learner of this
// area shares (SGD regressions, passive-aggressive, perceptron, ALMA).
//
// A model has n_out linear outputs, each a row of `width` coefficients and an
// intercept: one output for regression and for two classes, one per class
// otherwise (one-vs-rest or softmax). Features go through a Standardizer
// first (on or off per model), so a missing feature contributes 0.
//
// Classification: predict_one is the first arg-max of the scores (one
// output: class 1 when the score is > 0); predict_proba_one is the model's
// link of the scores (a logistic sigmoid, normalised over one-vs-rest
// outputs, or a softmax).
//
// The width is the context's, or the first admitted sample's; the arrays are
// allocated with the first admitted sample. Cost O(n_out * width) per
// sample; nothing allocated per sample after the first.
// Thread safety: one owner (predictions use mutable scratch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/linear/standardizer.hpp"

namespace irithyll {

class LinearCore : public Learner {
 public:
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.n_classes; }
  std::size_t n_features() const override { return width_; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;

  std::size_t n_outputs_linear() const { return n_out_; }
  // Output k's coefficients (on standardised features when standardisation
  // is on), then its intercept; empty until the width is known.
  std::span<const double> coefficients(std::size_t k) const;

 protected:
  // Called by each model's make (and decode): n_out outputs, n_state
  // optimiser arrays shaped like the coefficients, n_aux model scalars.
  void setup(const LearnerContext& context, std::size_t n_out, std::size_t n_state, std::size_t n_aux,
             bool standardize);
  // One admitted sample on standardised features z (missing features are 0).
  virtual void update(std::span<const double> z, double y, double weight) = 0;
  // Probabilities from the n_out scores (classification only).
  virtual void link(std::span<const double> scores, std::span<double> proba) const = 0;
  // The aux scalars' values at construction (ALMA's counters start at 1).
  virtual double aux_initial() const { return 0.0; }
  // Every output's intercept before the first sample (and a regression's
  // prediction until then).
  virtual double intercept_start() const { return 0.0; }

  double score(std::size_t k, std::span<const double> z) const;
  void encode_core(ByteWriter& out) const;
  // Reads what encode_core wrote into a model already set up from the
  // decoded config and context; checks every size and value first.
  Status decode_core(ByteReader& in);

  LearnerContext context_;
  std::size_t width_ = 0;
  std::size_t n_out_ = 1, n_state_ = 0, n_aux_ = 0;
  Standardizer scaler_;
  std::vector<double> w_;      // n_out rows of width + 1 (intercept last)
  std::vector<double> state_;  // n_state arrays shaped like w_ (optimiser moments)
  std::vector<double> aux_;    // n_aux scalars (step counts, decay powers)
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;

 private:
  void allocate(std::size_t width);
  bool standardize_ = true;
  mutable std::vector<double> z_, scores_, proba_;
};

// Numerically safe logistic function.
double logistic(double s);

}  // namespace irithyll
