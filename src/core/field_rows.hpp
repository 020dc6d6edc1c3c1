// Row builders for config field tables (irithyll/core/config_fields.hpp).
// Each macro expands to the set/get pair of one row for a member of Config;
// the FieldInfo beside it (designated initialisers) carries the name, type,
// default, range and help. Values reaching set() were already checked by
// check_field(), so the parses here cannot fail on table traffic; they still
// return a Status for direct callers.
//
//   ConfigField<SGBTConfig>{{.name = "n-steps", .type = FieldType::kInt, .default_value = "100",
//                            .help = "boosting steps", .lo = 1, .hi = 10000},
//                           IRITHYLL_FIELD_UINT(SGBTConfig, n_steps)},
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"

#define IRITHYLL_FIELD_REAL(Config, MEMBER)                          \
  [](Config& c, std::string_view v) -> ::irithyll::Status {          \
    auto r = ::irithyll::parse_field_real(#MEMBER, v);               \
    if (!r) return r.status();                                       \
    c.MEMBER = *r;                                                   \
    return ::irithyll::Status::ok();                                 \
  },                                                                 \
      [](const Config& c) { return ::irithyll::format_field_real(c.MEMBER); }

#define IRITHYLL_FIELD_UINT(Config, MEMBER)                          \
  [](Config& c, std::string_view v) -> ::irithyll::Status {          \
    auto r = ::irithyll::parse_field_uint(#MEMBER, v);               \
    if (!r) return r.status();                                       \
    c.MEMBER = static_cast<decltype(c.MEMBER)>(*r);                  \
    return ::irithyll::Status::ok();                                 \
  },                                                                 \
      [](const Config& c) { return std::to_string(c.MEMBER); }

#define IRITHYLL_FIELD_BOOL(Config, MEMBER)                          \
  [](Config& c, std::string_view v) -> ::irithyll::Status {          \
    auto r = ::irithyll::parse_field_bool(#MEMBER, v);               \
    if (!r) return r.status();                                       \
    c.MEMBER = *r;                                                   \
    return ::irithyll::Status::ok();                                 \
  },                                                                 \
      [](const Config& c) { return std::string(c.MEMBER ? "on" : "off"); }

// An enum member with parse/print functions: PARSE(string_view) -> Result<E>,
// NAME(E) -> string_view.
#define IRITHYLL_FIELD_ENUM(Config, MEMBER, PARSE, NAME)             \
  [](Config& c, std::string_view v) -> ::irithyll::Status {          \
    auto r = PARSE(v);                                               \
    if (!r) return r.status();                                       \
    c.MEMBER = *r;                                                   \
    return ::irithyll::Status::ok();                                 \
  },                                                                 \
      [](const Config& c) { return std::string(NAME(c.MEMBER)); }

namespace irithyll {

// Joins a model's own rows with rows it shares with other models (the RLS
// readout's, continual learning's), once: tables are static.
template <class Config>
std::vector<ConfigField<Config>> join_rows(std::initializer_list<std::span<const ConfigField<Config>>> parts) {
  std::vector<ConfigField<Config>> out;
  for (auto part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

}  // namespace irithyll
