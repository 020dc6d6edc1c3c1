// The model catalogue: one row per learner kind, and the only place a front
// end (the CLI, `irithyll models`, checkpoints, Python, `serve`) learns what
// models exist, what settings they take and how to build or decode them.
//
// A row holds the model's name, a one-line description, the tasks it
// supports, its configuration as a field table (config_fields.hpp: name,
// type, default, range or choices, help), a factory that checks the settings
// and returns a ready learner, and a blank instance for checkpoints to decode
// into. Adding a model = one config struct with its field table and one row
// in src/catalogue/catalogue.cpp.
//
//   auto model = make_learner("sgbt", {{"learning-rate", "0.1"}},
//                             LearnerContext{Task::kClassification, 2, 8, 42});
//   if (!model) report(model.status());   // "sgbt: learning-rate = 2 is out of range: ..."
//
// Settings left out take the table's defaults. The context carries what the
// data decides (task, class count, feature count) and the seed, so a table
// never repeats them. No exception escapes a factory: every refusal is a
// Status naming the model, the setting, the value and what is allowed.
//
// Thread safety: the catalogue is immutable; factories may run concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct CatalogueEntry {
  std::string_view name;         // "sgbt": --model NAME, the checkpoint's learner name
  std::string_view description;  // one line
  bool regression = false;       // tasks it supports
  bool classification = false;
  bool listed = true;            // false: decode-only kinds (pipelines) that have no settings of their own
  std::span<const FieldInfo> (*fields)();
  Result<std::unique_ptr<Learner>> (*make)(const ModelSettings& settings, const LearnerContext& context);
  std::unique_ptr<Learner> (*make_blank)();           // default instance that decode() fills
  ModelSettings (*settings_of)(const Learner& learner);  // current settings of a learner of this kind
  // Where the Python package puts the model: River's module ("linear_model")
  // and class names per task ("LogisticRegression"). Empty: the package's
  // own placement (stem + "Classifier" / "Regressor").
  std::string_view python_module = {};
  std::string_view python_classifier = {};
  std::string_view python_regressor = {};

  bool supports(Task task) const { return task == Task::kClassification ? classification : regression; }
};

std::span<const CatalogueEntry> catalogue();
const CatalogueEntry* find_model(std::string_view name);

// Looks the model up, checks its settings and the task, and builds it.
Result<std::unique_ptr<Learner>> make_learner(std::string_view name, const ModelSettings& settings,
                                              const LearnerContext& context);

// A default instance of a kind, for a checkpoint to decode into (nullptr for
// an unknown name). Checkpoints and pipelines decode through this.
std::unique_ptr<Learner> make_blank_learner(std::string_view name);

// Every listed model with every setting (name, type, default, range, help)
// as one JSON document: `irithyll models --json` and the Python package.
std::string catalogue_json();

// The catalogue's own make / blank / availability functions, for learners
// that hold other catalogue models by name (auto, conformal; selection/).
struct MemberFactory;
MemberFactory catalogue_member_factory();

}  // namespace irithyll
