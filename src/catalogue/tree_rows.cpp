// Catalogue rows "hoeffding_tree", "arf", "bagged_sgbt" and "sgt": the incremental
// decision tree (VFDT / FIMT-DD) and the Adaptive Random Forest, both under
// the learner contract, online bagging of SGBTs, and the single stochastic
// gradient tree. Their tables are
// HoeffdingTreeConfig's and ARFConfig's; the context gives task, classes,
// features (0 = from the first sample) and the seed.
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "irithyll/tree/sgt.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {
namespace {

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
  return learner_row<HoeffdingTreeLearner>(
      "Hoeffding tree: VFDT classification (Domingos & Hulten 2000), FIMT-DD style regression", Tasks::kBoth);
}

CatalogueEntry arf_row() {
  return learner_row<AdaptiveRandomForest>(
      "Adaptive Random Forest (Gomes et al. 2017): bagged Hoeffding trees with ADWIN background/replacement",
      Tasks::kBoth);
}

CatalogueEntry sgt_row() {
  return learner_row<SGTLearner>(
      "Stochastic Gradient Tree (Gouk et al. 2019): one Hoeffding tree on loss gradients and hessians, split by loss "
      "reduction",
      Tasks::kBoth, "tree", "SGTClassifier", "SGTRegressor");
}

}  // namespace irithyll::catalogue_detail
