// Catalogue row "sgbt": streaming gradient-boosted trees. Its table is the
// SGBTConfig table (ensemble/sgbt_config.hpp), preceded by one more setting,
// "preset": a named set of values (sgbt_presets(): the measured defaults, or
// the Rust library's) applied before every other setting. The task picks
// the loss (logistic / softmax for classification, the configured loss
// otherwise).
#include <string>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "row.hpp"

namespace irithyll::catalogue_detail {
namespace {

constexpr std::string_view kPreset = "preset";

const std::string& preset_choices() {
  static const std::string choices = [] {
    std::string s;
    for (const SGBTPreset& p : sgbt_presets()) s += (s.empty() ? "" : "|") + std::string(p.name);
    return s;
  }();
  return choices;
}

std::span<const FieldInfo> sgbt_infos() {
  static const std::vector<FieldInfo> rows = [] {
    std::vector<FieldInfo> out{FieldInfo::choice(kPreset, "default", preset_choices(),
                                                 "named settings applied before the others (original = the Rust "
                                                 "library's defaults)")};
    for (const auto& f : sgbt_config_fields()) out.push_back(f.info);
    return out;
  }();
  return rows;
}

Result<std::unique_ptr<Learner>> make_sgbt(const ModelSettings& settings, const LearnerContext& context) {
  SGBTConfig config;
  ModelSettings rest;
  for (const auto& [name, value] : settings.items()) {
    if (field_name_matches(sgbt_infos()[0], name)) {
      IRITHYLL_RETURN_IF_ERROR(check_field(sgbt_infos()[0], value).with_context("sgbt"));
      IRITHYLL_RETURN_IF_ERROR(apply_sgbt_preset(config, value));
    } else {
      rest.set(name, value);
    }
  }
  IRITHYLL_RETURN_IF_ERROR(apply_settings<SGBTConfig>("sgbt", sgbt_config_fields(), rest, config));
  auto learner = SGBTLearner::make(config, context);
  if (!learner) return named_refusal(learner.status(), "sgbt");
  return std::unique_ptr<Learner>(std::move(learner).value());
}

// Every value is spelled out, so the preset that produced them is "default".
ModelSettings sgbt_settings(const Learner& learner) {
  ModelSettings s{{std::string(kPreset), "default"}};
  const ModelSettings table = settings_of<SGBTLearner, SGBTConfig, &sgbt_config_fields>(learner);
  for (const auto& [name, value] : table.items()) s.set(name, value);
  return s;
}

}  // namespace

CatalogueEntry sgbt_row() {
  return {"sgbt",
          "streaming gradient-boosted trees (Gunasekara et al. 2024)",
          true,
          true,
          true,
          &sgbt_infos,
          &make_sgbt,
          &make_blank<SGBTLearner>,
          &sgbt_settings};
}

}  // namespace irithyll::catalogue_detail
