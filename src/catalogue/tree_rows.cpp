// Catalogue rows "hoeffding_tree" and "arf": the incremental decision tree
// (VFDT / FIMT-DD) and the Adaptive Random Forest, under the learner
// contract. Their tables are HoeffdingTreeConfig's and ARFConfig's; the
// context gives task, classes, features (0 = from the first sample) and the
// seed.
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
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

}  // namespace irithyll::catalogue_detail
