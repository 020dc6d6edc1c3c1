#include "model_options.hpp"

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

std::string listed_model_names() {
  std::string names;
  for (const auto& e : catalogue())
    if (e.listed) names += (names.empty() ? "" : "|") + std::string(e.name);
  return names;
}

}  // namespace irithyll::cli
