#include "irithyll/eval/report.hpp"

#include <charconv>
#include <cmath>
#include <ostream>

namespace irithyll {
namespace {

struct Named {
  const char* name;
  double MetricValues::*field;
};
constexpr Named kClassificationMetrics[] = {{"accuracy", &MetricValues::accuracy},
                                            {"kappa", &MetricValues::kappa},
                                            {"macro_f1", &MetricValues::macro_f1},
                                            {"log_loss", &MetricValues::log_loss}};
constexpr Named kRegressionMetrics[] = {
    {"mae", &MetricValues::mae}, {"rmse", &MetricValues::rmse}, {"r2", &MetricValues::r2}};

// Whole-stream only: in the report's top level, not in "rolling" nor in the
// learning curve.
constexpr Named kClassificationExtras[] = {{"balanced_accuracy", &MetricValues::balanced_accuracy},
                                           {"kappa_t", &MetricValues::kappa_t},
                                           {"kappa_m", &MetricValues::kappa_m},
                                           {"no_change_accuracy", &MetricValues::no_change_accuracy},
                                           {"majority_accuracy", &MetricValues::majority_accuracy},
                                           {"roc_auc", &MetricValues::roc_auc}};
constexpr Named kRegressionExtras[] = {{"mape", &MetricValues::mape}, {"smape", &MetricValues::smape}};

std::span<const Named> metrics_of(Task task) {
  if (task == Task::kClassification) return kClassificationMetrics;
  return kRegressionMetrics;
}

void append_number(std::string& out, double v, const char* non_finite) {
  if (!std::isfinite(v)) {
    out += non_finite;
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_metrics(std::string& out, const MetricValues& v, std::span<const Named> list) {
  for (const Named& m : list) {
    out += ",\"";
    out += m.name;
    out += "\":";
    append_number(out, v.*m.field, "null");
  }
}

}  // namespace

std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

std::string json_number(double v) {
  std::string out;
  append_number(out, v, "null");
  return out;
}

std::string report_to_json(const PrequentialReport& report, Task task) {
  std::string out = "{\"learner\":" + json_quote(report.learner);
  out += ",\"task\":";
  out += task == Task::kClassification ? "\"classification\"" : "\"regression\"";
  out += ",\"samples\":" + std::to_string(report.samples);
  out += ",\"skipped\":" + std::to_string(report.skipped);
  out += ",\"seconds\":" + json_number(report.seconds);
  out += ",\"samples_per_second\":" + json_number(report.samples_per_second);
  out += ",\"model_bytes\":" + std::to_string(report.model_bytes);
  append_metrics(out, report.metrics, metrics_of(task));
  append_metrics(out, report.metrics,
                 task == Task::kClassification ? std::span<const Named>(kClassificationExtras) : kRegressionExtras);
  out += ",\"rolling\":{";
  std::string rolling;
  append_metrics(rolling, report.rolling, metrics_of(task));
  out.append(rolling, 1);  // drop the leading comma
  out += '}';
  if (task == Task::kClassification) {
    const ConfusionMatrix& cm = report.confusion;
    out += ",\"confusion\":[";
    for (std::size_t t = 0; t < cm.n_classes(); ++t) {
      out += t == 0 ? "[" : ",[";
      for (std::size_t p = 0; p < cm.n_classes(); ++p) {
        if (p > 0) out += ',';
        out += std::to_string(cm.at(t, p));
      }
      out += ']';
    }
    out += ']';
  }
  if (report.interval) {
    const IntervalReport& iv = *report.interval;
    out += ",\"interval_level\":" + json_number(iv.level);
    out += ",\"interval_coverage\":" + json_number(iv.coverage);
    out += std::string(iv.sets ? ",\"interval_mean_set_size\":" : ",\"interval_mean_width\":") + json_number(iv.mean_width);
    if (!iv.quantiles.empty()) {
      out += ",\"quantiles\":[";
      for (std::size_t i = 0; i < iv.quantiles.size(); ++i) {
        const QuantileScore& q = iv.quantiles[i];
        out += (i == 0 ? "{" : ",{");
        out += "\"tau\":" + json_number(q.tau) + ",\"pinball\":" + json_number(q.pinball) +
               ",\"coverage\":" + json_number(q.coverage) + "}";
      }
      out += "],\"crossings\":" + std::to_string(iv.crossings);
    }
  }
  out += '}';
  return out;
}

std::string learning_curve_csv_header(Task task) {
  std::string out = "samples,seconds,samples_per_second";
  for (const char* prefix : {"", "rolling_"})
    for (const Named& m : metrics_of(task)) {
      out += ',';
      out += prefix;
      out += m.name;
    }
  return out;
}

std::string learning_curve_csv_row(const CurvePoint& point, Task task) {
  std::string out = std::to_string(point.samples);
  out += ',';
  append_number(out, point.seconds, "nan");
  out += ',';
  append_number(out, point.samples_per_second, "nan");
  for (const MetricValues* v : {&point.cumulative, &point.rolling})
    for (const Named& m : metrics_of(task)) {
      out += ',';
      append_number(out, (*v).*m.field, "nan");
    }
  return out;
}

LearningCurveWriter::LearningCurveWriter(std::ostream& out, Task task) : out_(out), task_(task) {
  out_ << learning_curve_csv_header(task_) << '\n';
  if (!out_) status_ = Status::io_error("learning curve: write failed");
}

void LearningCurveWriter::on_curve_point(const CurvePoint& point) {
  if (!status_.is_ok()) return;
  out_ << learning_curve_csv_row(point, task_) << '\n';
  if (!out_) status_ = Status::io_error("learning curve: write failed");
}

PredictionWriter::PredictionWriter(std::ostream& out, Task task, std::size_t n_classes)
    : out_(out), binary_(task == Task::kClassification && n_classes == 2) {}

void PredictionWriter::on_prediction(std::uint64_t, double, double prediction, std::span<const double> proba) {
  if (!status_.is_ok()) return;
  line_.clear();
  // A class index only when the prediction is one (a regressor's value may be
  // negative or huge, and converting that to an integer is undefined).
  const bool named = !names_.empty() && prediction >= 0.0 && prediction < static_cast<double>(names_.size());
  const std::size_t c = named ? static_cast<std::size_t>(prediction) : 0;
  if (named && c < proba.size()) {
    // CSV-quote a class name that holds a separator, a quote or a line break.
    const std::string& name = names_[c];
    if (name.find_first_of(",\"\r\n") == std::string::npos) {
      line_ += name;
    } else {
      line_ += '"';
      for (const char ch : name) {
        if (ch == '"') line_ += '"';
        line_ += ch;
      }
      line_ += '"';
    }
    line_ += ',';
    append_number(line_, proba[c], "nan");
  } else {
    append_number(line_, prediction, "nan");
  }
  if (interval_) {
    line_ += ',';
    append_number(line_, interval_->lower, "nan");
    line_ += ',';
    append_number(line_, interval_->upper, "nan");
    interval_.reset();
  }
  if (names_.empty() && binary_ && proba.size() == 2) {
    line_ += ',';
    append_number(line_, proba[1], "nan");
  }
  line_ += '\n';
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
  if (!out_) status_ = Status::io_error("predictions: write failed");
}

void PredictionWriter::on_interval(std::uint64_t, const Interval& interval) { interval_ = interval; }

void ObserverList::on_interval(std::uint64_t index, const Interval& interval) {
  for (PrequentialObserver* o : observers_) o->on_interval(index, interval);
}
void ObserverList::on_prediction(std::uint64_t index, double y, double prediction, std::span<const double> proba) {
  for (PrequentialObserver* o : observers_) o->on_prediction(index, y, prediction, proba);
}
void ObserverList::on_curve_point(const CurvePoint& point) {
  for (PrequentialObserver* o : observers_) o->on_curve_point(point);
}
void ObserverList::on_progress(std::uint64_t done, std::optional<std::uint64_t> total) {
  for (PrequentialObserver* o : observers_) o->on_progress(done, total);
}

}  // namespace irithyll
