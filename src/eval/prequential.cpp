#include "irithyll/eval/prequential.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "irithyll/eval/classification_metrics.hpp"
#include "irithyll/eval/regression_metrics.hpp"
#include "irithyll/eval/target_guard.hpp"

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
  // Two classes: ROC AUC of the class-1 probability, read once at the end
  // (reading walks every distinct score, too slow for each curve point).
  RocAuc roc;

  Scorer(Task t, std::size_t k, std::size_t window)
      : task(t), cls(k), cls_rolling(k, window), reg_rolling(t == Task::kRegression ? window : 1) {}
  MetricValues cumulative() const { return task == Task::kClassification ? cls.values() : reg.values(); }
  MetricValues rolling() const { return task == Task::kClassification ? cls_rolling.values() : reg_rolling.values(); }
};

// One learner's share of a run: its scores, probabilities, delayed labels,
// observer and clock. run_prequential is one lane; compare runs several over
// one pass of the stream.
struct Lane {
  Learner* learner;
  PrequentialObserver* observer;
  Scorer scorer;
  IntervalScorer intervals;  // active for learners that predict intervals
  std::vector<double> proba;
  std::vector<double> pending_x, pending_y;
  std::uint64_t pending = 0, head = 0;
  std::uint64_t n = 0;
  double seconds = 0.0;  // time inside this learner (multi-lane runs)

  Lane(Learner* l, PrequentialObserver* o, Task task, std::size_t k, const PrequentialOptions& options, std::size_t d)
      : learner(l),
        observer(o),
        scorer(task, k, options.rolling_window),
        intervals(*l, options.interval_level),
        proba(k),
        pending_x(static_cast<std::size_t>(options.label_delay) * d),
        pending_y(static_cast<std::size_t>(options.label_delay)) {}
};

}  // namespace

Result<std::vector<PrequentialReport>> run_prequential_side_by_side(
    std::span<Learner* const> learners, Stream& stream, const PrequentialOptions& options,
    std::span<PrequentialObserver* const> observers) {
  const Schema& schema = stream.schema();
  if (learners.empty()) return Status::invalid_argument("prequential: no learner");
  if (!observers.empty() && observers.size() != learners.size())
    return Status::invalid_argument("prequential: one observer per learner (or none)");
  for (Learner* l : learners) IRITHYLL_RETURN_IF_ERROR(check_setup(*l, schema, options));
  const bool classify = schema.task == Task::kClassification;
  const std::size_t k = classify ? schema.n_classes() : 0;
  const std::size_t d = schema.n_features();
  const bool timed = learners.size() > 1;

  std::vector<Lane> lanes;
  lanes.reserve(learners.size());
  for (std::size_t i = 0; i < learners.size(); ++i)
    lanes.emplace_back(learners[i], observers.empty() ? nullptr : observers[i], schema.task, k, options, d);

  std::vector<double> x(d);
  double y = 0.0;
  std::uint64_t skipped = 0;
  while (skipped < options.skip && stream.next(x, y)) ++skipped;
  IRITHYLL_RETURN_IF_ERROR(stream.status());

  std::optional<std::uint64_t> total = options.max_samples;
  if (const auto hint = stream.size_hint(); hint.has_value()) {
    const std::uint64_t left = *hint > skipped ? *hint - skipped : 0;
    total = total.has_value() ? std::min(*total, left) : left;
  }
  const std::uint64_t limit = options.max_samples.value_or(UINT64_MAX);

  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto curve_point = [&](Lane& lane) {
    CurvePoint p;
    p.samples = lane.n;
    p.seconds = timed ? lane.seconds : elapsed();
    p.samples_per_second = p.seconds > 0.0 ? static_cast<double>(lane.n) / p.seconds : 0.0;
    p.cumulative = lane.scorer.cumulative();
    p.rolling = lane.scorer.rolling();
    lane.observer->on_curve_point(p);
  };

  std::optional<TargetGuard> guard;
  if (options.guard_targets) guard.emplace();
  const std::uint64_t delay = options.label_delay;
  std::uint64_t rows = 0, unlabelled = 0;
  while (rows < limit && stream.next(x, y)) {
    const std::uint64_t row = rows++;
    const bool labelled = !std::isnan(y);
    if (std::isinf(y))
      return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has a non-finite target");
    if (!labelled) {
      ++unlabelled;
      if (options.unlabelled == UnlabelledPolicy::kError)
        return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has no target");
      if (options.unlabelled == UnlabelledPolicy::kSkip) continue;
    }
    if (classify && labelled && (!(y >= 0.0 && y < static_cast<double>(k)) || y != std::floor(y)))
      return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has class " +
                                      std::to_string(y) + ", outside 0.." + std::to_string(k - 1));
    // The target that is learned (the scorers keep the raw y).
    const double learn_y = !classify && labelled && guard ? guard->admit(y) : y;
    for (Lane& lane : lanes) {
      const Clock::time_point t0 = timed ? Clock::now() : Clock::time_point{};
      Learner& learner = *lane.learner;
      double prediction = 0.0;
      if (classify) {
        learner.predict_proba_one(x, lane.proba);
        const std::size_t predicted = argmax_class(lane.proba);
        prediction = static_cast<double>(predicted);
        if (labelled) {
          const auto truth = static_cast<std::size_t>(y);
          if (lane.intervals.active()) lane.intervals.observe(x, y);  // prediction sets: size and coverage
          lane.scorer.cls.update(truth, predicted, lane.proba[truth]);
          lane.scorer.cls_rolling.update(truth, predicted, lane.proba[truth]);
          if (k == 2) lane.scorer.roc.update(truth == 1, lane.proba[1]);
        }
      } else {
        if (labelled && lane.intervals.active()) {
          const Interval iv = lane.intervals.observe(x, y);
          if (lane.observer != nullptr) lane.observer->on_interval(row, iv);
        }
        prediction = learner.predict_one(x);
        if (labelled) {
          lane.scorer.reg.update(y, prediction);
          lane.scorer.reg_rolling.update(y, prediction);
        }
      }
      if (lane.observer != nullptr) lane.observer->on_prediction(row, y, prediction, lane.proba);
      if (delay == 0) {
        if (labelled) learner.learn_one(x, learn_y);
      } else {
        // The oldest pending row's label has arrived: learn it, then park this one.
        const std::size_t slot = static_cast<std::size_t>(lane.head);
        if (lane.pending == delay) {
          const double old_y = lane.pending_y[slot];
          if (!std::isnan(old_y))
            learner.learn_one(std::span<const double>(lane.pending_x.data() + slot * d, d), old_y);
        } else {
          ++lane.pending;
        }
        std::copy(x.begin(), x.end(), lane.pending_x.begin() + static_cast<std::ptrdiff_t>(slot * d));
        lane.pending_y[slot] = learn_y;
        lane.head = lane.head + 1 == delay ? 0 : lane.head + 1;
      }
      if (timed) lane.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
      if (!labelled) continue;
      ++lane.n;
      if (lane.observer != nullptr) {
        if (options.curve_every > 0 && lane.n % options.curve_every == 0) curve_point(lane);
        if (options.progress_every > 0 && lane.n % options.progress_every == 0)
          lane.observer->on_progress(lane.n, total);
      }
    }
  }
  IRITHYLL_RETURN_IF_ERROR(stream.status());

  std::vector<PrequentialReport> reports;
  const double wall = elapsed();
  for (Lane& lane : lanes) {
    PrequentialReport report;
    report.task = schema.task;
    report.learner = std::string(lane.learner->name());
    report.skipped = skipped;
    report.unlabelled = unlabelled;
    report.samples = lane.n;
    report.seconds = timed ? lane.seconds : wall;
    report.samples_per_second = report.seconds > 0.0 ? static_cast<double>(lane.n) / report.seconds : 0.0;
    report.model_bytes = lane.learner->memory_bytes();
    report.metrics = lane.scorer.cumulative();
    if (classify && k == 2 && lane.n > 0) report.metrics.roc_auc = lane.scorer.roc.auc();
    report.rolling = lane.scorer.rolling();
    if (classify) report.confusion = lane.scorer.cls.confusion();
    if (lane.intervals.active()) report.interval = lane.intervals.report();
    if (lane.observer != nullptr) {
      if (options.curve_every > 0 && lane.n % options.curve_every != 0) curve_point(lane);
      if (options.progress_every > 0 && lane.n % options.progress_every != 0) lane.observer->on_progress(lane.n, total);
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

Result<PrequentialReport> run_prequential(Learner& learner, Stream& stream, const PrequentialOptions& options,
                                          PrequentialObserver* observer) {
  Learner* const one[] = {&learner};
  PrequentialObserver* const watch[] = {observer};
  const auto observers =
      observer != nullptr ? std::span<PrequentialObserver* const>(watch) : std::span<PrequentialObserver* const>();
  auto reports = run_prequential_side_by_side(one, stream, options, observers);
  if (!reports) return reports.status();
  return std::move((*reports)[0]);
}

}  // namespace irithyll
