// Catalogue rows of the tree ensembles written against the learner
// contract: Streaming Random Patches (irithyll/ensemble/srp.hpp).
#include "irithyll/ensemble/srp.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry srp_row() {
  return learner_row<StreamingRandomPatches>(
      "Streaming Random Patches (Gomes et al. 2019): Hoeffding trees on fixed random feature subsets with online "
      "bagging and ADWIN background/replacement",
      Tasks::kBoth, "ensemble", "SRPClassifier", "SRPRegressor");
}

}  // namespace irithyll::catalogue_detail
