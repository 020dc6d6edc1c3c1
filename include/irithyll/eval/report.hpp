// Writing prequential results: the one-line JSON report, the learning-curve
// CSV and the per-sample predictions CSV, plus a fan-out observer to attach
// several writers to one run. No third-party JSON library: the writer below
// escapes strings per RFC 8259 and prints doubles in their shortest
// round-trip form, NaN and infinities as null.
//
// Writers stream to a std::ostream they do not own; they remember the first
// write failure (status()) instead of stopping the run. Not thread-safe.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/eval/prequential.hpp"

namespace irithyll {

// {"learner":"sgbt","task":"classification","samples":45312,"skipped":0,
//  "seconds":1.2,"samples_per_second":37760,"model_bytes":123456,
//  "accuracy":..,"kappa":..,"macro_f1":..,"log_loss":..,
//  "balanced_accuracy":..,"kappa_t":..,"kappa_m":..,"no_change_accuracy":..,
//  "majority_accuracy":..,"roc_auc":..,
//  "rolling":{"accuracy":..,...},"confusion":[[..],[..]]}
// Regression has "mae","rmse","r2","mape","smape" in place of the
// classification metrics and no "confusion"; "rolling" holds the first four
// classification or three regression metrics only. roc_auc is null unless
// there are two classes. One line, no trailing newline.
std::string report_to_json(const PrequentialReport& report, Task task);

// JSON string literal of s (quotes included), control characters escaped.
std::string json_quote(std::string_view s);
// Shortest round-trip decimal form; "null" for NaN and infinities.
std::string json_number(double v);

// Learning-curve CSV: "samples,seconds,samples_per_second," then the task's
// metrics, then the same metrics prefixed "rolling_".
std::string learning_curve_csv_header(Task task);
std::string learning_curve_csv_row(const CurvePoint& point, Task task);

class LearningCurveWriter final : public PrequentialObserver {
 public:
  // Writes the header line at once.
  LearningCurveWriter(std::ostream& out, Task task);
  void on_curve_point(const CurvePoint& point) override;
  const Status& status() const { return status_; }

 private:
  std::ostream& out_;
  Task task_;
  Status status_;
};

// Predictions, one line per evaluated sample and nothing else (no header),
// so line i is sample i:
//   classification: the predicted class index and, for 2 classes,
//                   ",<probability of class 1>";
//   regression:     the predicted value.
// Numbers are printed in their shortest round-trip form.
// With class names set (set_class_names), a classification line is instead
// "<predicted class name>,<its probability>", in the user's own labels.
class PredictionWriter final : public PrequentialObserver {
 public:
  PredictionWriter(std::ostream& out, Task task, std::size_t n_classes);
  void set_class_names(std::vector<std::string> names) { names_ = std::move(names); }
  void on_prediction(std::uint64_t index, double y, double prediction, std::span<const double> proba) override;
  // Learners with intervals: the line becomes "value,lower,upper".
  void on_interval(std::uint64_t index, const Interval& interval) override;
  const Status& status() const { return status_; }

 private:
  std::ostream& out_;
  bool binary_;
  std::vector<std::string> names_;
  Status status_;
  std::string line_;  // reused for every row
  std::optional<Interval> interval_;  // of the sample about to be written
};

// Forwards every callback to each observer, in the order given.
class ObserverList final : public PrequentialObserver {
 public:
  void add(PrequentialObserver* observer) { observers_.push_back(observer); }
  void on_prediction(std::uint64_t index, double y, double prediction, std::span<const double> proba) override;
  void on_interval(std::uint64_t index, const Interval& interval) override;
  void on_curve_point(const CurvePoint& point) override;
  void on_progress(std::uint64_t done, std::optional<std::uint64_t> total) override;

 private:
  std::vector<PrequentialObserver*> observers_;
};

}  // namespace irithyll
