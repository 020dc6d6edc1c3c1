// irithyll._core.AnomalyDetector: any detector of the anomaly registry
// (irithyll/anomaly/registry.hpp) by name, on float rows. The Python module
// irithyll.anomaly maps River-style dicts onto rows.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

#include "errors.hpp"
#include "irithyll/anomaly/registry.hpp"

namespace py = pybind11;

namespace irithyll::python {

namespace {

class PyDetector {
 public:
  PyDetector(const std::string& name, const std::map<std::string, std::string>& settings, std::uint64_t seed,
             std::size_t n_features) {
    ModelSettings s;
    for (const auto& [k, v] : settings) s.set(k, v);
    detector_ = take(make_anomaly_detector(name, s, AnomalyContext{n_features, seed}));
  }
  explicit PyDetector(std::unique_ptr<AnomalyDetector> d) : detector_(std::move(d)) {}

  void learn_one(const std::vector<double>& x) {
    check(detector_->check_sample(x));
    detector_->learn_one(x);
  }
  double score_one(const std::vector<double>& x) const {
    check(detector_->check_sample(x));
    return detector_->score_one(x);
  }
  void reset() { detector_->reset(); }
  std::size_t n_features() const { return detector_->n_features(); }
  std::uint64_t n_samples_seen() const { return detector_->n_samples_seen(); }
  std::size_t memory_bytes() const { return detector_->memory_bytes(); }
  py::bytes encode() const {
    ByteWriter w;
    encode_anomaly_detector(*detector_, w);
    return py::bytes(reinterpret_cast<const char*>(w.data().data()), w.data().size());
  }
  static PyDetector decode(const py::bytes& b) {
    const std::string s = b;
    const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
    return PyDetector(take(decode_anomaly_detector(std::span<const std::uint8_t>(p, s.size()))));
  }

 private:
  std::unique_ptr<AnomalyDetector> detector_;
};

py::list anomaly_catalogue_list() {
  py::list out;
  for (const AnomalyEntry& e : anomaly_catalogue()) {
    py::dict d;
    d["name"] = std::string(e.name);
    d["python_module"] = std::string(e.python_module);
    d["python_class"] = std::string(e.python_class);
    py::list fields;
    for (const FieldInfo& f : e.fields()) {
      py::dict fd;
      fd["name"] = std::string(f.name);
      fd["python_name"] = f.python_name();
      fd["default"] = std::string(f.default_value);
      fd["range"] = f.range_text();
      fields.append(fd);
    }
    d["fields"] = fields;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_anomaly(py::module_& m) {
  py::class_<PyDetector>(m, "AnomalyDetector")
      .def(py::init<const std::string&, const std::map<std::string, std::string>&, std::uint64_t, std::size_t>(),
           py::arg("name"), py::arg("settings"), py::arg("seed"), py::arg("n_features") = 0)
      .def("learn_one", &PyDetector::learn_one)
      .def("score_one", &PyDetector::score_one)
      .def("reset", &PyDetector::reset)
      .def_property_readonly("n_features", &PyDetector::n_features)
      .def_property_readonly("n_samples_seen", &PyDetector::n_samples_seen)
      .def_property_readonly("memory_bytes", &PyDetector::memory_bytes)
      .def("encode", &PyDetector::encode)
      .def_static("decode", &PyDetector::decode);
  m.def("anomaly_catalogue", &anomaly_catalogue_list, "every anomaly detector with its settings");
}

}  // namespace irithyll::python
