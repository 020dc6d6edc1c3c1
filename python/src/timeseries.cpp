// Bindings of the forecasters (irithyll/timeseries/): one wrapper class over
// the registry, so every forecaster the registry lists is reachable by name;
// irithyll/time_series.py builds River's classes (HoltWinters, SNARIMAX) on it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/timeseries/decomposition.hpp"
#include "irithyll/timeseries/forecasters.hpp"

namespace py = pybind11;

namespace irithyll::python {

namespace {

using timeseries::Forecaster;

class PyForecaster {
 public:
  explicit PyForecaster(std::unique_ptr<Forecaster> model) : model_(std::move(model)) {}

  static PyForecaster make(const std::string& name, const std::vector<std::pair<std::string, std::string>>& settings) {
    ModelSettings s;
    for (const auto& [k, v] : settings) s.set(k, v);
    return PyForecaster(take(timeseries::make_forecaster(name, s, catalogue_member_factory())));
  }

  static PyForecaster decode(const py::bytes& data) {
    const std::string_view view = data;
    ByteReader in({reinterpret_cast<const std::uint8_t*>(view.data()), view.size()});
    auto model = take(timeseries::decode_forecaster(in, catalogue_member_factory()));
    if (!in.at_end()) raise_status(Status::corruption("forecaster checkpoint: trailing bytes"));
    return PyForecaster(std::move(model));
  }

  py::bytes encode() const {
    ByteWriter out;
    timeseries::encode_forecaster(*model_, out);
    return {reinterpret_cast<const char*>(out.data().data()), out.data().size()};
  }

  void learn_one(double y, const std::vector<double>& x) { check(model_->learn_one(y, x)); }

  std::vector<double> forecast(std::size_t horizon, const std::vector<double>& xs) const {
    std::vector<double> out(horizon);
    check(model_->forecast(xs, out));
    return out;
  }

  py::dict settings() const {
    py::dict d;
    const timeseries::ForecasterEntry* e = timeseries::find_forecaster(model_->name());
    const ModelSettings current = e->settings_of(*model_);
    for (const auto& [k, v] : current.items()) d[py::str(k)] = v;
    return d;
  }

  Forecaster& model() { return *model_; }
  const Forecaster& model() const { return *model_; }

 private:
  std::unique_ptr<Forecaster> model_;
};

py::list forecaster_list() {
  py::list out;
  for (const auto& e : timeseries::forecasters()) {
    py::dict d;
    d["name"] = std::string(e.name);
    d["description"] = std::string(e.description);
    d["period_field"] = std::string(e.period_field);
    py::list fields;
    for (const FieldInfo& f : e.fields()) {
      py::dict fd;
      fd["name"] = std::string(f.name);
      fd["python_name"] = f.python_name();
      fd["type"] = std::string(field_type_name(f.type));
      fd["default"] = std::string(f.default_value);
      fd["help"] = std::string(f.help);
      fd["range"] = f.range_text();
      fields.append(fd);
    }
    d["fields"] = fields;
    out.append(d);
  }
  return out;
}

py::tuple decompose(const std::vector<double>& y, std::uint32_t period, bool multiplicative) {
  auto d = take(timeseries::decompose_window(y, period, multiplicative));
  return py::make_tuple(d.trend, d.seasonal, d.resid);
}

}  // namespace

void bind_timeseries(py::module_& m) {
  m.def("forecasters", &forecaster_list, "every forecaster with its settings");
  m.def("forecasters_json", &timeseries::forecasters_json, "the forecasters as `irithyll models --json` lists them");
  m.def("decompose", &decompose, py::arg("y"), py::arg("period"), py::arg("multiplicative") = false,
        "classical seasonal decomposition of a window: (trend, seasonal, resid)");
  py::class_<PyForecaster>(m, "Forecaster")
      .def_static("make", &PyForecaster::make, py::arg("name"), py::arg("settings"))
      .def_static("decode", &PyForecaster::decode, py::arg("data"))
      .def("encode", &PyForecaster::encode)
      .def("learn_one", &PyForecaster::learn_one, py::arg("y"), py::arg("x"))
      .def("forecast", &PyForecaster::forecast, py::arg("horizon"), py::arg("xs"))
      .def("reset", [](PyForecaster& f) { f.model().reset(); })
      .def("settings", &PyForecaster::settings)
      .def_property_readonly("name", [](const PyForecaster& f) { return std::string(f.model().name()); })
      .def_property_readonly("n_samples_seen", [](const PyForecaster& f) { return f.model().n_samples_seen(); })
      .def_property_readonly("memory_bytes", [](const PyForecaster& f) { return f.model().memory_bytes(); });
}

}  // namespace irithyll::python
