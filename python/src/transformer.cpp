// _core.Transformer: one catalogue transformer (preprocess/registry.hpp),
// built by name and settings exactly as a pipeline step `name(key=value;...)`
// is, plus the DictRow that reads dict samples in the Python object's
// feature order. The River-style classes over it live in
// irithyll/_core_transformers.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dict_row.hpp"
#include "errors.hpp"
#include "irithyll/core/bytes.hpp"
#include "irithyll/pipeline.hpp"
#include "irithyll/pipeline_spec.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

using Settings = std::vector<std::pair<std::string, std::string>>;

// Settings are checked when the Python object is made, before any sample
// fixes the input width, by building the transformer for this many inputs:
// wide enough for every width-dependent rule of the catalogue's transformers
// (ccipca's n-components <= features allows up to 256 components).
constexpr std::size_t kProbeWidth = 256;

TransformerContext context_for(std::size_t n_features, std::uint64_t seed, std::size_t n_classes,
                               std::vector<std::string> names) {
  TransformerContext c;
  c.task = n_classes > 0 ? Task::kClassification : Task::kRegression;
  c.n_classes = n_classes;
  c.n_features = n_features;
  c.seed = seed;
  if (names.size() == n_features) c.feature_names = std::move(names);
  return c;
}

ModelSettings to_settings(const Settings& settings) {
  ModelSettings s;
  for (const auto& [k, v] : settings) s.set(k, v);
  return s;
}

class PyTransformer {
 public:
  explicit PyTransformer(std::unique_ptr<Transformer> t) : t_(std::move(t)) {}

  static PyTransformer make(const std::string& name, const Settings& settings, std::size_t n_features,
                            std::uint64_t seed, std::size_t n_classes, std::vector<std::string> feature_names) {
    if (n_features == 0) raise_status(Status::invalid_argument(name + ": the input has no features"));
    return PyTransformer(take(make_transformer(name, to_settings(settings),
                                               context_for(n_features, seed, n_classes, std::move(feature_names)))));
  }

  // From one pipeline step as the CLI's --model takes it: "ccipca(n-components=3)".
  static PyTransformer from_spec(const std::string& text, std::size_t n_features, std::uint64_t seed,
                                 std::size_t n_classes, std::vector<std::string> feature_names) {
    const std::vector<ModelSpec> steps = take(parse_pipeline_spec(text));
    if (steps.size() != 1)
      raise_status(Status::invalid_argument("'" + text + "': one transformer step expected, got " +
                                            std::to_string(steps.size())));
    if (n_features == 0) raise_status(Status::invalid_argument(steps[0].name + ": the input has no features"));
    return PyTransformer(take(make_transformer(steps[0].name, steps[0].settings,
                                               context_for(n_features, seed, n_classes, std::move(feature_names)))));
  }

  // The checkpoint: the kind's name, then its own encoding (as a pipeline
  // stores each step).
  py::bytes encode() const {
    ByteWriter w;
    w.str(t_->name());
    t_->encode(w);
    const std::vector<std::uint8_t>& b = w.data();
    return {reinterpret_cast<const char*>(b.data()), b.size()};
  }
  static PyTransformer decode(const py::bytes& data) {
    const std::string_view view = data;
    ByteReader in({reinterpret_cast<const std::uint8_t*>(view.data()), view.size()});
    const std::string name = in.str("transformer name");
    if (!in.ok()) raise_status(in.status());
    std::unique_ptr<Transformer> t = make_transformer(name);  // blank, to decode into
    if (t == nullptr) raise_status(Status::not_supported("unknown transformer '" + name + "' in the checkpoint"));
    check(t->decode(in));
    if (!in.at_end())
      raise_status(Status::corruption(name + ": " + std::to_string(in.remaining()) +
                                      " bytes after the transformer's checkpoint"));
    return PyTransformer(std::move(t));
  }

  // --- rows (lists of floats in the transformer's input order) -------------------
  void learn_one(const std::vector<double>& x) {
    check_width(x.size());
    t_->learn_one(x);
  }
  void learn_supervised(const std::vector<double>& x, double y) {
    check_width(x.size());
    t_->learn_supervised(x, y);
  }
  std::vector<double> transform_one(const std::vector<double>& x) const {
    check_width(x.size());
    std::vector<double> out(t_->output_size(x.size()));
    t_->transform_one(x, out);
    return out;
  }

  // --- dicts (read through the feature order set_features fixed) ---------------
  void set_features(const py::list& keys) {
    if (t_->input_size() > 0 && py::len(keys) != t_->input_size())
      raise_status(Status::invalid_argument(std::string(t_->name()) + ": " + std::to_string(py::len(keys)) +
                                            " features for a transformer built for " +
                                            std::to_string(t_->input_size())));
    dict_.set_features(keys);
  }
  py::list features() const { return dict_.features(); }
  // Each returns true when x held a key outside the feature set.
  bool learn_dict(const py::dict& x) {
    const bool extra = fill(x, true);
    t_->learn_one(dict_.row());
    return extra;
  }
  bool learn_supervised_dict(const py::dict& x, double y) {
    const bool extra = fill(x, true);
    t_->learn_supervised(dict_.row(), y);
    return extra;
  }
  std::vector<double> transform_dict(const py::dict& x) {
    fill(x, false);
    std::vector<double> out(t_->output_size(dict_.size()));
    t_->transform_one(dict_.row(), out);
    return out;
  }

  std::size_t output_size(std::size_t n_in) const {
    check_width(n_in);
    return t_->output_size(n_in);
  }
  const Transformer& model() const { return *t_; }
  Transformer& model() { return *t_; }

 private:
  void check_width(std::size_t n) const {
    const std::size_t want = t_->input_size();
    if (want > 0 && n != want)
      raise_status(Status::invalid_argument(std::string(t_->name()) + ": x has " + std::to_string(n) +
                                            " features, the transformer was built for " + std::to_string(want)));
  }
  bool fill(const py::dict& x, bool learning) {
    if (dict_.size() == 0)
      raise_status(Status::invalid_argument(std::string(t_->name()) + ": set_features was not called"));
    return dict_.fill(x, t_->name(), learning);
  }

  std::unique_ptr<Transformer> t_;
  DictRow dict_;
};

// Raises ValueError (the library's message, naming the setting) when the
// settings do not build the transformer; see kProbeWidth.
void check_transformer(const std::string& name, const Settings& settings, std::size_t n_classes) {
  check(make_transformer(name, to_settings(settings), context_for(kProbeWidth, 42, n_classes, {})).status());
}

}  // namespace

void bind_transformer(py::module_& m) {
  m.def("transformers_json", &transformers_json, "every transformer with its settings (as `irithyll models --json`)");
  m.def("check_transformer", &check_transformer, py::arg("name"), py::arg("settings"), py::arg("n_classes") = 0,
        "raises ValueError when the settings do not build the transformer");
  py::class_<PyTransformer>(m, "Transformer")
      .def_static("make", &PyTransformer::make, py::arg("name"), py::arg("settings"), py::arg("n_features"),
                  py::arg("seed") = 42, py::arg("n_classes") = 0,
                  py::arg("feature_names") = std::vector<std::string>{})
      .def_static("from_spec", &PyTransformer::from_spec, py::arg("spec"), py::arg("n_features"),
                  py::arg("seed") = 42, py::arg("n_classes") = 0,
                  py::arg("feature_names") = std::vector<std::string>{},
                  "a transformer from one pipeline step, name(key=value;...)")
      .def_static("decode", &PyTransformer::decode, py::arg("data"), "a transformer from checkpoint bytes")
      .def("encode", &PyTransformer::encode, "checkpoint bytes (the kind's name, then its state)")
      .def("learn_one", &PyTransformer::learn_one, py::arg("x"))
      .def("learn_supervised", &PyTransformer::learn_supervised, py::arg("x"), py::arg("y"))
      .def("transform_one", &PyTransformer::transform_one, py::arg("x"))
      .def("output_size", &PyTransformer::output_size, py::arg("n_in"))
      .def("set_features", &PyTransformer::set_features, py::arg("keys"))
      .def("features", &PyTransformer::features)
      .def("learn_dict", &PyTransformer::learn_dict, py::arg("x"))
      .def("learn_supervised_dict", &PyTransformer::learn_supervised_dict, py::arg("x"), py::arg("y"))
      .def("transform_dict", &PyTransformer::transform_dict, py::arg("x"))
      .def("reset", [](PyTransformer& t) { t.model().reset(); })
      .def_property_readonly("name", [](const PyTransformer& t) { return std::string(t.model().name()); })
      .def_property_readonly("input_size", [](const PyTransformer& t) { return t.model().input_size(); })
      .def_property_readonly("memory_bytes", [](const PyTransformer& t) { return t.model().memory_bytes(); });
}

}  // namespace irithyll::python
