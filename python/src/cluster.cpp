// irithyll._core.Clusterer: the clusterers (irithyll/cluster/) for the
// River-style classes of irithyll/cluster.py. Rows arrive as lists of floats
// in the model's feature order (the Python side maps dict keys to columns).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "irithyll/cluster/registry.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

class PyClusterer {
 public:
  explicit PyClusterer(std::unique_ptr<Clusterer> model) : model_(std::move(model)) {}

  static PyClusterer make(const std::string& name, const std::vector<std::pair<std::string, std::string>>& settings,
                          std::uint64_t seed) {
    ModelSettings s;
    for (const auto& [k, v] : settings) s.set(k, v);
    return PyClusterer(take(make_clusterer(name, s, seed)));
  }
  static PyClusterer decode(const py::bytes& data) {
    const std::string_view view = data;
    return PyClusterer(take(load_clusterer({reinterpret_cast<const std::uint8_t*>(view.data()), view.size()})));
  }
  py::bytes encode() const {
    const std::vector<std::uint8_t> bytes = save_clusterer(*model_);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }
  void learn(const std::vector<double>& x, double weight) { check(model_->learn_one(x, weight)); }
  std::int64_t predict(const std::vector<double>& x) const { return model_->predict_one(x); }
  std::vector<std::vector<double>> centers() const {
    const std::vector<double> flat = model_->centers();
    const std::size_t d = model_->n_features();
    std::vector<std::vector<double>> out(model_->n_clusters());
    for (std::size_t c = 0; c < out.size(); ++c) out[c].assign(flat.begin() + c * d, flat.begin() + (c + 1) * d);
    return out;
  }
  std::vector<std::pair<std::string, std::string>> settings() const { return model_->settings().items(); }
  const Clusterer& model() const { return *model_; }
  Clusterer& model() { return *model_; }

 private:
  std::unique_ptr<Clusterer> model_;
};

// Raises ValueError when a keyword argument is out of range or unknown.
void check_clusterer_setting(const std::string& model, const std::string& name, const std::string& value) {
  const ClustererEntry* e = find_clusterer(model);
  if (e == nullptr) raise_status(Status::invalid_argument("unknown clusterer '" + model + "'"));
  for (const FieldInfo& f : e->fields())
    if (field_name_matches(f, name)) {
      check(check_field(f, value).with_context(model));
      return;
    }
  raise_status(Status::invalid_argument(model + ": unknown setting '" + name + "'"));
}

}  // namespace

void bind_cluster(py::module_& m) {
  m.def("clusterers_json", &clusterers_json, "every clusterer with its settings (as `irithyll models --json`)");
  m.def("check_clusterer_setting", &check_clusterer_setting);
  py::class_<PyClusterer>(m, "Clusterer")
      .def_static("make", &PyClusterer::make, py::arg("name"), py::arg("settings"), py::arg("seed"))
      .def_static("decode", &PyClusterer::decode, py::arg("data"))
      .def("encode", &PyClusterer::encode)
      .def("learn", &PyClusterer::learn, py::arg("x"), py::arg("weight") = 1.0)
      .def("predict", &PyClusterer::predict)
      .def("centers", &PyClusterer::centers)
      .def("settings", &PyClusterer::settings)
      .def("reset", [](PyClusterer& c) { c.model().reset(); })
      .def_property_readonly("name", [](const PyClusterer& c) { return std::string(c.model().name()); })
      .def_property_readonly("seed", [](const PyClusterer& c) { return c.model().seed(); })
      .def_property_readonly("n_clusters", [](const PyClusterer& c) { return c.model().n_clusters(); })
      .def_property_readonly("n_features", [](const PyClusterer& c) { return c.model().n_features(); })
      .def_property_readonly("n_samples_seen", [](const PyClusterer& c) { return c.model().n_samples_seen(); })
      .def_property_readonly("n_ignored", [](const PyClusterer& c) { return c.model().n_ignored(); })
      .def_property_readonly("memory_bytes", [](const PyClusterer& c) { return c.model().memory_bytes(); });
}

}  // namespace irithyll::python
