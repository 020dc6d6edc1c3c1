// MemberFactory: how a selection learner (`auto`, `conformal`, `continual`) builds the
// models it holds by name. The selection area sits below the catalogue, so
// the catalogue hands its own functions in (src/catalogue/selection_rows.cpp)
// and tests can hand in anything else.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct MemberFactory {
  // Whether `name` is a model that supports the task (false: skip it).
  bool (*available)(std::string_view name, Task task) = nullptr;
  // Builds and checks a model (make_learner's contract).
  Result<std::unique_ptr<Learner>> (*make)(std::string_view name, const ModelSettings& settings,
                                           const LearnerContext& context) = nullptr;
  // A blank instance to decode a checkpoint into (nullptr: unknown name).
  std::unique_ptr<Learner> (*blank)(std::string_view name) = nullptr;
  // Builds a model written as `--model` takes one: "name", "name(key=value;
  // ...)" or a pipeline "t1(...)|t2|learner(...)" (needs context.n_features).
  // Optional: only holders of arbitrary base models use it.
  Result<std::unique_ptr<Learner>> (*build)(std::string_view spec, const LearnerContext& context) = nullptr;
  // The settings a model takes (empty for an unknown name). Optional: holders
  // that hand settings of their own to the model (`continual`) use it.
  std::span<const FieldInfo> (*fields)(std::string_view name) = nullptr;

  bool complete() const { return available != nullptr && make != nullptr && blank != nullptr; }
};

// "sgbt:learning-rate=0.05,max-depth=4" -> name and settings.
struct MemberSpec {
  std::string name;
  ModelSettings settings;
  std::string label;  // the entry as written, trimmed: how reports name it
};
// One entry ("name" or "name:key=value,key=value").
Result<MemberSpec> parse_member_spec(std::string_view text);
// Entries separated by ';' (empty entries refused).
Result<std::vector<MemberSpec>> parse_member_specs(std::string_view text);

}  // namespace irithyll
