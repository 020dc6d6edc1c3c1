// _core.PackedModel: a packed (f32 / i16) model for fast batch inference, as
// `irithyll export` and `export_packed` write it and `irithyll predict`
// reads it: one ensemble (regression, binary classification) or a
// multiclass bundle ("IRMC") with one ensemble per class.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/file_io.hpp"
#include "errors.hpp"
#include "irithyll/packed/class_bundle.hpp"
#include "irithyll/packed/metadata.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

using Rows = py::array_t<float, py::array::c_style | py::array::forcecast>;

class PyPacked {
 public:
  explicit PyPacked(const std::string& path) {
    auto bytes = take(read_file_bytes(path));
    if (packed::is_class_bundle(bytes))
      bundle_.emplace(take(packed::PackedClassBundle::from_bytes(bytes)));
    else
      single_.emplace(take(packed::PackedModel::from_bytes(std::move(bytes))));
    meta_ = take(packed::read_metadata(single_ ? *single_ : bundle_->member(0)));
  }

  // Raw scores (before any link function): one per row, or one row of K
  // class scores per row for a bundle. The model is immutable, so the GIL
  // is released while it runs.
  py::array_t<float> predict(const Rows& x) const {
    const auto [n, stride] = shape(x);
    if (single_) {
      py::array_t<float> out(static_cast<py::ssize_t>(n));
      Status s;
      {
        py::gil_scoped_release release;
        s = single_->predict_batch({x.data(), n * stride}, stride, {out.mutable_data(), n});
      }
      check(s);
      return out;
    }
    const std::size_t k = bundle_->n_classes();
    py::array_t<float> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(k)});
    {
      py::gil_scoped_release release;
      for (std::size_t i = 0; i < n; ++i)
        bundle_->predict_scores({x.data() + i * stride, stride}, {out.mutable_data() + i * k, k});
    }
    return out;
  }

  // Class probabilities of a multiclass bundle (softmax of the K scores, as
  // the learner computes them). A one-ensemble file does not record whether
  // it is a binary classifier or a regressor, so it has none: apply the
  // logistic function to predict() for a binary classifier.
  py::array_t<float> predict_proba(const Rows& x) const {
    if (!bundle_ && binary()) {  // the trailer says binary: 1 - sigmoid, sigmoid
      const auto [n, stride] = shape(x);
      py::array_t<float> out({static_cast<py::ssize_t>(n), py::ssize_t{2}});
      Status s;
      {
        py::gil_scoped_release release;
        std::vector<float> margin(n);
        s = single_->predict_batch({x.data(), n * stride}, stride, margin);
        float* o = out.mutable_data();
        for (std::size_t i = 0; i < n; ++i) {
          o[2 * i + 1] = 1.0f / (1.0f + std::exp(-margin[i]));
          o[2 * i] = 1.0f - o[2 * i + 1];
        }
      }
      check(s);
      return out;
    }
    if (!bundle_)
      raise_status(Status::invalid_argument(
          "predict_proba: this packed file holds one ensemble (a regressor or a binary classifier's log-odds); "
          "apply 1 / (1 + exp(-score)) to predict() for a binary classifier"));
    const auto [n, stride] = shape(x);
    const std::size_t k = bundle_->n_classes();
    py::array_t<float> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(k)});
    {
      py::gil_scoped_release release;
      for (std::size_t i = 0; i < n; ++i)
        bundle_->predict_proba({x.data() + i * stride, stride}, {out.mutable_data() + i * k, k});
    }
    return out;
  }

  std::uint32_t required_features() const {
    return single_ ? single_->required_features() : static_cast<std::uint32_t>(bundle_->required_features());
  }
  std::size_t n_classes() const { return bundle_ ? bundle_->n_classes() : binary() ? 2 : 0; }
  // From the metadata trailer; empty lists for a file without one.
  std::vector<std::string> feature_names() const { return meta_ ? meta_->feature_names : std::vector<std::string>{}; }
  std::vector<std::string> class_names() const { return meta_ ? meta_->class_names : std::vector<std::string>{}; }
  bool binary() const { return meta_ && meta_->classification && meta_->class_names.size() == 2; }
  std::string batch_kernel() const { return single_ ? single_->batch_kernel() : bundle_->member(0).batch_kernel(); }

 private:
  std::pair<std::size_t, std::size_t> shape(const Rows& x) const {
    if (x.ndim() != 2) throw py::value_error("X must be a 2-D array (rows = samples)");
    const auto n = static_cast<std::size_t>(x.shape(0));
    const auto stride = static_cast<std::size_t>(x.shape(1));
    if (stride < required_features())
      raise_status(Status::invalid_argument("X has " + std::to_string(stride) + " columns; the model reads " +
                                            std::to_string(required_features())));
    return {n, stride};
  }

  std::optional<packed::PackedModel> single_;
  std::optional<packed::PackedClassBundle> bundle_;
  std::optional<packed::PackedMetadata> meta_;
};

}  // namespace

void bind_packed(py::module_& m) {
  py::class_<PyPacked>(m, "PackedModel")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def("predict", &PyPacked::predict, py::arg("X"))
      .def("predict_proba", &PyPacked::predict_proba, py::arg("X"))
      .def_property_readonly("required_features", &PyPacked::required_features)
      .def_property_readonly("n_classes", &PyPacked::n_classes)
      .def_property_readonly("feature_names", &PyPacked::feature_names)
      .def_property_readonly("class_names", &PyPacked::class_names)
      .def_property_readonly("batch_kernel", &PyPacked::batch_kernel);
}

}  // namespace irithyll::python
