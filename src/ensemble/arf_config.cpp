#include "irithyll/ensemble/arf_config.hpp"

#include <array>
#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "ensemble/member_tree_rows.hpp"
#include "tree/tree_fields.hpp"

namespace irithyll {

namespace {

using ArfConfigRow = ConfigField<ARFConfig>;

// The forest's own settings, then its member trees' (same names and bounds
// as hoeffding_tree's table, ARF's defaults).
const std::array kArfConfigFields = {
    ArfConfigRow{FieldInfo::integer("n-trees", "10", "trees in the forest").in(1, 1000), IRITHYLL_FIELD_UINT(ARFConfig, n_trees)},
    ArfConfigRow{FieldInfo::real("lambda", "6", "Poisson rate of each tree's sample weight (online bagging)").in(0, 30, true),
        IRITHYLL_FIELD_REAL(ARFConfig, lambda)},
    ArfConfigRow{FieldInfo::integer("max-features", "0", "attributes per leaf (0 = round(sqrt(d)) + 1)").in(1, 1e6).or_off(),
        IRITHYLL_FIELD_UINT(ARFConfig, max_features)},
    ArfConfigRow{FieldInfo::real("warning-delta", "0.01", "ADWIN confidence of the warning that starts a background tree").in(0, 1, true, true).or_off(),
        IRITHYLL_FIELD_REAL(ARFConfig, warning_delta)},
    ArfConfigRow{FieldInfo::real("drift-delta", "0.001", "ADWIN confidence of the drift that replaces a tree").in(0, 1, true, true).or_off(),
        IRITHYLL_FIELD_REAL(ARFConfig, drift_delta)},
    ArfConfigRow{FieldInfo::choice("vote", "weighted", "weighted|majority", "classification vote: accuracy-weighted or one vote per tree"),
        IRITHYLL_FIELD_ENUM(ARFConfig, vote, parse_arf_vote, arf_vote_name)},
    ArfConfigRow{FieldInfo::integer("grace-period", "50", "leaf weight between split attempts").in(1, 1e9),
        IRITHYLL_FIELD_UINT(ARFConfig, tree.grace_period)},
    ArfConfigRow{FieldInfo::real("delta", "0.01", "split confidence of the Hoeffding bound").in(0, 1, true, true),
        IRITHYLL_FIELD_REAL(ARFConfig, tree.delta)},
    ArfConfigRow{FieldInfo::real("tie-threshold", "0.05", "split anyway once the bound is below this").in(0, 1),
        IRITHYLL_FIELD_REAL(ARFConfig, tree.tie_threshold)},
    ArfConfigRow{FieldInfo::choice("split-criterion", "info-gain", "info-gain|gini", "classification split merit"),
        IRITHYLL_FIELD_ENUM(ARFConfig, tree.criterion, parse_split_criterion, split_criterion_name)},
    ArfConfigRow{ensemble_detail::member_leaf_model_field("adaptive", false),
        IRITHYLL_FIELD_ENUM(ARFConfig, tree.leaf_model, parse_leaf_model, leaf_model_name)},
    ArfConfigRow{nb_threshold_field(), IRITHYLL_FIELD_REAL(ARFConfig, tree.nb_threshold)},
    ArfConfigRow{FieldInfo::choice("numeric", "gaussian", "gaussian|histogram", "numeric attribute estimator (regression: histogram)"),
        IRITHYLL_FIELD_ENUM(ARFConfig, tree.numeric, parse_numeric_estimator, numeric_estimator_name)},
    ArfConfigRow{FieldInfo::integer("n-split-points", "10", "Gaussian estimator: candidate thresholds per attribute").in(1, 1000),
        IRITHYLL_FIELD_UINT(ARFConfig, tree.n_split_points)},
    ArfConfigRow{FieldInfo::integer("n-bins", "32", "histogram estimator: bins per attribute (even)").in(2, 1024),
        IRITHYLL_FIELD_UINT(ARFConfig, tree.n_bins)},
    ArfConfigRow{FieldInfo::integer("max-depth", "0", "maximum tree depth").in(1, 60).or_off(),
        IRITHYLL_FIELD_UINT(ARFConfig, tree.max_depth)},
    ArfConfigRow{linear_learning_rate_field(), IRITHYLL_FIELD_REAL(ARFConfig, tree.learning_rate)},
    ArfConfigRow{nominal_nb_prior_field("10").absent_means("0"), IRITHYLL_FIELD_REAL(ARFConfig, tree.nominal_nb_prior)},
    ArfConfigRow{FieldInfo::text("categorical-features", "", "feature indices read as nominal attributes by every member tree (as hoeffding_tree's), e.g. 0,3 (the CLI fills it from --categorical and string columns)"),
        [](ARFConfig& c, std::string_view v) { return set_categorical_features(c.tree, v); },
        [](const ARFConfig& c) { return format_index_list(c.tree.categorical); }},
    // Last row: checkpoints write every row but this one (arf_codec.cpp).
    ArfConfigRow{FieldInfo::integer("threads", "1", "training threads: members split into that many groups, same results (not stored in checkpoints)").in(1, 256),
        IRITHYLL_FIELD_UINT(ARFConfig, threads)},
};

}  // namespace

std::span<const ConfigField<ARFConfig>> arf_config_fields() { return kArfConfigFields; }

Result<ARFVote> parse_arf_vote(std::string_view name) {
  if (name == "weighted") return ARFVote::kWeighted;
  if (name == "majority") return ARFVote::kMajority;
  return Status::invalid_argument("unknown ARF vote '" + std::string(name) + "' (weighted|majority)");
}

std::string_view arf_vote_name(ARFVote v) { return v == ARFVote::kMajority ? "majority" : v == ARFVote::kWeighted ? "weighted" : "?"; }

std::size_t ARFConfig::subspace(std::size_t d) const {
  // Gomes et al.'s m = sqrt(M) + 1, with sqrt(M) rounded to nearest as in
  // the authors' MOA code (d = 8 gives 4, d = 3 gives 3).
  const std::size_t m = max_features > 0 ? max_features
                                         : static_cast<std::size_t>(std::lround(std::sqrt(static_cast<double>(d)))) + 1;
  return std::max<std::size_t>(1, std::min(m, d));
}

Status ARFConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<ARFConfig>("arf", kArfConfigFields, *this));
  if (static_cast<unsigned>(vote) > 1) return Status::invalid_argument("arf: vote out of range");
  return tree.validate().with_context("arf");
}

Status ARFConfig::decode(ByteReader& in) {
  ARFConfig c;
  c.n_trees = in.u32("n_trees");
  c.lambda = in.f64("lambda");
  c.max_features = in.u32("max_features");
  c.warning_delta = in.f64("warning_delta");
  c.drift_delta = in.f64("drift_delta");
  const std::uint8_t vote = in.u8("vote");
  if (!in.ok()) return in.status();
  if (vote > 1) return Status::corruption("arf config: vote out of range");
  c.vote = static_cast<ARFVote>(vote);
  IRITHYLL_RETURN_IF_ERROR(c.tree.decode(in));
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("arf config"));
  *this = c;
  return Status::ok();
}

}  // namespace irithyll
