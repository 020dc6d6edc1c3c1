// irithyll._core: the compiled half of the Python package. The Python
// modules (irithyll/*.py) build River-style classes on top of it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "errors.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/stream/reservoir.hpp"

namespace py = pybind11;

namespace irithyll::python {

void raise_status(const Status& status) {
  switch (status.code()) {
    case StatusCode::kIOError:
      PyErr_SetString(PyExc_OSError, status.message().c_str());
      break;
    case StatusCode::kNotSupported:
      PyErr_SetString(PyExc_NotImplementedError, status.message().c_str());
      break;
    default:
      PyErr_SetString(PyExc_ValueError, status.message().c_str());
      break;
  }
  throw py::error_already_set();
}

namespace {

py::dict field_dict(const FieldInfo& f) {
  py::dict d;
  d["name"] = std::string(f.name);
  d["python_name"] = f.python_name();
  d["type"] = std::string(field_type_name(f.type));
  d["default"] = std::string(f.default_value);
  d["help"] = std::string(f.help);
  d["lo"] = f.lo;
  d["hi"] = f.hi;
  d["lo_open"] = f.lo_open;
  d["hi_open"] = f.hi_open;
  d["zero_is_off"] = f.zero_is_off;
  d["choices"] = std::string(f.choices);
  d["alias"] = std::string(f.alias);
  d["range"] = f.range_text();
  return d;
}

// The catalogue as plain Python data: the generated classes read it once at
// import.
py::list catalogue_list() {
  py::list out;
  for (const CatalogueEntry& e : catalogue()) {
    if (!e.listed) continue;
    py::dict d;
    d["name"] = std::string(e.name);
    d["description"] = std::string(e.description);
    d["regression"] = e.regression;
    d["classification"] = e.classification;
    d["python_module"] = std::string(e.python_module);
    d["python_classifier"] = std::string(e.python_classifier);
    d["python_regressor"] = std::string(e.python_regressor);
    py::list fields;
    for (const FieldInfo& f : e.fields()) fields.append(field_dict(f));
    d["fields"] = fields;
    out.append(d);
  }
  return out;
}

// Checks one keyword argument against its catalogue row, so that a bad
// value fails when the Python object is made, not at the first sample.
void check_setting(const std::string& model, const std::string& name, const std::string& value) {
  const CatalogueEntry* e = find_model(model);
  if (e == nullptr) raise_status(Status::invalid_argument("unknown model '" + model + "'"));
  for (const FieldInfo& f : e->fields()) {
    if (field_name_matches(f, name)) {
      check(check_field(f, value).with_context(model));
      return;
    }
  }
  raise_status(Status::invalid_argument(model + ": unknown setting '" + name + "'"));
}

}  // namespace

// explain.cpp: _core.explain_matrix (TreeSHAP).
void bind_explain(py::module_& m);

}  // namespace irithyll::python

PYBIND11_MODULE(_core, m) {
  m.doc() = "irithyll's compiled core (use the irithyll package, not this module)";
  m.def("catalogue", &irithyll::python::catalogue_list, "every listed model with its settings");
  m.def("reservoir_indices", &irithyll::reservoir_indices, py::arg("n"), py::arg("k"), py::arg("seed"),
        "k of the indices 0..n-1, ascending, drawn uniformly by reservoir sampling (Algorithm R)");
  m.def("check_setting", &irithyll::python::check_setting, "raises ValueError when a value is out of range");
  m.def("catalogue_json", &irithyll::catalogue_json, "the catalogue as `irithyll models --json` prints it");
  irithyll::python::bind_learner(m);
  irithyll::python::bind_bandit(m);
  irithyll::python::bind_drift(m);
  irithyll::python::bind_packed(m);
  irithyll::python::bind_timeseries(m);
  irithyll::python::bind_explain(m);
  irithyll::python::bind_anomaly(m);
  irithyll::python::bind_cluster(m);
  irithyll::python::bind_transformer(m);
}
