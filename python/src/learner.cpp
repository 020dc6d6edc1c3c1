// _core.Learner: one catalogue learner plus the feature order that turns a
// River-style dict sample into the dense row the library expects (DictRow,
// dict_row.hpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dict_row.hpp"
#include "errors.hpp"
#include "irithyll/catalogue.hpp"
#include "core/file_io.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/diagnostics_json.hpp"
#include "irithyll/interval.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/model_report.hpp"
#include "irithyll/packed/exportable.hpp"
#include "irithyll/packed/metadata.hpp"
#include "irithyll/tree_model.hpp"
#include "irithyll/tunable.hpp"

namespace py = pybind11;

namespace irithyll::python {
namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// While a batch call runs with the GIL released, another Python thread could
// reach the same model; every entry point checks this flag under the GIL and
// refuses instead of racing.
class BusyGuard {
 public:
  explicit BusyGuard(bool& busy) : busy_(busy) {
    if (busy_) throw py::value_error("learner is busy in a batch call on another thread");
    busy_ = true;
  }
  ~BusyGuard() { busy_ = false; }
  BusyGuard(const BusyGuard&) = delete;
  BusyGuard& operator=(const BusyGuard&) = delete;

 private:
  bool& busy_;
};

class PyLearner {
 public:
  explicit PyLearner(std::unique_ptr<Learner> model) : model_(std::move(model)) {
    proba_.assign(model_->n_classes(), 0.0);
  }

  static PyLearner make(const std::string& name, const std::vector<std::pair<std::string, std::string>>& settings,
                        bool classification, std::size_t n_classes, std::size_t n_features, std::uint64_t seed) {
    ModelSettings s;
    for (const auto& [k, v] : settings) s.set(k, v);
    const LearnerContext context{classification ? Task::kClassification : Task::kRegression, n_classes, n_features,
                                 seed};
    return PyLearner(take(make_learner(name, s, context)));
  }

  // A regression learner of several targets (multi_target_sgbt).
  static PyLearner make_multi(const std::string& name, const std::vector<std::pair<std::string, std::string>>& settings,
                              std::size_t n_features, std::size_t n_targets, std::uint64_t seed) {
    ModelSettings s;
    for (const auto& [k, v] : settings) s.set(k, v);
    LearnerContext context{Task::kRegression, 0, n_features, seed};
    context.n_targets = n_targets;
    return PyLearner(take(make_learner(name, s, context)));
  }

  static PyLearner decode(const py::bytes& data) {
    const std::string_view view = data;
    const auto* p = reinterpret_cast<const std::uint8_t*>(view.data());
    Schema schema;
    PyLearner out(take(decode_learner({p, view.size()}, &schema)));
    out.schema_ = std::move(schema);
    return out;
  }

  // The checkpoint carries the data schema the CLI writes (feature names, the
  // target's name, class names, each text feature's categories in code
  // order), so a model saved here predicts by column name in the CLI and a
  // CLI checkpoint loads here with its names. Feature names are the dict keys
  // as text; `classes` are the labels as text (classification only).
  py::bytes encode(const std::vector<std::string>& classes, const std::string& target) {
    const BusyGuard guard(busy_);
    Schema schema;
    schema.task = model_->task();
    schema.target_name = target;
    for (const auto& k : dict_.features()) schema.feature_names.push_back(py::str(k).cast<std::string>());
    if (schema.task == Task::kClassification) schema.class_names = classes;
    schema.category_values = dict_.code_tables();  // the record keeps only the non-empty ones
    const bool named = !schema.feature_names.empty() || !schema.class_names.empty();
    const std::vector<std::uint8_t> bytes = encode_learner(*model_, named ? &schema : nullptr);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }
  // The schema read from the checkpoint this learner was decoded from, or
  // None: {"features", "target", "classes", "categories"}.
  py::object schema() const {
    if (schema_.feature_names.empty() && schema_.class_names.empty()) return py::none();
    py::dict out;
    out["features"] = schema_.feature_names;
    out["target"] = schema_.target_name;
    out["classes"] = schema_.class_names;
    out["categories"] = schema_.category_values;
    return out;
  }

  void set_features(const py::list& keys) { dict_.set_features(keys); }
  py::list codes() const { return dict_.codes(); }
  void set_codes(const std::vector<std::vector<std::string>>& tables) { dict_.set_codes(tables); }
  py::list features() const { return dict_.features(); }

  // Returns true when the dict held a key outside the feature set.
  bool learn_dict(const py::dict& x, double y, double weight) {
    const BusyGuard guard(busy_);
    const bool extra = fill_row(x, true);
    model_->learn_one(dict_.row(), y, weight);
    return extra;
  }
  // Several targets: y holds one value per target (NaN: that target is
  // missing, its member is not taught). Returns true on an unknown key.
  bool learn_multi_dict(const py::dict& x, const std::vector<double>& y, double weight) {
    const BusyGuard guard(busy_);
    if (y.size() != model_->n_outputs())
      throw py::value_error("learn_one: " + std::to_string(y.size()) + " targets given, the model has " +
                            std::to_string(model_->n_outputs()));
    const bool extra = fill_row(x, true);
    model_->learn_multi(dict_.row(), y, weight);
    return extra;
  }
  std::vector<double> predict_multi_dict(const py::dict& x) {
    const BusyGuard guard(busy_);
    fill_row(x);
    std::vector<double> out(model_->n_outputs(), 0.0);
    model_->predict_multi(dict_.row(), out);
    return out;
  }
  double predict_dict(const py::dict& x) {
    const BusyGuard guard(busy_);
    fill_row(x);
    return model_->predict_one(dict_.row());
  }
  // (lower, upper) at `level` for models that give intervals.
  std::pair<double, double> interval_dict(const py::dict& x, double level) {
    const BusyGuard guard(busy_);
    const auto* iv = dynamic_cast<const IntervalPredictor*>(model_.get());
    if (iv == nullptr || model_->task() != Task::kRegression)
      raise_status(Status::invalid_argument("'" + std::string(model_->name()) + "' predicts no intervals (wrap it in "
                                            "conformal.Interval)"));
    if (!(level > 0.0 && level < 1.0)) throw py::value_error("level must be in (0, 1)");
    fill_row(x);
    const Interval out = iv->predict_interval(dict_.row(), level);
    return {out.lower, out.upper};
  }
  // (predict_one, confidence) of a model that gives one (ConfidencePredictor: sgbt).
  std::pair<double, double> confidence_dict(const py::dict& x) {
    const BusyGuard guard(busy_);
    const auto* confident = dynamic_cast<const ConfidencePredictor*>(model_.get());
    if (confident == nullptr)
      raise_status(Status::invalid_argument("'" + std::string(model_->name()) + "' gives no confidence (sgbt does)"));
    fill_row(x);
    return confident->predict_with_confidence(dict_.row());
  }
  // The five tuning signals of a Tunable model (sgbt, the SGD linear models).
  py::dict tuning_signals() const {
    const auto values = tunable().config_diagnostics().as_array();
    py::dict out;
    for (std::size_t i = 0; i < values.size(); ++i) out[py::str(std::string(kConfigDiagnosticNames[i]))] = values[i];
    return out;
  }
  void adjust_config(double lr_multiplier, double lambda_delta) {
    const BusyGuard guard(busy_);
    if (Status s = tunable().adjust_config(lr_multiplier, lambda_delta); !s) raise_status(s);
  }
  void apply_structural_change(int depth_delta, int steps_delta) {
    const BusyGuard guard(busy_);
    if (Status s = tunable().apply_structural_change(depth_delta, steps_delta); !s) raise_status(s);
  }
  void set_prune_half_life(double half_life) {
    const BusyGuard guard(busy_);
    if (Status s = tunable().set_prune_half_life(half_life); !s) raise_status(s);
  }
  bool check_proactive_prune() {
    const BusyGuard guard(busy_);
    Result<bool> pruned = tunable().check_proactive_prune();
    if (!pruned) raise_status(pruned.status());
    return *pruned;
  }
  // The SGBT-family report the CLI prints (diagnostics_json.hpp): empty for
  // other models.
  std::string diagnostics_json() const { return irithyll::diagnostics_json(*model_); }
  // (sigma, honest sigma) of a distributional_sgbt model.
  std::pair<double, double> sigma_dict(const py::dict& x) {
    const BusyGuard guard(busy_);
    const auto* d = dynamic_cast<const DistributionalSGBT*>(model_.get());
    if (d == nullptr)
      raise_status(Status::invalid_argument("'" + std::string(model_->name()) +
                                            "' gives no sigma (distributional_sgbt does)"));
    fill_row(x);
    return {d->predict_sigma(dict_.row()), d->honest_sigma(dict_.row())};
  }
  // The class indices in the prediction set at `level`.
  py::list set_dict(const py::dict& x, double level) {
    const BusyGuard guard(busy_);
    const auto* sets = dynamic_cast<const SetPredictor*>(model_.get());
    if (sets == nullptr || model_->task() != Task::kClassification)
      raise_status(Status::invalid_argument("'" + std::string(model_->name()) + "' predicts no sets (wrap it in "
                                            "conformal.ClassifierSets)"));
    if (!(level > 0.0 && level < 1.0)) throw py::value_error("level must be in (0, 1)");
    fill_row(x);
    std::vector<std::uint8_t> in_set(model_->n_classes(), 0);
    sets->predict_set(dict_.row(), level, in_set);
    py::list out;
    for (std::size_t k = 0; k < in_set.size(); ++k)
      if (in_set[k] != 0) out.append(k);
    return out;
  }
  // ModelReport's JSON ("" for models without one).
  std::string report_json() const {
    const auto* r = dynamic_cast<const ModelReport*>(model_.get());
    return r == nullptr ? std::string() : r->report_json();
  }
  py::list proba_dict(const py::dict& x) {
    const BusyGuard guard(busy_);
    fill_row(x);
    model_->predict_proba_one(dict_.row(), proba_);
    py::list out;
    for (const double p : proba_) out.append(p);
    return out;
  }

  void learn_many(const Array& x, const Array& y, const std::optional<Array>& weight) {
    const BusyGuard guard(busy_);
    const std::size_t n = check_matrix(x);
    if (y.ndim() != 1 || static_cast<std::size_t>(y.shape(0)) != n)
      throw py::value_error("learn_many: y must be 1-D with one value per row of X (" + std::to_string(n) + ")");
    if (weight && (weight->ndim() != 1 || static_cast<std::size_t>(weight->shape(0)) != n))
      throw py::value_error("learn_many: sample_weight must be 1-D with one value per row of X");
    const std::size_t d = width(x);
    const double* px = x.data();
    const double* py_ = y.data();
    const double* pw = weight ? weight->data() : nullptr;
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < n; ++i) model_->learn_one({px + i * d, d}, py_[i], pw ? pw[i] : 1.0);
  }

  // Prequential over the rows: predict row i, then learn it. The exact
  // test-then-train order at batch speed (predict_many then learn_many on a
  // chunk would predict the whole chunk from a stale model).
  py::array_t<double> predict_learn_many(const Array& x, const Array& y) {
    const BusyGuard guard(busy_);
    const std::size_t n = check_matrix(x);
    if (y.ndim() != 1 || static_cast<std::size_t>(y.shape(0)) != n)
      throw py::value_error("predict_learn_many: y must be 1-D with one value per row of X");
    const std::size_t d = width(x);
    py::array_t<double> out(static_cast<py::ssize_t>(n));
    double* po = out.mutable_data();
    const double* px = x.data();
    const double* py_ = y.data();
    {
      py::gil_scoped_release release;
      for (std::size_t i = 0; i < n; ++i) {
        po[i] = model_->predict_one({px + i * d, d});
        model_->learn_one({px + i * d, d}, py_[i], 1.0);
      }
    }
    return out;
  }

  py::array_t<double> predict_many(const Array& x) {
    const BusyGuard guard(busy_);
    const std::size_t n = check_matrix(x);
    const std::size_t d = width(x);
    py::array_t<double> out(static_cast<py::ssize_t>(n));
    double* po = out.mutable_data();
    const double* px = x.data();
    {
      py::gil_scoped_release release;
      for (std::size_t i = 0; i < n; ++i) po[i] = model_->predict_one({px + i * d, d});
    }
    return out;
  }

  py::array_t<double> predict_proba_many(const Array& x) {
    const BusyGuard guard(busy_);
    const std::size_t n = check_matrix(x);
    const std::size_t d = width(x);
    const std::size_t k = model_->n_classes();
    py::array_t<double> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(k)});
    double* po = out.mutable_data();
    const double* px = x.data();
    {
      py::gil_scoped_release release;
      for (std::size_t i = 0; i < n; ++i) model_->predict_proba_one({px + i * d, d}, {po + i * k, k});
    }
    return out;
  }

  py::list settings() const {
    py::list out;
    const CatalogueEntry* e = find_model(model_->name());
    if (e == nullptr || e->settings_of == nullptr) return out;
    const ModelSettings current = e->settings_of(*model_);  // named: items() refers into it
    for (const auto& [k, v] : current.items()) out.append(py::make_tuple(k, v));
    return out;
  }

  // Writes the packed model of any learner with the Exportable capability
  // (SGBT), through the library's one writer: a plain file for one
  // ensemble, a multiclass bundle for K > 2 classes (what `irithyll export`
  // writes). Returns the path written.
  // feature_names / class_names (strings, optional) go into the file's
  // metadata trailer, so readers map columns and print classes by name.
  py::list export_packed(const std::string& path, const std::string& format, const std::vector<std::string>& feature_names,
                         const std::vector<std::string>& class_names) {
    const BusyGuard guard(busy_);
    const auto* exportable = dynamic_cast<const Exportable*>(model_.get());
    if (exportable == nullptr)
      raise_status(Status::invalid_argument("export_packed: '" + std::string(model_->name()) +
                                            "' has no packed form (sgbt has)"));
    if (format != "f32" && format != "i16")
      raise_status(Status::invalid_argument("export_packed: format must be f32 or i16, got '" + format + "'"));
    packed::PackedMetadata meta;
    meta.classification = model_->task() == Task::kClassification;
    if (feature_names.size() == model_->n_features()) meta.feature_names = feature_names;
    if (meta.classification) {
      meta.class_names = class_names;
      if (meta.class_names.size() != model_->n_classes()) {
        meta.class_names.clear();
        for (std::size_t c = 0; c < model_->n_classes(); ++c) meta.class_names.push_back(std::to_string(c));
      }
    }
    auto bytes = take(packed::export_packed(*exportable, format == "f32" ? packed::PackedFormat::kF32 : packed::PackedFormat::kI16,
                                            &meta));
    check(write_file_atomic(path, bytes));
    py::list written;
    written.append(path);
    return written;
  }

  void reset() {
    const BusyGuard guard(busy_);
    model_->reset();
  }

  // Tree models (TreeModel): tree count, one tree as text or dot, and the
  // per-feature split counts and gain shares; other models raise.
  std::size_t n_trees() const { return trees("n_trees").n_dump_trees(); }
  std::string dump_tree(std::size_t i, const std::string& format, const std::vector<std::string>& names) const {
    const TreeModel& t = trees("dump_tree");
    if (format != "text" && format != "dot")
      raise_status(Status::invalid_argument("dump_tree: format must be text or dot, got '" + format + "'"));
    if (i >= t.n_dump_trees())
      raise_status(Status::invalid_argument("dump_tree: tree " + std::to_string(i) + " of a model with " +
                                            std::to_string(t.n_dump_trees()) + " trees"));
    return t.dump_tree(i, format == "dot" ? TreeDumpFormat::kDot : TreeDumpFormat::kText, names);
  }
  std::vector<std::uint64_t> split_counts() const { return trees("feature_importances").feature_split_counts(); }
  std::vector<double> gain_shares() const { return trees("feature_importances").feature_importances(); }

  const Learner& model() const { return *model_; }

 private:
  const TreeModel& trees(const char* what) const {
    const auto* t = dynamic_cast<const TreeModel*>(model_.get());
    if (t == nullptr)
      raise_status(Status::invalid_argument(std::string(what) + ": '" + std::string(model_->name()) +
                                            "' is not a tree model"));
    return *t;
  }

  // The model's Tunable hooks, or a ValueError naming it.
  Tunable& tunable() const {
    auto* t = dynamic_cast<Tunable*>(model_.get());
    if (t == nullptr)
      raise_status(Status::invalid_argument("'" + std::string(model_->name()) +
                                            "' has no settings to tune (sgbt and the SGD linear models do)"));
    return *t;
  }

  static std::size_t width(const Array& x) { return static_cast<std::size_t>(x.shape(1)); }

  std::size_t check_matrix(const Array& x) const {
    if (x.ndim() != 2) throw py::value_error("X must be a 2-D array (rows = samples)");
    const std::size_t want = model_->n_features();
    if (want == 0) {
      if (x.shape(1) == 0) throw py::value_error("X has no columns");
    } else if (width(x) != want) {
      throw py::value_error("X has " + std::to_string(width(x)) + " columns, the model expects " +
                            std::to_string(want));
    }
    return static_cast<std::size_t>(x.shape(0));
  }

  bool fill_row(const py::dict& x, bool learning = false) { return dict_.fill(x, model_->name(), learning); }

  std::unique_ptr<Learner> model_;
  DictRow dict_;
  std::vector<double> proba_;
  Schema schema_;
  bool busy_ = false;
};

}  // namespace

const Learner& learner_model(py::handle learner) { return learner.cast<const PyLearner&>().model(); }

void bind_learner(py::module_& m) {
  py::class_<PyLearner>(m, "Learner")
      .def_static("make", &PyLearner::make, py::arg("name"), py::arg("settings"), py::arg("classification"),
                  py::arg("n_classes"), py::arg("n_features"), py::arg("seed"))
      .def_static("make_multi", &PyLearner::make_multi, py::arg("name"), py::arg("settings"), py::arg("n_features"),
                  py::arg("n_targets"), py::arg("seed"))
      .def("learn_multi_dict", &PyLearner::learn_multi_dict)
      .def("predict_multi_dict", &PyLearner::predict_multi_dict)
      .def_property_readonly("n_outputs", [](const PyLearner& l) { return l.model().n_outputs(); })
      .def_static("decode", &PyLearner::decode, py::arg("data"), "a learner from checkpoint bytes")
      .def("encode", &PyLearner::encode, py::arg("classes") = std::vector<std::string>{},
           py::arg("target") = std::string(),
           "checkpoint bytes (the CLI's file format), with the feature names and the given class names")
      .def("schema", &PyLearner::schema, "the names stored in the checkpoint this learner was decoded from, or None")
      .def("set_features", &PyLearner::set_features)
      .def("features", &PyLearner::features)
      .def("codes", &PyLearner::codes, "per feature, its text categories in code order")
      .def("set_codes", &PyLearner::set_codes, py::arg("tables"))
      .def("learn_dict", &PyLearner::learn_dict)
      .def("predict_dict", &PyLearner::predict_dict)
      .def("proba_dict", &PyLearner::proba_dict)
      .def("interval_dict", &PyLearner::interval_dict)
      .def("confidence_dict", &PyLearner::confidence_dict)
      .def("sigma_dict", &PyLearner::sigma_dict)
      .def("tuning_signals", &PyLearner::tuning_signals)
      .def("diagnostics_json", &PyLearner::diagnostics_json)
      .def("is_tunable", [](const PyLearner& l) { return dynamic_cast<const Tunable*>(&l.model()) != nullptr; })
      .def("adjust_config", &PyLearner::adjust_config, py::arg("lr_multiplier"), py::arg("lambda_delta"))
      .def("apply_structural_change", &PyLearner::apply_structural_change, py::arg("depth_delta"),
           py::arg("steps_delta"))
      .def("set_prune_half_life", &PyLearner::set_prune_half_life, py::arg("half_life"))
      .def("check_proactive_prune", &PyLearner::check_proactive_prune)
      .def("set_dict", &PyLearner::set_dict)
      .def("report_json", &PyLearner::report_json)
      .def("learn_many", &PyLearner::learn_many, py::arg("X"), py::arg("y"), py::arg("sample_weight") = py::none())
      .def("predict_many", &PyLearner::predict_many)
      .def("predict_learn_many", &PyLearner::predict_learn_many)
      .def("predict_proba_many", &PyLearner::predict_proba_many)
      .def("settings", &PyLearner::settings)
      .def("reset", &PyLearner::reset)
      .def("export_packed", &PyLearner::export_packed, py::arg("path"), py::arg("format") = "f32",
           py::arg("feature_names") = std::vector<std::string>{}, py::arg("class_names") = std::vector<std::string>{})
      .def("n_trees", &PyLearner::n_trees)
      .def("dump_tree", &PyLearner::dump_tree, py::arg("i"), py::arg("format"), py::arg("names"))
      .def("split_counts", &PyLearner::split_counts)
      .def("gain_shares", &PyLearner::gain_shares)
      .def_property_readonly("name", [](const PyLearner& l) { return std::string(l.model().name()); })
      .def_property_readonly("classification",
                             [](const PyLearner& l) { return l.model().task() == Task::kClassification; })
      .def_property_readonly("n_classes", [](const PyLearner& l) { return l.model().n_classes(); })
      .def_property_readonly("n_features", [](const PyLearner& l) { return l.model().n_features(); })
      .def_property_readonly("n_samples_seen", [](const PyLearner& l) { return l.model().n_samples_seen(); })
      .def_property_readonly("memory_bytes", [](const PyLearner& l) { return l.model().memory_bytes(); });
}

}  // namespace irithyll::python
