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

// The learner contract, as one declarative row. A learner T written against
// it declares
//   using Config = ...;                                   // the model's own settings only
//   static constexpr std::string_view kName = "knn";     // --model NAME, checkpoints
//   static std::span<const ConfigField<Config>> config_fields();
//   static Result<std::unique_ptr<T>> make(const Config&, const LearnerContext&);
//   const Config& config() const;
// and default construction (the blank instance a checkpoint decodes into);
// its row is then
//   learner_row<T>("description", Tasks::kBoth, "linear_model", "LogisticRegression", "LinearRegression")
template <class T>
Result<std::unique_ptr<Learner>> contract_make(const ModelSettings& settings, const LearnerContext& context) {
  using Config = typename T::Config;
  Config config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<Config>(T::kName, T::config_fields(), settings, config));
  auto made = T::make(config, context);
  if (!made) {
    const std::string& msg = made.status().message();
    if (msg.rfind(std::string(T::kName) + ":", 0) == 0) return made.status();
    return made.status().with_context(T::kName);
  }
  return std::unique_ptr<Learner>(std::move(made).value());
}

enum class Tasks { kRegression, kClassification, kBoth };

template <class T>
CatalogueEntry learner_row(std::string_view description, Tasks tasks, std::string_view python_module = {},
                           std::string_view python_classifier = {}, std::string_view python_regressor = {}) {
  using Config = typename T::Config;
  CatalogueEntry e{T::kName,
                   description,
                   tasks != Tasks::kClassification,
                   tasks != Tasks::kRegression,
                   true,
                   &infos<Config, &T::config_fields>,
                   &contract_make<T>,
                   &make_blank<T>,
                   &settings_of<T, Config, &T::config_fields>};
  e.python_module = python_module;
  e.python_classifier = python_classifier;
  e.python_regressor = python_regressor;
  return e;
}

}  // namespace irithyll::catalogue_detail
