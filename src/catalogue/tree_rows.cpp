// Catalogue rows "hoeffding_tree", "arf" and "sgt": the incremental decision
// tree (VFDT / FIMT-DD), the Adaptive Random Forest and the single stochastic
// gradient tree, under the learner contract. The context gives task,
// classes, features (0 = from the first sample) and the seed.
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "irithyll/tree/sgt.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

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
