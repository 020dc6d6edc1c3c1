// Catalogue row "sgbt": streaming gradient-boosted trees. Its table is the
// SGBTConfig table (ensemble/sgbt_config.hpp); the task picks the loss
// (logistic / softmax for classification, the configured loss otherwise).
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {
namespace {

Result<std::unique_ptr<Learner>> make_sgbt(const ModelSettings& settings, const LearnerContext& context) {
  SGBTConfig config;
  config.seed = context.seed;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<SGBTConfig>("sgbt", sgbt_config_fields(), settings, config));
  auto learner = SGBTLearner::make(config, context.task, context.n_classes);
  if (!learner) return learner.status().with_context("sgbt");
  return std::unique_ptr<Learner>(std::move(learner).value());
}

}  // namespace

CatalogueEntry sgbt_row() {
  return {"sgbt",
          "streaming gradient-boosted trees (Gunasekara et al. 2024)",
          true,
          true,
          true,
          &infos<SGBTConfig, &sgbt_config_fields>,
          &make_sgbt,
          &make_blank<SGBTLearner>,
          &settings_of<SGBTLearner, SGBTConfig, &sgbt_config_fields>};
}

}  // namespace irithyll::catalogue_detail
