// Half-Space Trees' settings table (irithyll/anomaly/half_space_trees.hpp).
#include "core/field_rows.hpp"
#include "irithyll/anomaly/half_space_trees.hpp"

namespace irithyll {

Result<HstLimits> parse_hst_limits(std::string_view text) {
  if (text == "first-window") return HstLimits::kFirstWindow;
  if (text == "unit") return HstLimits::kUnit;
  return Status::invalid_argument("limits must be first-window or unit, not '" + std::string(text) + "'");
}

std::string_view hst_limits_name(HstLimits limits) { return limits == HstLimits::kUnit ? "unit" : "first-window"; }

std::span<const ConfigField<HalfSpaceTreesConfig>> HalfSpaceTrees::config_fields() {
  using C = HalfSpaceTreesConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::integer("n-trees", "10", "trees in the ensemble").in(1, 1000), IRITHYLL_FIELD_UINT(C, n_trees)},
      {FieldInfo::integer("height", "8", "levels below the root (a tree has 2^(height+1) - 1 nodes)").in(1, 20),
       IRITHYLL_FIELD_UINT(C, height)},
      {FieldInfo::integer("window-size", "250", "samples per mass window (reference and latest)").in(1, 10000000),
       IRITHYLL_FIELD_UINT(C, window_size)},
      {FieldInfo::real("size-limit", "0.1", "a score walk stops below this fraction of the window's mass").in(0, 1),
       IRITHYLL_FIELD_REAL(C, size_limit)},
      {FieldInfo::choice("limits", "first-window", "first-window|unit",
                         "feature ranges: learned from the first window, or [0, 1] for every feature"),
       IRITHYLL_FIELD_ENUM(C, limits, parse_hst_limits, hst_limits_name)},
  };
  return rows;
}

}  // namespace irithyll
