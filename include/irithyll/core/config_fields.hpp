// Config field tables: the one description of a model's settings that every
// front end reads (CLI options and --help, `irithyll models`, Python keyword
// arguments, `serve`) and that validation checks against.
//
// A row names a setting ("n-steps"; Python spells it n_steps), gives its type,
// default, allowed range or choices and help text, and knows how to parse a
// value into the config struct and print it back. Range checks are generic:
// check_field() parses the text and compares it with the row's range, so a
// bound is written exactly once. Cross-field rules stay in each config's
// validate(), which starts by checking every row (validate_fields()).
//
// Values travel as text ("0.1", "adwin", "0.05,0.5,0.95"): one parser per type
// serves the CLI, JSON and Python alike, and get() of a row prints a value
// that set() reads back exactly (shortest round-trip for reals).
//
// Cost: nothing per sample; tables are static arrays. Thread safety: tables
// are immutable; ModelSettings is a plain value.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll {

enum class FieldType : std::uint8_t {
  kInt = 0,     // integer (decimal, or 0x hex for seeds)
  kReal = 1,    // finite double
  kBool = 2,    // on|off (also true|false, 1|0)
  kChoice = 3,  // one of `choices`
  kText = 4,    // free text parsed by the row's set() (lists, model names)
};
std::string_view field_type_name(FieldType type);

struct FieldInfo {
  std::string_view name;           // CLI spelling: "n-steps"
  FieldType type = FieldType::kReal;
  std::string_view default_value;  // as get() prints it for a default config
  std::string_view help;
  // Numeric rows: the allowed interval; an open end excludes the bound.
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;
  // Numeric rows: 0 is also allowed and means "off" (e.g. a half-life).
  bool zero_is_off = false;
  std::string_view choices;        // kChoice: "pht|adwin|ddm|none"
  std::string_view alias;          // an older CLI name still accepted ("mamba-n-state")
  // The value a checkpoint written before this row existed was trained
  // with, when that differs from the default (empty: the default).
  std::string_view absent_value;

  // Builders, so a table row reads as one line of intent:
  //   FieldInfo::integer("n-steps", "100", "boosting steps").in(1, 10000)
  static constexpr FieldInfo integer(std::string_view n, std::string_view d, std::string_view h) {
    return make(n, FieldType::kInt, d, h);
  }
  static constexpr FieldInfo real(std::string_view n, std::string_view d, std::string_view h) {
    return make(n, FieldType::kReal, d, h);
  }
  static constexpr FieldInfo boolean(std::string_view n, std::string_view d, std::string_view h) {
    return make(n, FieldType::kBool, d, h);
  }
  static constexpr FieldInfo choice(std::string_view n, std::string_view d, std::string_view options,
                                    std::string_view h) {
    FieldInfo f = make(n, FieldType::kChoice, d, h);
    f.choices = options;
    return f;
  }
  static constexpr FieldInfo text(std::string_view n, std::string_view d, std::string_view h) {
    return make(n, FieldType::kText, d, h);
  }
  // [lo, hi]; open ends with the flags.
  constexpr FieldInfo in(double l, double h, bool l_open = false, bool h_open = false) const {
    FieldInfo f = *this;
    f.lo = l, f.hi = h, f.lo_open = l_open, f.hi_open = h_open;
    return f;
  }
  constexpr FieldInfo at_least(double l) const { return in(l, std::numeric_limits<double>::infinity()); }
  constexpr FieldInfo above(double l) const { return in(l, std::numeric_limits<double>::infinity(), true); }
  constexpr FieldInfo or_off() const {
    FieldInfo f = *this;
    f.zero_is_off = true;
    return f;
  }
  constexpr FieldInfo aka(std::string_view old_name) const {
    FieldInfo f = *this;
    f.alias = old_name;
    return f;
  }
  constexpr FieldInfo absent_means(std::string_view value) const {
    FieldInfo f = *this;
    f.absent_value = value;
    return f;
  }

  // Python's spelling: dashes become underscores.
  std::string python_name() const;
  // "[1, 30]", "(0, 1]", ">= 2", "pht|adwin|ddm|none", "0 (off) or >= 1".
  std::string range_text() const;

 private:
  static constexpr FieldInfo make(std::string_view n, FieldType t, std::string_view d, std::string_view h) {
    FieldInfo f;
    f.name = n, f.type = t, f.default_value = d, f.help = h;
    return f;
  }
};

// Parses `value` as the row's type and checks it against the row's range.
// The message names the setting, the value and what is allowed:
//   "learning-rate = 0 is out of range: must be in (0, 1]".
Status check_field(const FieldInfo& field, std::string_view value);

// Typed parsers used by the rows' set() (no range check: check_field does it).
Result<double> parse_field_real(std::string_view name, std::string_view value);
Result<std::int64_t> parse_field_int(std::string_view name, std::string_view value);
Result<std::uint64_t> parse_field_uint(std::string_view name, std::string_view value);
Result<bool> parse_field_bool(std::string_view name, std::string_view value);
// The items of a separated list ("0.05,0.5,0.95", "pht|adwin|ddm|none"), as
// views into `text`: empty text has none, an item may be empty ("a,,b"), and
// a separator at the very end closes the list without adding an item.
std::vector<std::string_view> split_list_items(std::string_view text, char separator);
// Whether `value` is one of a choice row's "a|b|c" options.
bool in_choices(std::string_view choices, std::string_view value);
// "5, 2,5" -> {2, 5}: a list of feature indices (each < 2^24), sorted and
// deduplicated; `name` prefixes the message for an item that is not one.
Result<std::vector<std::uint32_t>> parse_index_list(std::string_view name, std::string_view text);
// {2, 5} -> "2,5".
std::string format_index_list(std::span<const std::uint32_t> items);
// Shortest text that parses back to exactly `v`.
std::string format_field_real(double v);

// JSON as `irithyll models --json` prints a table: a quoted string (quotes
// and backslashes escaped, control characters as spaces), and one row as
// {"name", "python_name", "type", "default", [min, max, min_open, max_open,
// zero_is_off,] [choices,] "range", "help"}. Every registry (learners,
// forecasters, anomaly detectors, clusterers) writes its rows with these.
void append_json_string(std::string& out, std::string_view s);
void append_field_json(std::string& out, const FieldInfo& field);
// `"parameters":[row, row, ...]`: a registry entry's whole table.
void append_parameters_json(std::string& out, std::span<const FieldInfo> fields);

template <class Config>
struct ConfigField {
  FieldInfo info;
  Status (*set)(Config& config, std::string_view value);  // parse into the struct
  std::string (*get)(const Config& config);               // print from the struct
};

// Settings by name, in the order given (later entries win). Names may use
// dashes or underscores; they are compared with underscores as dashes.
class ModelSettings {
 public:
  ModelSettings() = default;
  ModelSettings(std::initializer_list<std::pair<std::string, std::string>> items) : items_(items) {}
  void set(std::string name, std::string value) { items_.emplace_back(std::move(name), std::move(value)); }
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// "n_steps" and "n-steps" name the same field.
bool field_name_matches(const FieldInfo& field, std::string_view name);

// Applies every setting to `config` through its table, checking each value
// against its row; an unknown name is an error that lists the known ones.
// Settings apply in table order (so "drift" comes before "drift-delta"
// whatever order the user wrote them in); a name given twice keeps its last
// value. `model` prefixes messages ("sgbt: ...").
template <class Config>
Status apply_settings(std::string_view model, std::span<const ConfigField<Config>> fields, const ModelSettings& settings,
                      Config& config) {
  for (const auto& [name, value] : settings.items()) {
    bool known = false;
    for (const auto& f : fields) known = known || field_name_matches(f.info, name);
    if (!known) {
      std::string names;
      for (const auto& f : fields) names += (names.empty() ? "" : ", ") + std::string(f.info.name);
      return Status::invalid_argument(std::string(model) + ": unknown setting '" + name + "' (settings: " + names + ")");
    }
  }
  for (const auto& f : fields) {
    const std::string* value = nullptr;
    for (const auto& [name, v] : settings.items())
      if (field_name_matches(f.info, name)) value = &v;
    if (value == nullptr) continue;
    Status s = check_field(f.info, *value);
    if (s) s = f.set(config, *value);
    if (!s) return s.with_context(model);
  }
  return Status::ok();
}

// Checks every row's current value against its range (the table half of a
// config's validate()).
template <class Config>
Status validate_fields(std::string_view model, std::span<const ConfigField<Config>> fields, const Config& config) {
  for (const auto& f : fields) {
    const std::string value = f.get(config);
    if (Status s = check_field(f.info, value); !s) return s.with_context(model);
  }
  return Status::ok();
}

// The table's rows as plain descriptions (for listings and bindings).
template <class Config>
std::vector<FieldInfo> field_infos(std::span<const ConfigField<Config>> fields) {
  std::vector<FieldInfo> out;
  out.reserve(fields.size());
  for (const auto& f : fields) out.push_back(f.info);
  return out;
}

// Current values of every row, as settings that apply_settings reads back.
template <class Config>
ModelSettings settings_of(std::span<const ConfigField<Config>> fields, const Config& config) {
  ModelSettings s;
  for (const auto& f : fields) s.set(std::string(f.info.name), f.get(config));
  return s;
}

}  // namespace irithyll
