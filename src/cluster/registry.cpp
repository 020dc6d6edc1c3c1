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

using ClustreamEntry = RowOf<CluStream, CluStreamConfig, &clustream_config_fields>;
using DbstreamEntry = RowOf<DBStream, DBStreamConfig, &dbstream_config_fields>;
using KmeansEntry = RowOf<KMeans, KMeansConfig, &kmeans_config_fields>;

const std::vector<ClustererEntry>& table() {
  static const std::vector<ClustererEntry> rows = {
      {"clustream", "CluStream: micro-clusters (CF vectors) and offline weighted k-means (Aggarwal et al. 2003)",
       &ClustreamEntry::fields, &ClustreamEntry::make, &ClustreamEntry::blank},
      {"dbstream", "DBStream: faded micro-clusters joined by shared density; finds the cluster count (Hahsler & Bolanos 2016)",
       &DbstreamEntry::fields, &DbstreamEntry::make, &DbstreamEntry::blank},
      {"kmeans", "streaming k-means: k-means++ start, running-mean centres (River's cluster.KMeans settings)",
       &KmeansEntry::fields, &KmeansEntry::make, &KmeansEntry::blank},
  };
  return rows;
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
    append_json_string(out, e.name);
    out += ",\"description\":";
    append_json_string(out, e.description);
    out += ",\"tasks\":[\"clustering\"],";
    append_parameters_json(out, e.fields());
    out += "}";
  }
  out += "]";
  return out;
}

}  // namespace irithyll
