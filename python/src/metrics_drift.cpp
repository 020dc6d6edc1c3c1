// _core metric and drift-detector classes: thin wrappers over the library's
// eval/ and drift/ types. Label handling (any hashable -> class index) lives
// in irithyll/metrics.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/eval/classification_metrics.hpp"
#include "irithyll/eval/regression_metrics.hpp"
#include "irithyll/eval/stream_metrics.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

py::dict values_dict(const MetricValues& v) {
  py::dict d;
  d["accuracy"] = v.accuracy;
  d["kappa"] = v.kappa;
  d["macro_f1"] = v.macro_f1;
  d["log_loss"] = v.log_loss;
  d["mae"] = v.mae;
  d["rmse"] = v.rmse;
  d["r2"] = v.r2;
  d["balanced_accuracy"] = v.balanced_accuracy;
  d["kappa_t"] = v.kappa_t;
  d["kappa_m"] = v.kappa_m;
  d["no_change_accuracy"] = v.no_change_accuracy;
  d["majority_accuracy"] = v.majority_accuracy;
  d["mape"] = v.mape;
  d["smape"] = v.smape;
  return d;
}

// Classification metrics over class indices; window 0 = whole stream.
class PyClassMetrics {
 public:
  PyClassMetrics(std::size_t n_classes, std::size_t window) : n_(n_classes) {
    if (n_classes < 2) throw py::value_error("n_classes must be >= 2");
    if (window == 0) all_ = std::make_unique<ClassificationMetrics>(n_classes);
    else rolling_ = std::make_unique<RollingClassificationMetrics>(n_classes, window);
  }
  void update(std::size_t truth, std::size_t predicted, double p_truth) {
    if (truth >= n_ || predicted >= n_) throw py::value_error("class index out of range");
    if (all_) all_->update(truth, predicted, p_truth);
    else rolling_->update(truth, predicted, p_truth);
  }
  void reset() {
    if (all_) all_->reset();
    else rolling_->reset();
  }
  py::dict values() const { return values_dict(all_ ? all_->values() : rolling_->values()); }
  std::uint64_t count() const { return all_ ? all_->count() : rolling_->count(); }

 private:
  std::size_t n_;
  std::unique_ptr<ClassificationMetrics> all_;
  std::unique_ptr<RollingClassificationMetrics> rolling_;
};

class PyRegMetrics {
 public:
  explicit PyRegMetrics(std::size_t window) {
    if (window > 0) rolling_ = std::make_unique<RollingRegressionMetrics>(window);
  }
  void update(double y, double prediction) {
    if (rolling_) rolling_->update(y, prediction);
    else all_.update(y, prediction);
  }
  void reset() {
    if (rolling_) rolling_->reset();
    else all_.reset();
  }
  py::dict values() const { return values_dict(rolling_ ? rolling_->values() : all_.values()); }
  std::uint64_t count() const { return rolling_ ? rolling_->count() : all_.count(); }

 private:
  RegressionMetrics all_;
  std::unique_ptr<RollingRegressionMetrics> rolling_;
};

// kind: "ph" | "adwin" | "ddm"; the library checks the parameters.
class PyDrift {
 public:
  PyDrift(const std::string& kind, double delta, double lambda, double warning_level, double drift_level,
          std::uint32_t min_instances) {
    DriftConfig c = default_drift_config(take(parse_drift_kind(kind)));
    if (c.kind == DriftKind::kPageHinkley || c.kind == DriftKind::kAdwin) c.delta = delta;
    c.lambda = lambda;
    c.warning_level = warning_level;
    c.drift_level = drift_level;
    c.min_instances = min_instances;
    detector_ = take(make_drift_detector(c));
  }
  int update(double value) { return static_cast<int>(detector_->update(value)); }
  void reset() { detector_->reset(); }
  double mean() const { return detector_->estimated_mean(); }
  std::string name() const { return std::string(detector_->name()); }

 private:
  std::unique_ptr<DriftDetector> detector_;
};

}  // namespace

void bind_metrics(py::module_& m) {
  py::class_<PyClassMetrics>(m, "ClassMetrics")
      .def(py::init<std::size_t, std::size_t>(), py::arg("n_classes"), py::arg("window") = 0)
      .def("update", &PyClassMetrics::update)
      .def("reset", &PyClassMetrics::reset)
      .def("values", &PyClassMetrics::values)
      .def_property_readonly("count", &PyClassMetrics::count);
  py::class_<PyRegMetrics>(m, "RegMetrics")
      .def(py::init<std::size_t>(), py::arg("window") = 0)
      .def("update", &PyRegMetrics::update)
      .def("reset", &PyRegMetrics::reset)
      .def("values", &PyRegMetrics::values)
      .def_property_readonly("count", &PyRegMetrics::count);
  py::class_<RocAuc>(m, "RocAuc")
      .def(py::init<>())
      .def("update", &RocAuc::update, py::arg("positive"), py::arg("score"))
      .def("reset", &RocAuc::reset)
      .def("auc", &RocAuc::auc)
      .def_property_readonly("count", &RocAuc::count);
}

void bind_drift(py::module_& m) {
  py::class_<PyDrift>(m, "Drift")
      .def(py::init<const std::string&, double, double, double, double, std::uint32_t>(), py::arg("kind"),
           py::arg("delta"), py::arg("lambda_"), py::arg("warning_level"), py::arg("drift_level"),
           py::arg("min_instances"))
      .def("update", &PyDrift::update, "0 stable, 1 warning, 2 drift")
      .def("reset", &PyDrift::reset)
      .def_property_readonly("estimated_mean", &PyDrift::mean)
      .def_property_readonly("name", &PyDrift::name);
}

}  // namespace irithyll::python
