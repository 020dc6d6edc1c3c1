// The aggregated Mondrian forest's settings table (irithyll/mondrian/amf.hpp).
#include "core/field_rows.hpp"
#include "irithyll/mondrian/amf.hpp"

namespace irithyll {

Result<AmfWhenFull> parse_amf_when_full(std::string_view text) {
  if (text == "auto") return AmfWhenFull::kAuto;
  if (text == "restart") return AmfWhenFull::kRestart;
  if (text == "freeze") return AmfWhenFull::kFreeze;
  return Status::invalid_argument("when-full must be auto, restart or freeze, not '" + std::string(text) + "'");
}

std::string_view amf_when_full_name(AmfWhenFull w) {
  return w == AmfWhenFull::kRestart ? "restart" : (w == AmfWhenFull::kFreeze ? "freeze" : "auto");
}

std::span<const ConfigField<AmfConfig>> MondrianForestLearner::config_fields() {
  static const ConfigField<AmfConfig> rows[] = {
      {FieldInfo::integer("n-estimators", "10", "Mondrian trees; each sees every sample").in(1, 1000),
       IRITHYLL_FIELD_UINT(AmfConfig, n_estimators)},
      {FieldInfo::real("step", "1", "learning rate of the aggregation's exponential weights").in(0, 1e6, true),
       IRITHYLL_FIELD_REAL(AmfConfig, step)},
      {FieldInfo::boolean("use-aggregation", "on",
                          "average over all prunings of each tree (off: the leaf's prediction alone)"),
       IRITHYLL_FIELD_BOOL(AmfConfig, use_aggregation)},
      {FieldInfo::real("dirichlet", "0.5", "classification: prior count added to every class in every node")
           .in(0, 1e6, true),
       IRITHYLL_FIELD_REAL(AmfConfig, dirichlet)},
      {FieldInfo::boolean("split-pure", "off",
                          "classification: split a node even when all its labels equal the new sample's"),
       IRITHYLL_FIELD_BOOL(AmfConfig, split_pure)},
      {FieldInfo::integer("max-nodes", "0",
                          "nodes per tree, 3 or more (what a full tree does: when-full); 0: 1024 for classification, "
                          "4096 for regression")
           .in(0, 16777216),
       IRITHYLL_FIELD_UINT(AmfConfig, max_nodes)},
      {FieldInfo::choice("when-full", "auto", "auto|restart|freeze",
                         "a full tree starts again or stops splitting (auto: restart for classes, freeze for regression)"),
       IRITHYLL_FIELD_ENUM(AmfConfig, when_full, parse_amf_when_full, amf_when_full_name)},
  };
  return rows;
}

}  // namespace irithyll
