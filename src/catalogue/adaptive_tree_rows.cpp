// Catalogue rows "hoeffding_adaptive_tree" and "efdt": the Hoeffding trees
// that revise their structure (irithyll/tree/adaptive_tree_learner.hpp).
#include "irithyll/tree/adaptive_tree_learner.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry hoeffding_adaptive_tree_row() {
  return learner_row<HoeffdingAdaptiveTree>(
      "Hoeffding Adaptive Tree (Bifet & Gavalda 2009): ADWIN per node, alternate subtrees swapped in on drift",
      Tasks::kBoth, "tree", "HoeffdingAdaptiveTreeClassifier", "HoeffdingAdaptiveTreeRegressor");
}

CatalogueEntry efdt_row() {
  return learner_row<ExtremelyFastDecisionTree>(
      "Extremely Fast Decision Tree (Manapragada et al. 2018): splits once a split beats none, revisits splits",
      Tasks::kClassification, "tree", "ExtremelyFastDecisionTreeClassifier");
}

}  // namespace irithyll::catalogue_detail
