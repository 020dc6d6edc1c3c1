#include "model_options.hpp"

#include "irithyll/pipeline_spec.hpp"

namespace irithyll::cli {

std::string model_from_argv(std::span<char* const> argv, std::string fallback) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view a = argv[i];
    if (a == "--model" && i + 1 < argv.size()) return argv[i + 1];
    if (a.rfind("--model=", 0) == 0) return std::string(a.substr(8));
  }
  return fallback;
}

void declare_model_options(ArgParser& parser, const CatalogueEntry& entry) {
  for (const FieldInfo& f : entry.fields()) {
    std::string help = std::string(entry.name) + ": " + std::string(f.help);
    if (f.type != FieldType::kText) help += "; " + f.range_text();
    parser.option(std::string(f.name), "V", help, std::string(f.default_value));
    if (!f.alias.empty()) parser.alias(std::string(f.name), std::string(f.alias));
  }
}

ModelSettings given_model_settings(const ArgParser& parser, const CatalogueEntry& entry) {
  ModelSettings settings;
  for (const FieldInfo& f : entry.fields()) {
    const std::string name(f.name);
    if (parser.given(name)) settings.set(name, parser.get(name));
  }
  return settings;
}

namespace {
constexpr std::string_view kCategoricalField = "categorical-features";
}  // namespace

bool add_schema_categorical(ModelSettings& settings, std::string_view model, const Schema& schema) {
  if (schema.categorical_features.empty()) return false;
  const CatalogueEntry* entry = find_model(model);
  if (entry == nullptr) return false;
  const FieldInfo* field = nullptr;
  for (const FieldInfo& f : entry->fields())
    if (field_name_matches(f, kCategoricalField)) field = &f;
  if (field == nullptr) return false;
  for (const auto& [name, value] : settings.items())
    if (field_name_matches(*field, name)) return !value.empty();  // the user's own list wins
  std::string list;
  for (const std::size_t f : schema.categorical_features) list += (list.empty() ? "" : ",") + std::to_string(f);
  settings.set(std::string(kCategoricalField), list);
  return true;
}

std::string categorical_report(const Schema& schema, const std::string& models) {
  if (schema.categorical_features.empty()) return {};
  std::string names;
  for (const std::size_t f : schema.categorical_features)
    names += (names.empty() ? "" : ", ") + (f < schema.feature_names.size() ? schema.feature_names[f] : std::to_string(f));
  return "categorical  " + names +
         (models.empty() ? " (read as category codes 0, 1, ...; no category splits in this model)\n"
                         : " (split by category in " + models + ")\n");
}

std::string learner_of_model(const std::string& model) {
  if (!is_pipeline_spec(model)) return model;
  auto steps = parse_pipeline_spec(model);
  return steps && !steps->empty() ? steps->back().name : model;
}

Result<std::unique_ptr<Learner>> make_cli_model(const std::string& model, ModelSettings settings, const Schema& schema,
                                                std::uint64_t seed, std::string& categorical) {
  LearnerContext context{schema.task, schema.n_classes(), schema.n_features(), seed, schema.n_targets()};
  if (!is_pipeline_spec(model)) {
    categorical = categorical_report(schema, add_schema_categorical(settings, model, schema) ? model : "");
    return make_learner(model, settings, context);
  }
  context.feature_names = schema.feature_names;
  std::vector<std::uint32_t> cats;
  std::string names;
  for (const std::size_t f : schema.categorical_features) {
    cats.push_back(static_cast<std::uint32_t>(f));
    names += (names.empty() ? "" : ", ") + (f < schema.feature_names.size() ? schema.feature_names[f] : std::to_string(f));
  }
  if (!names.empty()) categorical = "categorical  " + names + " (category codes 0, 1, ... for the pipeline's steps)\n";
  return make_pipeline(model, settings, context, cats);
}

Result<std::vector<ModelSpec>> parse_model_list(const std::string& text) {
  std::vector<ModelSpec> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c != ',' || depth > 0) continue;
    const std::string item = text.substr(start, i - start);
    start = i + 1;
    if (is_pipeline_spec(item)) {
      auto steps = parse_pipeline_spec(item);
      if (!steps) return steps.status();
      out.push_back(ModelSpec{item, {}});
      continue;
    }
    auto one = parse_model_specs(item);
    if (!one) return one.status();
    for (auto& m : *one) out.push_back(std::move(m));
  }
  return out;
}

std::string listed_model_names() {
  std::string names;
  for (const auto& e : catalogue())
    if (e.listed) names += (names.empty() ? "" : "|") + std::string(e.name);
  return names;
}

}  // namespace irithyll::cli
