// Catalogue rows of the baselines (irithyll/dummy/baselines.hpp).
#include "irithyll/dummy/baselines.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry no_change_row() {
  return learner_row<NoChangeLearner>("baseline: predicts the last label or target seen", Tasks::kBoth, "dummy",
                                      "NoChangeClassifier", "NoChangeRegressor");
}
CatalogueEntry majority_row() {
  return learner_row<MajorityLearner>("baseline: predicts the most frequent class so far", Tasks::kClassification,
                                      "dummy", "PriorClassifier");
}
CatalogueEntry mean_row() {
  return learner_row<MeanLearner>("baseline: predicts the mean target so far", Tasks::kRegression, "dummy", "",
                                  "StatisticRegressor");
}

}  // namespace irithyll::catalogue_detail
