// Learner: the one interface every streaming model implements (trees, neural
// recurrences, reservoirs, pipelines). The CLI and the bindings only ever talk
// to learners, streams and metrics.
//
// Contract (test-then-train): for each sample, call predict_one /
// predict_proba_one, then learn_one, then drop the sample. Prediction never
// changes what the model will learn. Given the same seed and the same stream,
// every learner is bit-for-bit deterministic.
//
//   Regression:      y is the target value; predict_one returns the estimate.
//   Classification:  y is the class index 0..n_classes()-1 (as a double);
//                    predict_proba_one fills n_classes() probabilities and
//                    predict_one returns the arg-max class index.
//
// Thread safety: a learner is used by one thread at a time; const methods may
// use model-owned scratch buffers (declared mutable), so they are not safe to
// call concurrently either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

enum class Task : std::uint8_t { kRegression = 0, kClassification = 1 };

// What the stream decides, not the user's settings: every learner is built
// from its own config (the model's settings only) plus this context, by
//   static Result<std::unique_ptr<T>> T::make(const T::Config&, const LearnerContext&).
struct LearnerContext {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification: >= 2
  std::size_t n_features = 0;  // 0 = taken from the first sample, where the model allows it
  std::uint64_t seed = 42;
  // Regression targets per sample; more than 1 needs a model whose
  // n_outputs() matches (multi_target_sgbt), else make_learner refuses.
  std::size_t n_targets = 1;
  // Feature names in column order, when the stream has them (may be empty):
  // learners that report per-feature facts (importances, explanations) use them.
  std::vector<std::string> feature_names = {};
};

// The context as a checkpoint record (task, classes, features, seed,
// targets, names), so every learner under the contract writes it one way.
// decode_context refuses a class count below 2 for classification, more than
// 2^24 features or classes, and names that do not match the feature count.
void encode_context(const LearnerContext& context, ByteWriter& out);
Status decode_context(ByteReader& in, LearnerContext& context);

// The one admission rule for a sample (Learner::check_sample words it), in
// three parts for learners that must treat them apart (a recurrent model
// advances its state on a sample whose target it cannot learn from):
//   width   x has the learner's width (any width while n_features is 0);
//   weight  finite and > 0 (a zero weight teaches nothing);
//   target  finite and, for classification, a class index in 0..n_classes-1.
inline bool width_admissible(std::span<const double> x, std::size_t n_features) {
  return !x.empty() && (n_features == 0 || x.size() == n_features);
}
inline bool weight_admissible(double weight) {
  return weight > 0.0 && weight <= 1.7976931348623157e308;  // also refuses NaN and +inf
}
inline bool target_admissible(double y, Task task, std::size_t n_classes) {
  if (!(y - y == 0.0)) return false;  // NaN or +-inf
  if (task == Task::kClassification)
    return y >= 0.0 && y < static_cast<double>(n_classes) && y == static_cast<double>(static_cast<std::size_t>(y));
  return true;
}
inline bool sample_admissible(std::span<const double> x, double y, double weight, std::size_t n_features,
                              Task task, std::size_t n_classes) {
  return width_admissible(x, n_features) && weight_admissible(weight) && target_admissible(y, task, n_classes);
}

class Learner {
 public:
  virtual ~Learner() = default;

  // Short stable identifier ("sgbt", "attention", "pipeline"); written into
  // model files to pick the decoder.
  virtual std::string_view name() const = 0;
  virtual Task task() const = 0;
  // Number of classes for classification, 0 for regression.
  virtual std::size_t n_classes() const { return 0; }
  // Number of features the learner expects (0 until fixed by the first sample
  // for learners that learn it).
  virtual std::size_t n_features() const = 0;

  // Learns one sample. Non-finite features or targets must never corrupt the
  // model: each learner documents whether it skips or imputes them. A sample
  // that check_sample() refuses is skipped and counted in n_skipped().
  virtual void learn_one(std::span<const double> x, double y, double weight = 1.0) = 0;
  // Why learn_one would skip this sample, as a message naming what is wrong
  // (width once fixed, a non-finite or negative weight, a non-finite target,
  // a class index out of range), or ok. Front ends call it to refuse bad rows
  // with a clear error instead of learning nothing in silence.
  Status check_sample(std::span<const double> x, double y, double weight = 1.0) const;
  // Samples learn_one skipped as unusable (see check_sample).
  virtual std::uint64_t n_skipped() const { return 0; }
  virtual double predict_one(std::span<const double> x) const = 0;
  // REQUIRES: proba.size() == n_classes(). Regression learners leave it empty.
  virtual void predict_proba_one(std::span<const double> x, std::span<double> proba) const;
  // predict_one over `out.size()` rows stored back to back in `rows`, each
  // n_features long. REQUIRES: rows.size() == out.size() * n_features. The
  // default loops; learners with a faster layout (SGBT: tree-major) override
  // it, with results bit-identical to predict_one.
  virtual void predict_batch(std::span<const double> rows, std::size_t n_features, std::span<double> out) const;

  // Multi-output regression (several targets per sample). Single-output
  // learners keep the defaults: n_outputs() = 1, and the _multi calls forward
  // to predict_one / learn_one on element 0, so nothing on their per-sample
  // path changes. Multi-output learners (multi_target_sgbt) override all
  // three; their predict_one / learn_one then see target 0 only.
  virtual std::size_t n_outputs() const { return 1; }
  // REQUIRES: out.size() == n_outputs().
  virtual void predict_multi(std::span<const double> x, std::span<double> out) const;
  // REQUIRES: y.size() == n_outputs(). A non-finite y[k] leaves output k untaught.
  virtual void learn_multi(std::span<const double> x, std::span<const double> y, double weight = 1.0);

  // Back to the freshly constructed state (same configuration, same seed).
  virtual void reset() = 0;
  virtual std::uint64_t n_samples_seen() const = 0;
  // Heap plus inline bytes owned by the model, to within a few percent.
  virtual std::size_t memory_bytes() const = 0;

  // Complete training state, configuration included, so that decode() into
  // a default-made instance continues bit-identically.
  virtual void encode(ByteWriter& out) const = 0;
  virtual Status decode(ByteReader& in) = 0;
};

}  // namespace irithyll
