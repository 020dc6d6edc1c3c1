// Catalogue rows of the tree ensembles written against the learner
// contract: Streaming Random Patches (irithyll/ensemble/srp.hpp) and
// Leveraging Bagging (irithyll/ensemble/leveraging_bagging.hpp).
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/srp.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry srp_row() {
  return learner_row<StreamingRandomPatches>(
      "Streaming Random Patches (Gomes et al. 2019): Hoeffding trees on fixed random feature subsets with online "
      "bagging and ADWIN background/replacement",
      Tasks::kBoth, "ensemble", "SRPClassifier", "SRPRegressor");
}

CatalogueEntry leveraging_bagging_row() {
  return learner_row<LeveragingBagging>(
      "Leveraging Bagging (Bifet et al. 2010): Hoeffding trees with Poisson(6) online bagging, ADWIN resets the "
      "worst member",
      Tasks::kClassification, "ensemble", "LeveragingBaggingClassifier");
}

}  // namespace irithyll::catalogue_detail
