// Catalogue row "stacked": stacking with a temporal holdout over any
// catalogue models (stacked.hpp).
#include "irithyll/stacked.hpp"
#include "row.hpp"

namespace irithyll::catalogue_detail {
namespace {

Result<std::unique_ptr<Learner>> make_stacked(const ModelSettings& settings, const LearnerContext& context) {
  StackedConfig config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<StackedConfig>("stacked", stacked_config_fields(), settings, config));
  auto made = StackedLearner::make(config, context);
  if (!made) return made.status();
  return std::unique_ptr<Learner>(std::move(made).value());
}

}  // namespace

CatalogueEntry stacked_row() {
  return {"stacked",
          "stacking with a temporal holdout: any catalogue models as bases and meta model",
          true,
          true,
          true,
          &infos<StackedConfig, &stacked_config_fields>,
          &make_stacked,
          &make_blank<StackedLearner>,
          &settings_of<StackedLearner, StackedConfig, &stacked_config_fields>};
}

}  // namespace irithyll::catalogue_detail
