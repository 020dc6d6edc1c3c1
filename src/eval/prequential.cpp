#include "irithyll/eval/prequential.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "irithyll/eval/classification_metrics.hpp"
#include "irithyll/eval/regression_metrics.hpp"

namespace irithyll {

void PrequentialObserver::on_prediction(std::uint64_t, double, double, std::span<const double>) {}
void PrequentialObserver::on_interval(std::uint64_t, const Interval&) {}
void PrequentialObserver::on_curve_point(const CurvePoint&) {}
void PrequentialObserver::on_progress(std::uint64_t, std::optional<std::uint64_t>) {}

namespace {

Status check_setup(const Learner& learner, const Schema& schema, const PrequentialOptions& options) {
  if (options.rolling_window == 0) return Status::invalid_argument("prequential: rolling_window must be at least 1");
  if (!(options.interval_level > 0.0 && options.interval_level < 1.0))
    return Status::invalid_argument("prequential: interval level must be in (0, 1)");
  if (learner.task() != schema.task)
    return Status::invalid_argument(std::string("prequential: learner '") + std::string(learner.name()) + "' is a " +
                                    (learner.task() == Task::kClassification ? "classifier" : "regressor") +
                                    " but the stream is a " +
                                    (schema.task == Task::kClassification ? "classification" : "regression") +
                                    " task");
  if (schema.task == Task::kClassification) {
    if (schema.n_classes() < 1) return Status::invalid_argument("prequential: the stream declares no classes");
    if (learner.n_classes() != schema.n_classes())
      return Status::invalid_argument("prequential: learner has " + std::to_string(learner.n_classes()) +
                                      " classes, the stream " + std::to_string(schema.n_classes()));
  }
  if (learner.n_features() != 0 && learner.n_features() != schema.n_features())
    return Status::invalid_argument("prequential: learner expects " + std::to_string(learner.n_features()) +
                                    " features, the stream has " + std::to_string(schema.n_features()));
  return Status::ok();
}

// The two tasks differ only in how a sample is scored; the loop is shared.
struct Scorer {
  Task task;
  ClassificationMetrics cls;
  RollingClassificationMetrics cls_rolling;
  RegressionMetrics reg;
  RollingRegressionMetrics reg_rolling;

  Scorer(Task t, std::size_t k, std::size_t window)
      : task(t), cls(k), cls_rolling(k, window), reg_rolling(t == Task::kRegression ? window : 1) {}
  MetricValues cumulative() const { return task == Task::kClassification ? cls.values() : reg.values(); }
  MetricValues rolling() const { return task == Task::kClassification ? cls_rolling.values() : reg_rolling.values(); }
};

}  // namespace

Result<PrequentialReport> run_prequential(Learner& learner, Stream& stream, const PrequentialOptions& options,
                                          PrequentialObserver* observer) {
  const Schema& schema = stream.schema();
  IRITHYLL_RETURN_IF_ERROR(check_setup(learner, schema, options));
  const bool classify = schema.task == Task::kClassification;
  const std::size_t k = classify ? schema.n_classes() : 0;

  PrequentialReport report;
  report.task = schema.task;
  report.learner = std::string(learner.name());
  std::vector<double> x(schema.n_features());
  std::vector<double> proba(k);
  double y = 0.0;

  while (report.skipped < options.skip && stream.next(x, y)) ++report.skipped;
  IRITHYLL_RETURN_IF_ERROR(stream.status());

  std::optional<std::uint64_t> total = options.max_samples;
  if (const auto hint = stream.size_hint(); hint.has_value()) {
    const std::uint64_t left = *hint > report.skipped ? *hint - report.skipped : 0;
    total = total.has_value() ? std::min(*total, left) : left;
  }
  const std::uint64_t limit = options.max_samples.value_or(UINT64_MAX);

  Scorer scorer(schema.task, k, options.rolling_window);
  IntervalScorer intervals(learner, options.interval_level);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto curve_point = [&](std::uint64_t n) {
    CurvePoint p;
    p.samples = n;
    p.seconds = elapsed();
    p.samples_per_second = p.seconds > 0.0 ? static_cast<double>(n) / p.seconds : 0.0;
    p.cumulative = scorer.cumulative();
    p.rolling = scorer.rolling();
    observer->on_curve_point(p);
  };

  std::uint64_t n = 0;
  while (n < limit && stream.next(x, y)) {
    if (!std::isfinite(y))
      return Status::invalid_argument("prequential: sample " + std::to_string(n) + " has a non-finite target");
    double prediction = 0.0;
    if (classify) {
      if (!(y >= 0.0 && y < static_cast<double>(k)) || y != std::floor(y))
        return Status::invalid_argument("prequential: sample " + std::to_string(n) + " has class " +
                                        std::to_string(y) + ", outside 0.." + std::to_string(k - 1));
      const auto truth = static_cast<std::size_t>(y);
      learner.predict_proba_one(x, proba);
      const std::size_t predicted = argmax_class(proba);
      prediction = static_cast<double>(predicted);
      scorer.cls.update(truth, predicted, proba[truth]);
      scorer.cls_rolling.update(truth, predicted, proba[truth]);
    } else {
      if (intervals.active()) {
        const Interval iv = intervals.observe(x, y);
        if (observer != nullptr) observer->on_interval(n, iv);
      }
      prediction = learner.predict_one(x);
      scorer.reg.update(y, prediction);
      scorer.reg_rolling.update(y, prediction);
    }
    if (observer != nullptr) observer->on_prediction(n, y, prediction, proba);
    learner.learn_one(x, y);
    ++n;
    if (observer != nullptr) {
      if (options.curve_every > 0 && n % options.curve_every == 0) curve_point(n);
      if (options.progress_every > 0 && n % options.progress_every == 0) observer->on_progress(n, total);
    }
  }
  IRITHYLL_RETURN_IF_ERROR(stream.status());

  report.samples = n;
  report.seconds = elapsed();
  report.samples_per_second = report.seconds > 0.0 ? static_cast<double>(n) / report.seconds : 0.0;
  report.model_bytes = learner.memory_bytes();
  report.metrics = scorer.cumulative();
  report.rolling = scorer.rolling();
  if (classify) report.confusion = scorer.cls.confusion();
  if (intervals.active()) report.interval = intervals.report();
  if (observer != nullptr) {
    if (options.curve_every > 0 && n % options.curve_every != 0) curve_point(n);
    if (options.progress_every > 0 && n % options.progress_every != 0) observer->on_progress(n, total);
  }
  return report;
}

}  // namespace irithyll
