// Catalogue rows "hoeffding_tree", "arf" and "bagged_sgbt": the incremental
// decision tree (VFDT / FIMT-DD), the Adaptive Random Forest and online
// bagging of SGBTs. Their tables are
// HoeffdingTreeConfig's and ARFConfig's; the context gives task, classes,
// features (0 = from the first sample) and the seed.
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {
namespace {

template <class Model, class Config, auto kFields>
Result<std::unique_ptr<Learner>> make_model(std::string_view name, const ModelSettings& settings,
                                            const LearnerContext& context) {
  Config config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<Config>(name, kFields(), settings, config));
  auto learner = Model::make(config, context.task, context.n_classes, context.n_features, context.seed);
  if (!learner) return learner.status();  // messages already start with the model's name
  return std::unique_ptr<Learner>(std::move(learner).value());
}

Result<std::unique_ptr<Learner>> make_hoeffding_tree(const ModelSettings& settings, const LearnerContext& context) {
  return make_model<HoeffdingTreeLearner, HoeffdingTreeConfig, &hoeffding_tree_config_fields>("hoeffding_tree", settings,
                                                                                              context);
}

Result<std::unique_ptr<Learner>> make_arf(const ModelSettings& settings, const LearnerContext& context) {
  return make_model<AdaptiveRandomForest, ARFConfig, &arf_config_fields>("arf", settings, context);
}

Result<std::unique_ptr<Learner>> make_bagged_sgbt(const ModelSettings& settings, const LearnerContext& context) {
  BaggedSGBTConfig config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<BaggedSGBTConfig>("bagged_sgbt", bagged_sgbt_config_fields(), settings, config));
  auto learner = BaggedSGBT::make(config, context.task, context.n_classes, context.seed);
  if (!learner) return learner.status();
  return std::unique_ptr<Learner>(std::move(learner).value());
}

}  // namespace

CatalogueEntry bagged_sgbt_row() {
  return {"bagged_sgbt",
          "Oza online bagging of SGBTs: each bag learns a sample Poisson(1) times; bags averaged",
          true,
          true,
          true,
          &infos<BaggedSGBTConfig, &bagged_sgbt_config_fields>,
          &make_bagged_sgbt,
          &make_blank<BaggedSGBT>,
          &settings_of<BaggedSGBT, BaggedSGBTConfig, &bagged_sgbt_config_fields>};
}

CatalogueEntry hoeffding_tree_row() {
  return {"hoeffding_tree",
          "Hoeffding tree: VFDT classification (Domingos & Hulten 2000), FIMT-DD style regression",
          true,
          true,
          true,
          &infos<HoeffdingTreeConfig, &hoeffding_tree_config_fields>,
          &make_hoeffding_tree,
          &make_blank<HoeffdingTreeLearner>,
          &settings_of<HoeffdingTreeLearner, HoeffdingTreeConfig, &hoeffding_tree_config_fields>};
}

CatalogueEntry arf_row() {
  return {"arf",
          "Adaptive Random Forest (Gomes et al. 2017): bagged Hoeffding trees with ADWIN background/replacement",
          true,
          true,
          true,
          &infos<ARFConfig, &arf_config_fields>,
          &make_arf,
          &make_blank<AdaptiveRandomForest>,
          &settings_of<AdaptiveRandomForest, ARFConfig, &arf_config_fields>};
}

}  // namespace irithyll::catalogue_detail
