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
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

enum class Task : std::uint8_t { kRegression = 0, kClassification = 1 };

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
  // model: each learner documents whether it skips or imputes them.
  virtual void learn_one(std::span<const double> x, double y, double weight = 1.0) = 0;
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
