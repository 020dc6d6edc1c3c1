// Building blocks of a catalogue row (irithyll/catalogue.hpp): learner_row<T>
// turns a learner written against the contract into the entry's function
// pointers, so every row checks settings, applies the context and builds the
// learner the same way.
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

// A model's refusal, prefixed "name: " unless the model already named itself.
inline Status named_refusal(const Status& s, std::string_view name) {
  const std::string& msg = s.message();
  if (msg.size() > name.size() && msg.compare(0, name.size(), name) == 0 && msg[name.size()] == ':') return s;
  return s.with_context(name);
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
  if (!made) return named_refusal(made.status(), T::kName);
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

// The rows that build their learner otherwise than learner_row<T>: sgbt (its
// preset setting), pipeline and stacked (their steps and members by spec),
// auto, conformal and leveraging_bagging (members from the catalogue's own
// factory).
CatalogueEntry sgbt_row();
CatalogueEntry pipeline_row();
CatalogueEntry stacked_row();
CatalogueEntry auto_row();
CatalogueEntry conformal_row();
CatalogueEntry continual_row();
CatalogueEntry leveraging_bagging_row();

}  // namespace irithyll::catalogue_detail
