#include "provenance.hpp"

#include "irithyll/catalogue.hpp"
#include "irithyll/core/config_fields.hpp"

namespace irithyll::cli {

std::string provenance_json_member(const Provenance& p, const Learner& learner) {
  std::string out = ",\"provenance\":{\"irithyll_version\":";
  append_json_string(out, IRITHYLL_VERSION);
  out += p.data_is_file ? ",\"data\":" : ",\"stream\":";
  append_json_string(out, p.data);
  out += ",\"model\":";
  append_json_string(out, learner.name());
  if (!p.loaded.empty()) {
    out += ",\"loaded_from\":";
    append_json_string(out, p.loaded);
  }
  // Every setting as the learner holds it, defaults included.
  const CatalogueEntry* entry = find_model(learner.name());
  if (entry != nullptr && entry->settings_of != nullptr) {
    out += ",\"settings\":{";
    bool first = true;
    const ModelSettings settings = entry->settings_of(learner);
    for (const auto& [name, value] : settings.items()) {
      if (!first) out += ',';
      first = false;
      append_json_string(out, name);
      out += ':';
      append_json_string(out, value);
    }
    out += '}';
  }
  out += ",\"seed\":" + std::to_string(p.seed) + ",\"skip\":" + std::to_string(p.skip);
  if (p.max_samples) out += ",\"max_samples\":" + std::to_string(*p.max_samples);
  if (p.subsample) out += ",\"subsample\":" + std::to_string(*p.subsample);
  out += '}';
  return out;
}

}  // namespace irithyll::cli
