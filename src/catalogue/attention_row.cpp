// Catalogue rows "attention" (multi-head streaming linear attention, 12 modes,
// RLS readout) and "loglinear" (log-linear attention trained online by SGD,
// RLS readout).
#include "irithyll/nn/attention/attention_learner.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry attention_row() {
  return learner_row<nn::AttentionLearner>(
      "streaming linear attention (12 modes incl. log-linear) with an RLS readout", Tasks::kBoth);
}

CatalogueEntry loglinear_row() {
  return learner_row<nn::LogLinearLearner>(
      "log-linear attention trained online (SGD on Q/K/V/lambda) with an RLS readout", Tasks::kBoth);
}

}  // namespace irithyll::catalogue_detail
