// The catalogue table: one row per learner kind, sorted by name. Each row
// lives with its model family in src/catalogue/*_row.cpp.
#include "irithyll/catalogue.hpp"

#include <vector>
#include <cmath>

#include "rows.hpp"

namespace irithyll {

namespace {

const std::vector<CatalogueEntry>& table() {
  using namespace catalogue_detail;
  static const std::vector<CatalogueEntry> rows = {
      adaptive_sgbt_row(), alma_row(), arf_row(), attention_row(), auto_row(), bagged_sgbt_row(), bernoulli_nb_row(),
      conformal_row(), distributional_sgbt_row(), efdt_row(), esn_row(), gaussian_nb_row(), hoeffding_adaptive_tree_row(), hoeffding_tree_row(), kan_row(), knn_row(),
      krls_row(), leveraging_bagging_row(), linear_regression_row(), logistic_regression_row(), loglinear_row(), lstm_row(),
      majority_row(), mamba_row(), mean_row(), mgrade_row(), moe_distributional_sgbt_row(), moe_sgbt_row(),
      mondrian_forest_row(),
      multi_target_sgbt_row(), multinomial_nb_row(), ngrc_row(), no_change_row(), passive_aggressive_row(),
      perceptron_row(), pipeline_row(), quantile_sgbt_row(), rls_row(), sgbt_row(), sgt_row(), slstm_row(),
      softmax_regression_row(), spikenet_row(), srp_row(), stacked_row(), ttt_row(),
  };
  return rows;
}



}  // namespace

std::span<const CatalogueEntry> catalogue() { return table(); }

const CatalogueEntry* find_model(std::string_view name) {
  for (const auto& e : table())
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::unique_ptr<Learner>> make_learner(std::string_view name, const ModelSettings& settings,
                                              const LearnerContext& context) {
  const CatalogueEntry* e = find_model(name);
  if (e == nullptr || !e->listed) {
    std::string names;
    for (const auto& row : table())
      if (row.listed) names += (names.empty() ? "" : ", ") + std::string(row.name);
    return Status::invalid_argument("unknown model '" + std::string(name) + "' (models: " + names + ")");
  }
  if (!e->supports(context.task))
    return Status::invalid_argument(std::string(name) + ": does not support " +
                                    (context.task == Task::kClassification ? "classification" : "regression"));
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument(std::string(name) + ": classification needs at least 2 classes, got " +
                                    std::to_string(context.n_classes));
  if (context.n_targets == 0) return Status::invalid_argument(std::string(name) + ": n_targets must be >= 1");
  if (context.n_targets > 1 && context.task != Task::kRegression)
    return Status::invalid_argument(std::string(name) + ": several targets are for regression only");
  auto made = e->make(settings, context);
  if (made && (*made)->n_outputs() != context.n_targets)
    return Status::invalid_argument(std::string(name) + ": predicts " + std::to_string((*made)->n_outputs()) +
                                    " target(s), but " + std::to_string(context.n_targets) +
                                    " were given (multi_target_sgbt learns several)");
  return made;
}

std::string catalogue_json() {
  std::string out = "{\"models\":[";
  bool first_model = true;
  for (const auto& e : table()) {
    if (!e.listed) continue;
    if (!first_model) out += ',';
    first_model = false;
    out += "{\"name\":";
    append_json_string(out, e.name);
    out += ",\"description\":";
    append_json_string(out, e.description);
    out += ",\"tasks\":[";
    if (e.regression) out += "\"regression\"";
    if (e.classification) out += e.regression ? ",\"classification\"" : "\"classification\"";
    out += "],";
    append_parameters_json(out, e.fields());
    out += "}";
  }
  out += "]}";
  return out;
}

std::unique_ptr<Learner> make_blank_learner(std::string_view name) {
  const CatalogueEntry* e = find_model(name);
  return e == nullptr ? nullptr : e->make_blank();
}

}  // namespace irithyll
