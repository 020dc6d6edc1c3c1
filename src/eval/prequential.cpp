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
void PrequentialObserver::on_curve_point(const CurvePoint&) {}
void PrequentialObserver::on_progress(std::uint64_t, std::optional<std::uint64_t>) {}

namespace {

Status check_setup(const Learner& learner, const Schema& schema, const PrequentialOptions& options) {
  if (options.rolling_window == 0) return Status::invalid_argument("prequential: rolling_window must be at least 1");
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

  // Delayed labels wait in a ring of label_delay rows (allocated once).
  const std::size_t d = schema.n_features();
  const std::uint64_t delay = options.label_delay;
  std::vector<double> pending_x(static_cast<std::size_t>(delay) * d), pending_y(static_cast<std::size_t>(delay));
  std::uint64_t pending = 0, head = 0;

  std::uint64_t n = 0, rows = 0;
  while (rows < limit && stream.next(x, y)) {
    const std::uint64_t row = rows++;
    const bool labelled = !std::isnan(y);
    if (std::isinf(y))
      return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has a non-finite target");
    if (!labelled) {
      ++report.unlabelled;
      if (options.unlabelled == UnlabelledPolicy::kError)
        return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has no target");
      if (options.unlabelled == UnlabelledPolicy::kSkip) continue;
    }
    double prediction = 0.0;
    if (classify) {
      if (labelled && (!(y >= 0.0 && y < static_cast<double>(k)) || y != std::floor(y)))
        return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has class " +
                                        std::to_string(y) + ", outside 0.." + std::to_string(k - 1));
      learner.predict_proba_one(x, proba);
      const std::size_t predicted = argmax_class(proba);
      prediction = static_cast<double>(predicted);
      if (labelled) {
        const auto truth = static_cast<std::size_t>(y);
        scorer.cls.update(truth, predicted, proba[truth]);
        scorer.cls_rolling.update(truth, predicted, proba[truth]);
      }
    } else {
      prediction = learner.predict_one(x);
      if (labelled) {
        scorer.reg.update(y, prediction);
        scorer.reg_rolling.update(y, prediction);
      }
    }
    if (observer != nullptr) observer->on_prediction(row, y, prediction, proba);
    if (delay == 0) {
      if (labelled) learner.learn_one(x, y);
    } else {
      // The oldest pending row's label has arrived: learn it, then park this one.
      const std::size_t slot = static_cast<std::size_t>(head);
      if (pending == delay) {
        const double old_y = pending_y[slot];
        if (!std::isnan(old_y))
          learner.learn_one(std::span<const double>(pending_x.data() + slot * d, d), old_y);
      } else {
        ++pending;
      }
      std::copy(x.begin(), x.end(), pending_x.begin() + static_cast<std::ptrdiff_t>(slot * d));
      pending_y[slot] = y;
      head = head + 1 == delay ? 0 : head + 1;
    }
    if (!labelled) continue;
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
  if (observer != nullptr) {
    if (options.curve_every > 0 && n % options.curve_every != 0) curve_point(n);
    if (options.progress_every > 0 && n % options.progress_every != 0) observer->on_progress(n, total);
  }
  return report;
}

}  // namespace irithyll
