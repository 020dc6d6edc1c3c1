// Prequential (test-then-train) evaluation, Dawid 1984; Gama, Sebastiao &
// Rodrigues 2013: for each sample of the stream, predict, score the
// prediction, then learn from the sample and drop it. Every sample is a test
// sample before it is a training sample, so no hold-out set is needed and the
// curve shows how the model tracks a drifting concept.
//
// Usage (the `irithyll eval` command):
//
//   PrequentialOptions opt;            // defaults below
//   opt.max_samples = 100000;
//   LearningCurveWriter curve(curve_file, schema.task);   // report.hpp
//   auto report = run_prequential(*learner, *stream, opt, &curve);
//   if (!report) { print(report.status()); return 1; }
//   std::puts(report_to_json(*report, stream->schema().task).c_str());
//
// Cost: one predict (predict_proba_one for classification) and one learn_one
// per sample, plus O(1) metric updates and, every curve_every samples, an
// O(K) metric read. Memory: the stream's feature vector, K probabilities and
// the rolling window (rolling_window entries). Runs on the calling thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/eval/confusion_matrix.hpp"
#include "irithyll/eval/interval_metrics.hpp"
#include "irithyll/eval/metric_values.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll {

// What to do with a row whose target is missing (NaN): in streaming practice
// labels arrive late or never, so by default such a row is predicted (the
// prediction is reported) but neither scored nor learned.
enum class UnlabelledPolicy : std::uint8_t { kPredict, kSkip, kError };

struct PrequentialOptions {
  // Most samples to evaluate (after `skip`); empty = until the stream ends.
  std::optional<std::uint64_t> max_samples;
  // Rows read and dropped first: neither scored nor learned.
  std::uint64_t skip = 0;
  // A learning-curve point every this many evaluated samples (0 = none). A
  // last point is always sent at the end when curve_every > 0.
  std::uint64_t curve_every = 1000;
  // Window of the rolling metrics (>= 1).
  std::size_t rolling_window = 1000;
  // A progress tick every this many evaluated samples (0 = none).
  std::uint64_t progress_every = 10000;
  // Level of the prediction intervals scored for learners that give them
  // (eval/interval_metrics.hpp), in (0, 1).
  double interval_level = 0.9;

  UnlabelledPolicy unlabelled = UnlabelledPolicy::kPredict;
  // Delayed labels (verification latency; Grzenda, Gomes & Bifet 2020): the
  // row at t is predicted and scored at t, but learned only at t + label_delay.
  // The last label_delay rows are never learned. Memory: label_delay rows.
  std::uint64_t label_delay = 0;
  // Regression: clip the target each learner is taught to a robust band
  // around the recent targets (eval/target_guard.hpp), so one mistyped
  // target cannot spoil the model for good. Scores use the raw target.
  bool guard_targets = true;
};

struct CurvePoint {
  std::uint64_t samples = 0;  // evaluated so far
  double seconds = 0.0;       // since the first evaluated sample
  double samples_per_second = 0.0;
  MetricValues cumulative;
  MetricValues rolling;  // over the last min(samples, rolling_window)
};

// Callbacks from inside the loop; all run on the calling thread and must not
// touch the learner or the stream. Default bodies do nothing.
class PrequentialObserver {
 public:
  virtual ~PrequentialObserver() = default;
  // Before learning sample `index` (0-based among the rows after the skip,
  // unlabelled rows included): its target y (class index for
  // classification; NaN for an unlabelled row), the prediction (arg-max class
  // index, or the regression estimate) and, for classification, the
  // probabilities (size n_classes; proba[1] is P(class 1) for binary tasks).
  // The span is only valid during the call.
  virtual void on_prediction(std::uint64_t index, double y, double prediction, std::span<const double> proba);
  // Learners with intervals: the interval of sample `index`, just before its on_prediction.
  virtual void on_interval(std::uint64_t index, const Interval& interval);
  virtual void on_curve_point(const CurvePoint& point);
  // `total` is the number of samples that will be evaluated when known.
  virtual void on_progress(std::uint64_t done, std::optional<std::uint64_t> total);
};

struct PrequentialReport {
  Task task = Task::kRegression;
  std::string learner;           // learner.name()
  std::uint64_t samples = 0;     // evaluated
  std::uint64_t skipped = 0;     // rows dropped by options.skip
  std::uint64_t unlabelled = 0;  // rows without a target (predicted or skipped, never scored)
  double seconds = 0.0;          // wall time after the skip: reading, predicting, learning, observers
  double samples_per_second = 0.0;
  std::size_t model_bytes = 0;   // learner.memory_bytes() at the end
  MetricValues metrics;          // over all evaluated samples
  MetricValues rolling;          // over the last rolling_window samples
  ConfusionMatrix confusion;     // classification only (else 0 x 0)
  std::optional<IntervalReport> interval;  // learners with intervals only
};

// Errors (Status, nothing learned past the failure point): options invalid;
// learner and stream disagree on task, class count or feature count; a
// stream error (its message, e.g. "data.csv:17:3: ..."); an infinite target,
// a missing one under UnlabelledPolicy::kError, or a class index outside
// [0, n_classes).
Result<PrequentialReport> run_prequential(Learner& learner, Stream& stream, const PrequentialOptions& options,
                                          PrequentialObserver* observer = nullptr);

// Several learners over ONE pass of the stream (each row is predicted,
// scored and learned by every learner in turn, so they see identical data;
// each learner gives the same results as alone). observers: empty, or one
// per learner (may be nullptr). With more than one learner, seconds and
// samples_per_second count only the time spent inside each learner, so the
// figures compare models rather than the shared reading.
Result<std::vector<PrequentialReport>> run_prequential_side_by_side(
    std::span<Learner* const> learners, Stream& stream, const PrequentialOptions& options,
    std::span<PrequentialObserver* const> observers = {});

}  // namespace irithyll
