// _core.PackedModel: a packed (f32 / i16) SGBT model for fast batch
// inference, as `irithyll export` writes it and `irithyll predict` reads it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <span>
#include <string>
#include <utility>

#include "errors.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

using Rows = py::array_t<float, py::array::c_style | py::array::forcecast>;

class PyPacked {
 public:
  explicit PyPacked(const std::string& path) : model_(take(packed::PackedModel::load(path))) {}

  // Raw scores (before any link function), one per row; the model is
  // immutable, so the GIL is released while it runs.
  py::array_t<float> predict(const Rows& x) const {
    if (x.ndim() != 2) throw py::value_error("X must be a 2-D array (rows = samples)");
    const auto n = static_cast<std::size_t>(x.shape(0));
    const auto stride = static_cast<std::size_t>(x.shape(1));
    check(model_.check_features(stride));
    py::array_t<float> out(static_cast<py::ssize_t>(n));
    Status s;
    {
      py::gil_scoped_release release;
      s = model_.predict_batch({x.data(), n * stride}, stride, {out.mutable_data(), n});
    }
    check(s);
    return out;
  }

  std::uint32_t required_features() const { return model_.required_features(); }
  std::string batch_kernel() const { return model_.batch_kernel(); }

 private:
  packed::PackedModel model_;
};

}  // namespace

void bind_packed(py::module_& m) {
  py::class_<PyPacked>(m, "PackedModel")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def("predict", &PyPacked::predict, py::arg("X"))
      .def_property_readonly("required_features", &PyPacked::required_features)
      .def_property_readonly("batch_kernel", &PyPacked::batch_kernel);
}

}  // namespace irithyll::python
