// kNN's settings table (irithyll/neighbors/knn.hpp).
#include "core/field_rows.hpp"
#include "irithyll/neighbors/knn.hpp"

namespace irithyll {

Result<KnnWeighting> parse_knn_weighting(std::string_view text) {
  if (text == "uniform") return KnnWeighting::kUniform;
  if (text == "distance") return KnnWeighting::kDistance;
  return Status::invalid_argument("weighting must be uniform or distance, not '" + std::string(text) + "'");
}

std::string_view knn_weighting_name(KnnWeighting w) { return w == KnnWeighting::kUniform ? "uniform" : "distance"; }

std::span<const ConfigField<KnnConfig>> KnnLearner::config_fields() {
  static const ConfigField<KnnConfig> rows[] = {
      {FieldInfo::integer("n-neighbors", "5", "neighbours that vote (k)").in(1, 1000),
       IRITHYLL_FIELD_UINT(KnnConfig, n_neighbors)},
      {FieldInfo::integer("window-size", "1000", "most recent samples kept and searched").in(1, 100000),
       IRITHYLL_FIELD_UINT(KnnConfig, window_size)},
      {FieldInfo::choice("weighting", "distance", "uniform|distance",
                         "vote of a neighbour: its sample weight (uniform) or weight / distance"),
       IRITHYLL_FIELD_ENUM(KnnConfig, weighting, parse_knn_weighting, knn_weighting_name)},
      {FieldInfo::real("p", "2", "Minkowski exponent of the distance (2: euclidean, 1: manhattan)").in(1, 100),
       IRITHYLL_FIELD_REAL(KnnConfig, p)},
      {FieldInfo::boolean("standardize", "on", "divide each feature by its running standard deviation"),
       IRITHYLL_FIELD_BOOL(KnnConfig, standardize)},
  };
  return rows;
}

}  // namespace irithyll
