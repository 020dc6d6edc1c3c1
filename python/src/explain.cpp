// _core.explain_matrix: SHAP values (TreeSHAP, src/explain) of a tree
// learner's raw prediction for the rows of a matrix in the model's feature
// order. The Python classes (irithyll/_learners.py: explain_one,
// explain_many) turn the arrays into dicts or a DataFrame.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <string>
#include <vector>

#include "errors.hpp"
#include "irithyll/explain/tree_shap.hpp"
#include "irithyll/interval.hpp"

namespace py = pybind11;

namespace irithyll::python {

// The library learner inside a _core.Learner (learner.cpp).
const Learner& learner_model(py::handle learner);

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Returns (base[n], phi[n, d], raw[n], class[n]); cls < 0 explains each
// row's largest raw output (the predicted class), else class cls. Outputs
// are classes, except binary sgbt's one output: the log-odds of class 1.
// With a background (rows x d, not None): interventional SHAP against it,
// base = the background's mean raw output.
py::tuple explain_matrix(py::handle learner, const Array& x, long cls, const py::object& background) {
  const Learner& model = learner_model(learner);
  auto ex = TreeExplainer::make(model);
  if (!ex) raise_status(ex.status());
  const std::size_t d = ex->n_features(), k = ex->n_outputs();
  if (x.ndim() != 2 || static_cast<std::size_t>(x.shape(1)) != d)
    throw py::value_error("explain: X must have " + std::to_string(d) + " columns (the model's features)");
  const bool classify = model.task() == Task::kClassification;
  const bool binary_margin = classify && k == 1;
  if (binary_margin && cls == 0)
    throw py::value_error("explain: binary '" + std::string(model.name()) + "' explains the log-odds of class 1 only");
  if (!classify && k > 1 && cls < 0) {
    // A quantile model explains the quantile its predict_one returns (the
    // level nearest 0.5, the first of a tie), before rearrangement.
    const auto* quantiles = dynamic_cast<const QuantilePredictor*>(&model);
    if (quantiles == nullptr || quantiles->quantile_levels().size() != k)
      throw py::value_error("explain: '" + std::string(model.name()) + "' has " + std::to_string(k) +
                            " targets; explain_one explains one output (use `irithyll explain`)");
    const auto levels = quantiles->quantile_levels();
    std::size_t median = 0;
    for (std::size_t i = 1; i < k; ++i)
      if (std::abs(levels[i] - 0.5) < std::abs(levels[median] - 0.5)) median = i;
    cls = static_cast<long>(median);
  }
  const long output = binary_margin && cls == 1 ? 0 : !classify && k == 1 ? 0 : cls;
  if (output >= static_cast<long>(k))
    throw py::value_error("explain: output " + std::to_string(cls) + " of " + std::to_string(k));
  const bool interventional = !background.is_none();
  if (interventional) {
    const Array bg = Array::ensure(background);
    if (!bg || bg.ndim() != 2 || static_cast<std::size_t>(bg.shape(1)) != d)
      throw py::value_error("explain: background must be a matrix with " + std::to_string(d) + " columns");
    const auto rows = static_cast<std::size_t>(bg.shape(0));
    if (Status s = ex->set_background(std::span<const double>(bg.data(), rows * d), rows); !s) raise_status(s);
  }
  const auto n = static_cast<std::size_t>(x.shape(0));
  Array base(static_cast<py::ssize_t>(n)), raw(static_cast<py::ssize_t>(n));
  Array phi({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(d)});
  py::array_t<long> which(static_cast<py::ssize_t>(n));
  const double* rows = x.data();
  double* b = base.mutable_data();
  double* p = phi.mutable_data();
  double* r = raw.mutable_data();
  long* w = which.mutable_data();
  if (!interventional && output >= 0) {
    // One output for every row: the tree-major batch.
    const auto o = static_cast<std::size_t>(output);
    if (Status s = ex->explain_batch(std::span<const double>(rows, n * d), n, o, std::span<double>(p, n * d),
                                     std::span<double>(r, n));
        !s)
      raise_status(s);
    for (std::size_t i = 0; i < n; ++i) {
      b[i] = ex->base_value(o);
      w[i] = binary_margin ? 1 : static_cast<long>(o);
    }
    return py::make_tuple(base, phi, raw, which);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::span<const double> row(rows + i * d, d);
    std::size_t o = output < 0 ? 0 : static_cast<std::size_t>(output);
    if (output < 0)
      for (std::size_t c = 1; c < k; ++c)
        if (*ex->predict_raw(row, c) > *ex->predict_raw(row, o)) o = c;
    const std::span<double> out(p + i * d, d);
    auto v = interventional ? ex->explain_one_interventional(row, o, out) : ex->explain_one(row, o, out);
    if (!v) raise_status(v.status());
    b[i] = interventional ? ex->background_base_value(o) : ex->base_value(o);
    r[i] = *v;
    w[i] = binary_margin ? 1 : static_cast<long>(o);
  }
  return py::make_tuple(base, phi, raw, which);
}

}  // namespace

void bind_explain(py::module_& m) {
  m.def("explain_matrix", &explain_matrix, py::arg("learner"), py::arg("X"), py::arg("output") = -1,
        py::arg("background") = py::none(),
        "TreeSHAP of a tree learner's raw output: (base, phi, raw, output) per row; interventional against "
        "`background` rows when given");
}

}  // namespace irithyll::python
