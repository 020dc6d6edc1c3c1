// Catalogue rows of the naive Bayes classifiers (irithyll/bayes/naive_bayes.hpp).
#include "irithyll/bayes/naive_bayes.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry gaussian_nb_row() {
  return learner_row<GaussianNbLearner>("Gaussian naive Bayes", Tasks::kClassification, "naive_bayes", "GaussianNB");
}
CatalogueEntry multinomial_nb_row() {
  return learner_row<MultinomialNbLearner>("multinomial naive Bayes on counts (negative values read as 0)",
                                           Tasks::kClassification, "naive_bayes", "MultinomialNB");
}
CatalogueEntry bernoulli_nb_row() {
  return learner_row<BernoulliNbLearner>("Bernoulli naive Bayes on binarised features", Tasks::kClassification,
                                         "naive_bayes", "BernoulliNB");
}

}  // namespace irithyll::catalogue_detail
