// hoeffding_adaptive_tree and efdt under the learner contract (see
// irithyll/tree/adaptive_tree_learner.hpp).
#include "irithyll/tree/adaptive_tree_learner.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "ensemble/member_tree_rows.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {

AdaptiveTreeOptions HoeffdingAdaptiveTreeConfig::options() const {
  AdaptiveTreeOptions o;
  o.mode = AdaptiveTreeOptions::Mode::kHat;
  o.adwin_delta = adwin_delta;
  o.drift_window = drift_window;
  o.switch_significance = switch_significance;
  o.bootstrap = bootstrap;
  return o;
}

AdaptiveTreeOptions EfdtConfig::options() const {
  AdaptiveTreeOptions o;
  o.mode = AdaptiveTreeOptions::Mode::kEfdt;
  o.reevaluate_period = reevaluate_period;
  return o;
}

std::span<const ConfigField<HoeffdingAdaptiveTreeConfig>> HoeffdingAdaptiveTreeSpec::config_fields() {
  static const std::vector<ConfigField<Config>> rows = [] {
    using C = Config;
    using Row = ConfigField<C>;
    std::vector<Row> table = {
        Row{FieldInfo::real("adwin-delta", "0.002", "confidence of each node's ADWIN error detector").in(0, 1, true, true),
            IRITHYLL_FIELD_REAL(C, adwin_delta)},
        Row{FieldInfo::integer("drift-window", "300", "both error windows must be longer than this before a switch test").in(1, 1e9),
            IRITHYLL_FIELD_UINT(C, drift_window)},
        Row{FieldInfo::real("switch-significance", "0.05", "significance of the bound that switches in or drops an alternate subtree").in(0, 1, true, true),
            IRITHYLL_FIELD_REAL(C, switch_significance)},
        Row{FieldInfo::boolean("bootstrap", "on", "each leaf learns a sample with a Poisson(1) weight k (classification: k = 0 learns with weight 1, as MOA and River; regression: left out)"),
            IRITHYLL_FIELD_BOOL(C, bootstrap)},
    };
    ensemble_detail::append_member_tree_rows(table, "200", "1e-07", /*classification_only=*/false, "adaptive");
    ensemble_detail::append_nominal_rows(table, "4");  // kHatNominalPenalty
    return table;
  }();
  return rows;
}

std::span<const ConfigField<EfdtConfig>> EfdtSpec::config_fields() {
  static const std::vector<ConfigField<Config>> rows = [] {
    using C = Config;
    using Row = ConfigField<C>;
    std::vector<Row> table = {
        Row{FieldInfo::integer("reevaluate-period", "200", "node weight between re-evaluations of an internal node's split").in(1, 1e9),
            IRITHYLL_FIELD_UINT(C, reevaluate_period)},
    };
    ensemble_detail::append_member_tree_rows(table, "200", "1e-07", /*classification_only=*/true);
    return table;
  }();
  return rows;
}

template <class Spec>
AdaptiveTreeLearner<Spec>::AdaptiveTreeLearner() = default;

template <class Spec>
Status AdaptiveTreeLearner<Spec>::check(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(config.tree.validate().with_context(kName));
  const bool cls = context.task == Task::kClassification;
  if (!cls && !Spec::kRegression) return Status::invalid_argument(std::string(kName) + ": a classifier only");
  if (cls && (context.n_classes < 2 || context.n_classes > 65536))
    return Status::invalid_argument(std::string(kName) + ": classification needs 2..65536 classes, got " +
                                    std::to_string(context.n_classes));
  IRITHYLL_RETURN_IF_ERROR(ensemble_detail::check_member_leaf(kName, cls, config.tree.leaf_model));
  if (context.n_features > (1u << 20)) return Status::invalid_argument(std::string(kName) + ": too many features");
  return Status::ok();
}

template <class Spec>
Result<std::unique_ptr<AdaptiveTreeLearner<Spec>>> AdaptiveTreeLearner<Spec>::make(const Config& config,
                                                                                   const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check(config, context));
  auto out = std::make_unique<AdaptiveTreeLearner>();
  out->config_ = config;
  out->context_ = context;
  out->context_.n_targets = 1;
  if (out->context_.task != Task::kClassification) out->context_.n_classes = 0;
  if (out->context_.feature_names.size() != out->context_.n_features) out->context_.feature_names.clear();
  out->reset();
  return out;
}

template <class Spec>
void AdaptiveTreeLearner<Spec>::build() {
  tree_.emplace(config_.tree, config_.options(), context_.task, context_.n_classes, n_features_, context_.seed);
}

template <class Spec>
void AdaptiveTreeLearner<Spec>::reset() {
  n_features_ = context_.n_features;
  tree_.reset();
  if (n_features_ > 0) build();
  samples_seen_ = skipped_ = 0;
}

template <class Spec>
std::span<const double> AdaptiveTreeLearner<Spec>::fit(std::span<const double> x) const {
  if (x.size() == n_features_) return x;
  padded_.assign(n_features_, std::numeric_limits<double>::quiet_NaN());
  std::copy_n(x.begin(), std::min(x.size(), n_features_), padded_.begin());
  return padded_;
}

template <class Spec>
void AdaptiveTreeLearner<Spec>::learn_one(std::span<const double> x, double y, double weight) {
  if (!sample_admissible(x, y, weight, n_features_, context_.task, context_.n_classes)) {
    ++skipped_;
    return;
  }
  if (!tree_.has_value()) {
    n_features_ = x.size();
    build();
  }
  tree_->learn_one(x, y, weight);
  ++samples_seen_;
}

template <class Spec>
double AdaptiveTreeLearner<Spec>::predict_one(std::span<const double> x) const {
  if (!tree_.has_value()) return 0.0;
  return tree_->predict_one(fit(x));
}

template <class Spec>
void AdaptiveTreeLearner<Spec>::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != context_.n_classes) return;
  if (!tree_.has_value()) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(context_.n_classes));
    return;
  }
  tree_->predict_proba(fit(x), proba);
}

template <class Spec>
std::size_t AdaptiveTreeLearner<Spec>::memory_bytes() const {
  return sizeof(*this) + padded_.capacity() * sizeof(double) +
         (tree_.has_value() ? tree_->memory_bytes() - sizeof(AdaptiveVfdt) : 0);
}

namespace {
constexpr std::uint8_t kAdaptiveTreeLearnerFormatVersion = 2;
}  // namespace

// Layout: version u8 | config (by name) | context | n_features u64 |
// samples_seen u64 | skipped u64 | has_tree bool | tree (adaptive_vfdt_codec.cpp).
// Version 1 wrote the tree with its binary config and options; version 2
// writes its state alone (its settings are the learner's), so a new setting
// changes no layout.
template <class Spec>
void AdaptiveTreeLearner<Spec>::encode(ByteWriter& out) const {
  out.u8(kAdaptiveTreeLearnerFormatVersion);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(n_features_);
  out.u64(samples_seen_);
  out.u64(skipped_);
  out.boolean(tree_.has_value());
  if (tree_.has_value()) tree_->encode(out);
}

template <class Spec>
Status AdaptiveTreeLearner<Spec>::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kAdaptiveTreeLearnerFormatVersion)
    return Status::corruption(std::string(kName) + ": unknown record version " + std::to_string(version));
  AdaptiveTreeLearner t;
  // A record without the nominal-penalty or nominal-nb-prior setting was
  // written before hoeffding_adaptive_tree had them, when its nominal splits
  // took the plain merit and naive Bayes add-one estimates: it keeps those
  // (efdt, which has no rows for them, keeps them at 0 anyway).
  t.config_.tree.nominal_penalty = 0.0;
  t.config_.tree.nominal_nb_prior = 0.0;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, t.config_));
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, t.context_));
  const bool cls = t.context_.task == Task::kClassification;
  if (!cls && t.context_.n_classes != 0) return Status::corruption(std::string(kName) + ": a regressor with classes");
  IRITHYLL_RETURN_IF_ERROR(check(t.config_, t.context_));
  const std::uint64_t d = in.u64("n_features");
  t.samples_seen_ = in.u64("samples_seen");
  t.skipped_ = in.u64("skipped");
  const bool has_tree = in.boolean("has_tree");
  if (!in.ok()) return in.status();
  if (d > (1u << 20) || (t.context_.n_features != 0 && d != t.context_.n_features))
    return Status::corruption(std::string(kName) + ": feature count does not match the context");
  if (has_tree != (d > 0)) return Status::corruption(std::string(kName) + ": tree presence does not match n_features");
  t.n_features_ = d;
  if (has_tree) {
    AdaptiveVfdt tree;
    const AdaptiveTreeOptions want = t.config_.options();
    IRITHYLL_RETURN_IF_ERROR(version == 1 ? tree.decode_with_config(in) : tree.decode(in, t.config_.tree, want));
    const AdaptiveTreeOptions& got = tree.options();
    if (tree.task() != t.context_.task || tree.n_classes() != t.context_.n_classes || tree.n_features() != d ||
        got.mode != want.mode || got.adwin_delta != want.adwin_delta || got.drift_window != want.drift_window ||
        got.switch_significance != want.switch_significance || got.bootstrap != want.bootstrap ||
        got.reevaluate_period != want.reevaluate_period)
      return Status::corruption(std::string(kName) + ": tree does not match the learner's settings");
    t.tree_.emplace(std::move(tree));
  }
  *this = std::move(t);
  return Status::ok();
}

template class AdaptiveTreeLearner<HoeffdingAdaptiveTreeSpec>;
template class AdaptiveTreeLearner<EfdtSpec>;

}  // namespace irithyll
