#include "irithyll/tree/vfdt_config.hpp"

#include <array>
#include <string>

#include "core/field_rows.hpp"
#include "tree/tree_fields.hpp"

namespace irithyll {

namespace {

using VfdtConfigRow = ConfigField<HoeffdingTreeConfig>;

// The bounds here are the only copy: validate() checks every row against them.
const std::array kVfdtConfigFields = {
    VfdtConfigRow{FieldInfo::integer("grace-period", "200", "leaf weight between split attempts").in(1, 1e9),
        IRITHYLL_FIELD_UINT(HoeffdingTreeConfig, grace_period)},
    VfdtConfigRow{FieldInfo::real("delta", "1e-07", "split confidence of the Hoeffding bound").in(0, 1, true, true),
        IRITHYLL_FIELD_REAL(HoeffdingTreeConfig, delta)},
    VfdtConfigRow{FieldInfo::real("tie-threshold", "0.05", "split anyway once the bound is below this").in(0, 1),
        IRITHYLL_FIELD_REAL(HoeffdingTreeConfig, tie_threshold)},
    VfdtConfigRow{FieldInfo::choice("split-criterion", "info-gain", "info-gain|gini", "classification split merit"),
        IRITHYLL_FIELD_ENUM(HoeffdingTreeConfig, criterion, parse_split_criterion, split_criterion_name)},
    VfdtConfigRow{FieldInfo::choice("leaf-model", "adaptive", "mc|nb|nba|mean|linear|adaptive",
                          "leaf prediction: majority class, naive Bayes, adaptive NB (classification); mean or linear (regression); adaptive: per leaf, whichever of the two has erred less (nba for classification, mean or linear for regression)"),
        IRITHYLL_FIELD_ENUM(HoeffdingTreeConfig, leaf_model, parse_leaf_model, leaf_model_name)},
    VfdtConfigRow{nb_threshold_field(), IRITHYLL_FIELD_REAL(HoeffdingTreeConfig, nb_threshold)},
    VfdtConfigRow{FieldInfo::choice("numeric", "gaussian", "gaussian|histogram",
                          "numeric attribute estimator (regression always uses histograms)"),
        IRITHYLL_FIELD_ENUM(HoeffdingTreeConfig, numeric, parse_numeric_estimator, numeric_estimator_name)},
    VfdtConfigRow{FieldInfo::integer("n-split-points", "10", "Gaussian estimator: candidate thresholds per attribute").in(1, 1000),
        IRITHYLL_FIELD_UINT(HoeffdingTreeConfig, n_split_points)},
    VfdtConfigRow{FieldInfo::integer("n-bins", "32", "histogram estimator: bins per attribute (even)").in(2, 1024),
        IRITHYLL_FIELD_UINT(HoeffdingTreeConfig, n_bins)},
    VfdtConfigRow{FieldInfo::integer("max-depth", "0", "maximum tree depth").in(1, 60).or_off(),
        IRITHYLL_FIELD_UINT(HoeffdingTreeConfig, max_depth)},
    VfdtConfigRow{FieldInfo::real("min-branch-fraction", "0.01", "weight fraction two branches of a split must each hold").in(0, 0.5, false, true),
        IRITHYLL_FIELD_REAL(HoeffdingTreeConfig, min_branch_fraction)},
    VfdtConfigRow{linear_learning_rate_field(), IRITHYLL_FIELD_REAL(HoeffdingTreeConfig, learning_rate)},
    VfdtConfigRow{nominal_penalty_field("2"), IRITHYLL_FIELD_REAL(HoeffdingTreeConfig, nominal_penalty)},
    VfdtConfigRow{nominal_nb_prior_field("10"), IRITHYLL_FIELD_REAL(HoeffdingTreeConfig, nominal_nb_prior)},
    VfdtConfigRow{FieldInfo::text("categorical-features", "", "feature indices read as nominal attributes (codes 0..63; other values are missing), split multiway or one value against the rest, e.g. 0,3 (the CLI fills it from --categorical and string columns)"),
        &set_categorical_features,
        [](const HoeffdingTreeConfig& c) { return format_index_list(c.categorical); }},
};

}  // namespace

std::span<const ConfigField<HoeffdingTreeConfig>> hoeffding_tree_config_fields() { return kVfdtConfigFields; }

Status set_categorical_features(HoeffdingTreeConfig& c, std::string_view list) {
  auto items = parse_index_list("categorical-features", list);
  if (!items) return items.status();
  c.categorical = std::move(items).value();
  return Status::ok();
}

Result<SplitCriterion> parse_split_criterion(std::string_view name) {
  if (name == "info-gain" || name == "info_gain" || name == "entropy") return SplitCriterion::kInfoGain;
  if (name == "gini") return SplitCriterion::kGini;
  return Status::invalid_argument("unknown split criterion '" + std::string(name) + "' (info-gain|gini)");
}

std::string_view split_criterion_name(SplitCriterion c) {
  return c == SplitCriterion::kGini ? "gini" : c == SplitCriterion::kInfoGain ? "info-gain" : "?";
}

Result<LeafModel> parse_leaf_model(std::string_view name) {
  if (name == "mc" || name == "majority") return LeafModel::kMajority;
  if (name == "nb" || name == "naive-bayes") return LeafModel::kNaiveBayes;
  if (name == "nba" || name == "naive-bayes-adaptive") return LeafModel::kNaiveBayesAdaptive;
  if (name == "mean") return LeafModel::kMean;
  if (name == "linear") return LeafModel::kLinear;
  if (name == "adaptive") return LeafModel::kAdaptive;
  return Status::invalid_argument("unknown leaf model '" + std::string(name) + "' (mc|nb|nba|mean|linear|adaptive)");
}

std::string_view leaf_model_name(LeafModel m) {
  switch (m) {
    case LeafModel::kMajority: return "mc";
    case LeafModel::kNaiveBayes: return "nb";
    case LeafModel::kNaiveBayesAdaptive: return "nba";
    case LeafModel::kMean: return "mean";
    case LeafModel::kLinear: return "linear";
    case LeafModel::kAdaptive: return "adaptive";
  }
  return "?";
}

Result<NumericEstimator> parse_numeric_estimator(std::string_view name) {
  if (name == "gaussian") return NumericEstimator::kGaussian;
  if (name == "histogram") return NumericEstimator::kHistogram;
  return Status::invalid_argument("unknown numeric estimator '" + std::string(name) + "' (gaussian|histogram)");
}

std::string_view numeric_estimator_name(NumericEstimator e) {
  return e == NumericEstimator::kGaussian ? "gaussian" : e == NumericEstimator::kHistogram ? "histogram" : "?";
}

Status HoeffdingTreeConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<HoeffdingTreeConfig>("hoeffding_tree", kVfdtConfigFields, *this));
  if (static_cast<unsigned>(criterion) > 1 || static_cast<unsigned>(leaf_model) > 5 || static_cast<unsigned>(numeric) > 1)
    return Status::invalid_argument("hoeffding_tree: enum setting out of range");
  // The range-doubling histogram merges bins in pairs.
  if (n_bins % 2 != 0)
    return Status::invalid_argument("hoeffding_tree: n-bins = " + std::to_string(n_bins) + " must be even");
  return Status::ok();
}

Status HoeffdingTreeConfig::decode(ByteReader& in) {
  HoeffdingTreeConfig c;
  c.grace_period = in.u32("grace_period");
  c.delta = in.f64("delta");
  c.tie_threshold = in.f64("tie_threshold");
  std::uint8_t cr = in.u8("criterion");
  const std::uint8_t lm = in.u8("leaf_model"), nu = in.u8("numeric");
  c.n_split_points = in.u32("n_split_points");
  c.n_bins = in.u32("n_bins");
  c.max_depth = in.u32("max_depth");
  c.min_branch_fraction = in.f64("min_branch_fraction");
  c.learning_rate = in.f64("learning_rate");
  c.count_observations = (cr & 0x40) != 0;
  c.binary_nominal = (cr & 0x20) != 0;
  if (in.ok() && (cr & 0x80) != 0) {
    const std::size_t k = in.read_count(4, "nominal attributes");
    if (in.ok() && k == 0) in.fail("nominal attribute flag with an empty list");
    for (std::size_t i = 0; i < k && in.ok(); ++i) c.categorical.push_back(in.u32("nominal attribute"));
  }
  c.nominal_penalty = (cr & 0x10) != 0 && in.ok() ? in.f64("nominal_penalty") : 0.0;
  if (in.ok() && (cr & 0x10) != 0 && c.nominal_penalty == 0.0) in.fail("nominal penalty flag with a zero penalty");
  c.nominal_nb_prior = (cr & 0x08) != 0 && in.ok() ? in.f64("nominal_nb_prior") : 0.0;
  if (in.ok() && (cr & 0x08) != 0 && c.nominal_nb_prior == 0.0) in.fail("nominal naive Bayes prior flag with a zero prior");
  cr &= 0x07;
  if (!in.ok()) return in.status();
  if (cr > 1 || lm > 5 || nu > 1) return Status::corruption("hoeffding tree config: enum value out of range");
  c.criterion = static_cast<SplitCriterion>(cr);
  c.leaf_model = static_cast<LeafModel>(lm);
  c.numeric = static_cast<NumericEstimator>(nu);
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("hoeffding tree config"));
  *this = c;
  return Status::ok();
}

}  // namespace irithyll
