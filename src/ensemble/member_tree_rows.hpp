// The member-tree rows shared by the tree ensembles under the learner
// contract (srp, leveraging_bagging) and hoeffding_adaptive_tree: the same
// names and bounds as hoeffding_tree's table, for a Config whose member
// `tree` is a HoeffdingTreeConfig. The defaults are passed in, as each model
// documents its own (MOA's SRP and LevBag members use grace 50 and
// confidence 0.01; HAT uses the tree's 200 and 1e-7); they must print what
// the struct's defaults hold (the catalogue tests check both ends).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/field_rows.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/tree/vfdt_config.hpp"
#include "tree/tree_fields.hpp"

namespace irithyll::ensemble_detail {

// The leaf-model row's wording; `classification_only`: the model has no
// regression task, so the row lists only the classification leaves.
inline FieldInfo member_leaf_model_field(std::string_view leaf_default, bool classification_only) {
  if (classification_only)
    return FieldInfo::choice("leaf-model", leaf_default, "mc|nb|nba|adaptive",
                             "leaf prediction (adaptive is nba for classification)");
  return FieldInfo::choice("leaf-model", leaf_default, "mc|nb|nba|mean|linear|adaptive",
                           "leaf prediction (regression: mean|linear|adaptive, nba reads as mean; adaptive is nba for "
                           "classification and, for regression, per leaf the mean or a linear model on all features, "
                           "whichever has erred less; TreeSHAP and packed export need mean)");
}

template <class C>
void append_member_tree_rows(std::vector<ConfigField<C>>& rows, std::string_view grace_default,
                             std::string_view delta_default, bool classification_only = false,
                             std::string_view leaf_default = "nba") {
  using Row = ConfigField<C>;
  rows.push_back(Row{FieldInfo::integer("grace-period", grace_default, "leaf weight between split attempts").in(1, 1e9),
                     IRITHYLL_FIELD_UINT(C, tree.grace_period)});
  rows.push_back(Row{FieldInfo::real("delta", delta_default, "split confidence of the Hoeffding bound").in(0, 1, true, true),
                     IRITHYLL_FIELD_REAL(C, tree.delta)});
  rows.push_back(Row{FieldInfo::real("tie-threshold", "0.05", "split anyway once the bound is below this").in(0, 1),
                     IRITHYLL_FIELD_REAL(C, tree.tie_threshold)});
  rows.push_back(Row{FieldInfo::choice("split-criterion", "info-gain", "info-gain|gini", "classification split merit"),
                     IRITHYLL_FIELD_ENUM(C, tree.criterion, parse_split_criterion, split_criterion_name)});
  rows.push_back(Row{member_leaf_model_field(leaf_default, classification_only),
                     IRITHYLL_FIELD_ENUM(C, tree.leaf_model, parse_leaf_model, leaf_model_name)});
  rows.push_back(Row{nb_threshold_field(), IRITHYLL_FIELD_REAL(C, tree.nb_threshold)});
  rows.push_back(Row{FieldInfo::choice("numeric", "gaussian", "gaussian|histogram", "numeric attribute estimator (regression: histogram)"),
                     IRITHYLL_FIELD_ENUM(C, tree.numeric, parse_numeric_estimator, numeric_estimator_name)});
  rows.push_back(Row{FieldInfo::integer("n-split-points", "10", "Gaussian estimator: candidate thresholds per attribute").in(1, 1000),
                     IRITHYLL_FIELD_UINT(C, tree.n_split_points)});
  rows.push_back(Row{FieldInfo::integer("n-bins", "32", "histogram estimator: bins per attribute (even)").in(2, 1024),
                     IRITHYLL_FIELD_UINT(C, tree.n_bins)});
  rows.push_back(Row{FieldInfo::integer("max-depth", "0", "maximum tree depth").in(1, 60).or_off(),
                     IRITHYLL_FIELD_UINT(C, tree.max_depth)});
  rows.push_back(Row{linear_learning_rate_field(), IRITHYLL_FIELD_REAL(C, tree.learning_rate)});
  rows.push_back(Row{FieldInfo::text("categorical-features", "",
                                     "feature indices read as nominal attributes, e.g. 0,3 (the CLI fills it from "
                                     "--categorical and string columns)"),
                     [](C& c, std::string_view v) { return set_categorical_features(c.tree, v); },
                     [](const C& c) { return format_index_list(c.tree.categorical); }});
}

// hoeffding_tree's nominal-penalty and nominal-nb-prior rows (same names
// and bounds; the penalty's default is the model's: its config's value,
// written as the table shows it), for a model whose tree takes them.
template <class C>
void append_nominal_rows(std::vector<ConfigField<C>>& rows, const char* penalty_default) {
  using Row = ConfigField<C>;
  rows.push_back(Row{nominal_penalty_field(penalty_default), IRITHYLL_FIELD_REAL(C, tree.nominal_penalty)});
  rows.push_back(Row{nominal_nb_prior_field("10"), IRITHYLL_FIELD_REAL(C, tree.nominal_nb_prior)});
}

// The classification leaf models a member tree accepts (regression: any).
// Each member's root leaf keeps statistics per class and feature before the
// first sample: an ensemble whose roots would hold more than 2^22
// class-feature cells in all is refused, so that a setting or a checkpoint
// cannot ask for gigabytes up front (10 members over 1000 features and 100
// classes are 2^20).
inline Status check_member_roots(std::string_view model, std::size_t classes, std::size_t features,
                                 std::size_t members) {
  constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 22;
  const std::uint64_t cells = std::uint64_t{std::max<std::size_t>(classes, 1)} * std::max<std::size_t>(features, 1);
  if (members > 0 && cells > kMaxCells / members)
    return Status::invalid_argument(std::string(model) + ": " + std::to_string(members) + " members x " +
                                    std::to_string(classes) + " classes x " + std::to_string(features) +
                                    " features is more than the 2^22 root statistics allowed");
  return Status::ok();
}

inline Status check_member_leaf(std::string_view model, bool classification, LeafModel leaf) {
  if (classification && (leaf == LeafModel::kMean || leaf == LeafModel::kLinear))
    return Status::invalid_argument(std::string(model) + ": leaf-model " + std::string(leaf_model_name(leaf)) +
                                    " is for regression (classification: mc|nb|nba|adaptive)");
  return Status::ok();
}

}  // namespace irithyll::ensemble_detail
