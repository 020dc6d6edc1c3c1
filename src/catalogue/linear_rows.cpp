// Catalogue rows of the linear models (irithyll/linear/*.hpp).
#include "irithyll/linear/krls.hpp"
#include "irithyll/linear/margin_linear.hpp"
#include "irithyll/linear/rls_learner.hpp"
#include "irithyll/linear/sgd_linear.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry linear_regression_row() {
  return learner_row<LinearRegressionLearner>("linear regression by SGD/Adam/AdaGrad on standardised features",
                                              Tasks::kRegression, "linear_model", "", "LinearRegression");
}
CatalogueEntry logistic_regression_row() {
  return learner_row<LogisticRegressionLearner>(
      "logistic regression by SGD/Adam/AdaGrad (one-vs-rest above two classes)", Tasks::kClassification,
      "linear_model", "LogisticRegression");
}
CatalogueEntry softmax_regression_row() {
  return learner_row<SoftmaxRegressionLearner>("multinomial logistic (softmax) regression by SGD/Adam/AdaGrad",
                                               Tasks::kClassification, "linear_model", "SoftmaxRegression");
}
CatalogueEntry passive_aggressive_row() {
  return learner_row<PassiveAggressiveLearner>("passive-aggressive PA, PA-I, PA-II (Crammer et al. 2006)",
                                               Tasks::kBoth, "linear_model", "PAClassifier", "PARegressor");
}
CatalogueEntry perceptron_row() {
  return learner_row<PerceptronLearner>("perceptron (one-vs-rest above two classes)", Tasks::kClassification,
                                        "linear_model", "Perceptron");
}
CatalogueEntry alma_row() {
  return learner_row<AlmaLearner>("ALMA approximate maximal-margin classifier (Gentile 2001)",
                                  Tasks::kClassification, "linear_model", "ALMAClassifier");
}
CatalogueEntry rls_row() {
  return learner_row<RlsLearner>("recursive least squares with forgetting", Tasks::kRegression, "linear_model", "",
                                 "RLSRegressor");
}
CatalogueEntry krls_row() {
  return learner_row<KrlsLearner>("kernel RLS with an ALD dictionary and a budget (Engel et al. 2004)",
                                  Tasks::kRegression, "linear_model", "", "KRLSRegressor");
}

}  // namespace irithyll::catalogue_detail
