// _core drift-detector class: a thin wrapper over the library's drift/ types.
// The metrics are pure Python (irithyll/metrics.py): they take any hashable
// label without limit, as River's do.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>

#include "errors.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

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
  // Any detector, its settings by DriftConfig's field names (the others keep
  // the kind's defaults); the library validates them.
  PyDrift(const std::string& kind, const py::dict& params) {
    DriftConfig c = default_drift_config(take(parse_drift_kind(kind)));
    for (auto item : params) {
      const auto key = py::cast<std::string>(item.first);
      const py::handle v = item.second;
      if (key == "delta") c.delta = py::cast<double>(v);
      else if (key == "lambda") c.lambda = py::cast<double>(v);
      else if (key == "warning_level") c.warning_level = py::cast<double>(v);
      else if (key == "drift_level") c.drift_level = py::cast<double>(v);
      else if (key == "min_instances") c.min_instances = py::cast<std::uint32_t>(v);
      else if (key == "eddm_warning") c.eddm_warning = py::cast<double>(v);
      else if (key == "eddm_drift") c.eddm_drift = py::cast<double>(v);
      else if (key == "eddm_confirm_window") c.eddm_confirm_window = py::cast<std::uint32_t>(v);
      else if (key == "eddm_confirm_z") c.eddm_confirm_z = py::cast<double>(v);
      else if (key == "drift_confidence") c.drift_confidence = py::cast<double>(v);
      else if (key == "warning_confidence") c.warning_confidence = py::cast<double>(v);
      else if (key == "ewma_lambda") c.ewma_lambda = py::cast<double>(v);
      else if (key == "two_sided") c.two_sided = py::cast<bool>(v);
      else if (key == "window_size") c.window_size = py::cast<std::uint32_t>(v);
      else if (key == "stat_size") c.stat_size = py::cast<std::uint32_t>(v);
      else if (key == "alpha") c.alpha = py::cast<double>(v);
      else if (key == "seed") c.seed = py::cast<std::uint64_t>(v);
      else throw py::value_error("drift detector " + kind + ": unknown setting '" + key + "'");
    }
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

void bind_drift(py::module_& m) {
  py::class_<PyDrift>(m, "Drift")
      .def(py::init<const std::string&, double, double, double, double, std::uint32_t>(), py::arg("kind"),
           py::arg("delta"), py::arg("lambda_"), py::arg("warning_level"), py::arg("drift_level"),
           py::arg("min_instances"))
      .def(py::init<const std::string&, const py::dict&>(), py::arg("kind"), py::arg("params"))
      .def("update", &PyDrift::update, "0 stable, 1 warning, 2 drift")
      .def("reset", &PyDrift::reset)
      .def_property_readonly("estimated_mean", &PyDrift::mean)
      .def_property_readonly("name", &PyDrift::name);
}

}  // namespace irithyll::python
