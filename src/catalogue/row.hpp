// Building blocks of a catalogue row (irithyll/catalogue.hpp). A model's row
// is its config table plus three small functions; these templates turn them
// into the entry's function pointers, so every row checks settings, applies
// the context and builds the learner the same way.
//
//   Config      the model's config struct
//   kFields     std::span<const ConfigField<Config>> () : its field table
//   kContext    void (Config&, const LearnerContext&)  : task, classes, features, seed
//   kBuild      Result<std::unique_ptr<Learner>> (const Config&) : validates and constructs
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/catalogue.hpp"

namespace irithyll::catalogue_detail {

template <class Config, auto kFields>
std::span<const FieldInfo> infos() {
  static const std::vector<FieldInfo> rows = field_infos<Config>(kFields());
  return rows;
}

template <class Config, auto kFields, auto kContext, auto kBuild>
Result<std::unique_ptr<Learner>> make(std::string_view name, const ModelSettings& settings,
                                      const LearnerContext& context) {
  Config config;
  kContext(config, context);
  IRITHYLL_RETURN_IF_ERROR(apply_settings<Config>(name, kFields(), settings, config));
  auto built = kBuild(config);
  if (built) return built;
  // The learners' own checks mostly start with their name already.
  const std::string& msg = built.status().message();
  if (msg.rfind(std::string(name) + ":", 0) == 0) return built.status();
  return built.status().with_context(name);
}

template <class T>
std::unique_ptr<Learner> make_blank() {
  return std::make_unique<T>();
}

// The learner's current settings through its config() accessor.
template <class T, class Config, auto kFields>
ModelSettings settings_of(const Learner& learner) {
  const auto* typed = dynamic_cast<const T*>(&learner);
  if (typed == nullptr) return {};
  return irithyll::settings_of<Config>(kFields(), typed->config());
}

// Validate-then-construct for learners with a static validate() and a
// non-throwing constructor from a valid config.
template <class T, class Config>
Result<std::unique_ptr<Learner>> validate_and_construct(const Config& config) {
  IRITHYLL_RETURN_IF_ERROR(T::validate(config));
  return std::unique_ptr<Learner>(std::make_unique<T>(config));
}

// For learners whose static make() returns Result<std::unique_ptr<T>>.
template <class T, class Config>
Result<std::unique_ptr<Learner>> via_make(const Config& config) {
  auto made = T::make(config);
  if (!made) return made.status();
  return std::unique_ptr<Learner>(std::move(made).value());
}

}  // namespace irithyll::catalogue_detail
