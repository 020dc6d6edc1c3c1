// Catalogue row of the aggregated Mondrian forest (irithyll/mondrian/amf.hpp).
#include "irithyll/mondrian/amf.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry mondrian_forest_row() {
  return learner_row<MondrianForestLearner>(
      "aggregated Mondrian forest: online Mondrian trees averaged over their prunings (Mourtada et al. 2021)",
      Tasks::kBoth, "forest", "AMFClassifier", "AMFRegressor");
}

}  // namespace irithyll::catalogue_detail
