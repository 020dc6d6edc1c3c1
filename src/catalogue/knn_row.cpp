// Catalogue row of k nearest neighbours (irithyll/neighbors/knn.hpp).
#include "irithyll/neighbors/knn.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry knn_row() {
  return learner_row<KnnLearner>("k nearest neighbours over a sliding window (standardised Minkowski distance)",
                                 Tasks::kBoth, "neighbors", "KNNClassifier", "KNNRegressor");
}

}  // namespace irithyll::catalogue_detail
