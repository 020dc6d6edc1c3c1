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

// A held model inside its holder's record: str(name), u64 size, then the
// model's own record (an empty name and size 0 for none).
void encode_member_record(const Learner* model, ByteWriter& out);
// Reads what encode_member_record wrote into the factory's blank instance of
// that name. Refused with the holder's name: an unknown or nested (`holder`
// itself) kind, a record the model does not decode whole, or a model for
// another task or class count than `context`.
Result<std::unique_ptr<Learner>> decode_member_record(ByteReader& in, const MemberFactory& factory,
                                                      std::string_view holder, const LearnerContext& context);

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
