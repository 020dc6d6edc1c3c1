// The clusterer table: one row per model, sorted by name.
#include "irithyll/cluster/registry.hpp"

#include <cmath>
#include <vector>

#include "irithyll/cluster/clustream.hpp"
#include "irithyll/cluster/dbstream.hpp"
#include "irithyll/cluster/kmeans.hpp"

namespace irithyll {
namespace {

// One row's functions for a model whose config struct has a field table.
template <class Model, class Config, std::span<const ConfigField<Config>> (*Fields)()>
struct RowOf {
  static std::span<const FieldInfo> fields() {
    static const std::vector<FieldInfo> infos = field_infos<Config>(Fields());
    return infos;
  }
  static Result<std::unique_ptr<Clusterer>> make(const ModelSettings& settings, std::uint64_t seed) {
    Config config;
    IRITHYLL_RETURN_IF_ERROR(apply_settings<Config>(Model().name(), Fields(), settings, config));
    auto made = Model::make(config, seed);
    if (!made) return made.status();
    return std::unique_ptr<Clusterer>(std::move(made).value());
  }
  static std::unique_ptr<Clusterer> blank() { return std::make_unique<Model>(); }
};

using ClustreamRow = RowOf<CluStream, CluStreamConfig, &clustream_config_fields>;
using DbstreamRow = RowOf<DBStream, DBStreamConfig, &dbstream_config_fields>;
using KmeansRow = RowOf<KMeans, KMeansConfig, &kmeans_config_fields>;

const std::vector<ClustererEntry>& table() {
  static const std::vector<ClustererEntry> rows = {
      {"clustream", "CluStream: micro-clusters (CF vectors) and offline weighted k-means (Aggarwal et al. 2003)",
       &ClustreamRow::fields, &ClustreamRow::make, &ClustreamRow::blank},
      {"dbstream", "DBStream: faded micro-clusters joined by shared density; finds the cluster count (Hahsler & Bolanos 2016)",
       &DbstreamRow::fields, &DbstreamRow::make, &DbstreamRow::blank},
      {"kmeans", "streaming k-means: k-means++ start, running-mean centres (River's cluster.KMeans settings)",
       &KmeansRow::fields, &KmeansRow::make, &KmeansRow::blank},
  };
  return rows;
}

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  out += '"';
}

void json_number(std::string& out, double v) {
  if (std::isfinite(v)) out += format_field_real(v);
  else out += "null";  // an unbounded end
}

}  // namespace

std::span<const ClustererEntry> clusterers() { return table(); }

const ClustererEntry* find_clusterer(std::string_view name) {
  for (const auto& e : table())
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::unique_ptr<Clusterer>> make_clusterer(std::string_view name, const ModelSettings& settings,
                                                  std::uint64_t seed) {
  const ClustererEntry* e = find_clusterer(name);
  if (e == nullptr) {
    std::string names;
    for (const auto& row : table()) names += (names.empty() ? "" : ", ") + std::string(row.name);
    return Status::invalid_argument("unknown clusterer '" + std::string(name) + "' (clusterers: " + names + ")");
  }
  return e->make(settings, seed);
}

std::string clusterers_json() {
  std::string out = "[";
  bool first_model = true;
  for (const auto& e : table()) {
    if (!first_model) out += ',';
    first_model = false;
    out += "{\"name\":";
    json_string(out, e.name);
    out += ",\"description\":";
    json_string(out, e.description);
    out += ",\"tasks\":[\"clustering\"],\"parameters\":[";
    bool first_field = true;
    for (const FieldInfo& f : e.fields()) {
      if (!first_field) out += ',';
      first_field = false;
      out += "{\"name\":";
      json_string(out, f.name);
      out += ",\"python_name\":";
      json_string(out, f.python_name());
      out += ",\"type\":";
      json_string(out, field_type_name(f.type));
      out += ",\"default\":";
      json_string(out, f.default_value);
      if (f.type == FieldType::kInt || f.type == FieldType::kReal) {
        out += ",\"min\":";
        json_number(out, f.lo);
        out += ",\"max\":";
        json_number(out, f.hi);
        out += std::string(",\"min_open\":") + (f.lo_open ? "true" : "false");
        out += std::string(",\"max_open\":") + (f.hi_open ? "true" : "false");
        out += std::string(",\"zero_is_off\":") + (f.zero_is_off ? "true" : "false");
      }
      if (f.type == FieldType::kChoice) {
        out += ",\"choices\":[";
        bool first_choice = true;
        for (std::string_view choice : split_list_items(f.choices, '|')) {
          if (!first_choice) out += ',';
          first_choice = false;
          json_string(out, choice);
        }
        out += ']';
      }
      out += ",\"range\":";
      json_string(out, f.range_text());
      out += ",\"help\":";
      json_string(out, f.help);
      out += '}';
    }
    out += "]}";
  }
  out += "]";
  return out;
}

}  // namespace irithyll
