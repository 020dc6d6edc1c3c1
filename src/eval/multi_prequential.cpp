#include "irithyll/eval/multi_prequential.hpp"

#include <chrono>
#include <cmath>

#include "irithyll/eval/regression_metrics.hpp"
#include "irithyll/eval/report.hpp"

namespace irithyll {

Result<MultiPrequentialReport> run_prequential_multi_target(Learner& learner, Stream& stream,
                                                            const PrequentialOptions& options,
                                                            const MultiPredictionCallback& on_prediction,
                                                            PrequentialObserver* progress) {
  const Schema& schema = stream.schema();
  const std::size_t m = schema.n_targets();
  if (schema.task != Task::kRegression || learner.task() != Task::kRegression)
    return Status::invalid_argument("prequential: several targets are for regression only");
  if (learner.n_outputs() != m)
    return Status::invalid_argument("prequential: learner '" + std::string(learner.name()) + "' predicts " +
                                    std::to_string(learner.n_outputs()) + " target(s), the stream has " +
                                    std::to_string(m));
  if (learner.n_features() != 0 && learner.n_features() != schema.n_features())
    return Status::invalid_argument("prequential: learner expects " + std::to_string(learner.n_features()) +
                                    " features, the stream has " + std::to_string(schema.n_features()));

  MultiPrequentialReport report;
  report.learner = std::string(learner.name());
  report.targets = schema.target_names.empty() ? std::vector<std::string>{schema.target_name} : schema.target_names;
  std::vector<RegressionMetrics> scores(m);
  std::vector<double> x(schema.n_features()), y(m), pred(m);
  while (report.skipped < options.skip && stream.next_multi(x, y)) ++report.skipped;
  IRITHYLL_RETURN_IF_ERROR(stream.status());

  std::optional<std::uint64_t> total = options.max_samples;
  if (const auto hint = stream.size_hint(); hint.has_value()) {
    const std::uint64_t left = *hint > report.skipped ? *hint - report.skipped : 0;
    total = total.has_value() ? std::min(*total, left) : left;
  }
  const std::uint64_t limit = options.max_samples.value_or(UINT64_MAX);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::uint64_t rows = 0;
  while (rows < limit && stream.next_multi(x, y)) {
    const std::uint64_t row = rows++;
    std::size_t missing = 0;
    for (const double v : y) {
      if (std::isinf(v))
        return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has a non-finite target");
      missing += std::isnan(v) ? 1 : 0;
    }
    if (missing > 0 && options.unlabelled == UnlabelledPolicy::kError)
      return Status::invalid_argument("prequential: sample " + std::to_string(row) + " has a missing target");
    if (missing == m) {
      ++report.unlabelled;
      if (options.unlabelled == UnlabelledPolicy::kSkip) continue;
    }
    learner.predict_multi(x, pred);
    for (std::size_t k = 0; k < m; ++k)
      if (!std::isnan(y[k])) scores[k].update(y[k], pred[k]);
    if (on_prediction) on_prediction(report.samples, y, pred);
    if (missing < m) learner.learn_multi(x, y);
    ++report.samples;
    if (progress != nullptr && options.progress_every > 0 && report.samples % options.progress_every == 0)
      progress->on_progress(report.samples, total);
  }
  IRITHYLL_RETURN_IF_ERROR(stream.status());
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  report.samples_per_second = report.seconds > 0.0 ? static_cast<double>(report.samples) / report.seconds : 0.0;
  report.model_bytes = learner.memory_bytes();
  for (const auto& s : scores) report.metrics.push_back(s.values());
  return report;
}

std::string multi_report_to_json(const MultiPrequentialReport& r) {
  std::string out = "{\"learner\":" + json_quote(r.learner) + ",\"task\":\"regression\"";
  out += ",\"samples\":" + std::to_string(r.samples) + ",\"skipped\":" + std::to_string(r.skipped) +
         ",\"unlabelled\":" + std::to_string(r.unlabelled);
  out += ",\"targets\":[";
  for (std::size_t k = 0; k < r.targets.size(); ++k) {
    if (k > 0) out += ',';
    const MetricValues& v = r.metrics[k];
    out += "{\"target\":" + json_quote(r.targets[k]) + ",\"mae\":" + json_number(v.mae) +
           ",\"rmse\":" + json_number(v.rmse) + ",\"r2\":" + json_number(v.r2) + "}";
  }
  out += "],\"seconds\":" + json_number(r.seconds) + ",\"samples_per_second\":" + json_number(r.samples_per_second) +
         ",\"model_bytes\":" + std::to_string(r.model_bytes) + "}";
  return out;
}

}  // namespace irithyll
