#include "irithyll/ensemble/sgbt_config.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/field_rows.hpp"
#include "core/nested_rows.hpp"
#include "irithyll/tunable.hpp"

namespace irithyll {

namespace {

using F = FieldType;
using SgbtConfigRow = ConfigField<SGBTConfig>;

Status set_drift(SGBTConfig& c, std::string_view v) {
  auto k = parse_drift_kind(v);
  if (!k) return k.status();
  c.drift.kind = *k;
  c.drift.delta = *k == DriftKind::kAdwin ? 0.002 : 0.005;  // each detector's default
  return Status::ok();
}

Status set_monotone(SGBTConfig& c, std::string_view v) {
  std::vector<std::int8_t> out;
  for (std::string_view item : split_list_items(v, ',')) {
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == "1" || item == "+1") out.push_back(1);
    else if (item == "0") out.push_back(0);
    else if (item == "-1") out.push_back(-1);
    else return Status::invalid_argument("monotone: '" + std::string(item) + "' is not -1, 0 or 1 (a list like 0,1,-1)");
  }
  c.tree.monotone = std::move(out);
  return Status::ok();
}

std::string get_monotone(const SGBTConfig& c) {
  std::string s;
  for (std::size_t i = 0; i < c.tree.monotone.size(); ++i) s += (i ? "," : "") + std::to_string(c.tree.monotone[i]);
  return s;
}

Status set_categorical(SGBTConfig& c, std::string_view v) {
  auto list = parse_index_list("categorical-features", v);
  if (!list) return list.status();
  c.tree.categorical = std::move(list).value();
  return Status::ok();
}

// The bounds here are the only copy: validate() checks every row against
// them, the CLI prints them in --help and `irithyll models` lists them.
const std::array kSgbtConfigFields = {
    SgbtConfigRow{FieldInfo::integer("n-steps", "50", "boosting steps (trees)").in(1, 10000),
        IRITHYLL_FIELD_UINT(SGBTConfig, n_steps)},
    SgbtConfigRow{FieldInfo::real("learning-rate", "0.1", "shrinkage per tree").in(0, 1, true),
        IRITHYLL_FIELD_REAL(SGBTConfig, learning_rate)},
    SgbtConfigRow{FieldInfo::real("feature-subsample", "0.75", "fraction of features scored per split attempt").in(0, 1, true),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.feature_subsample)},
    SgbtConfigRow{FieldInfo::integer("max-depth", "6", "maximum tree depth").in(1, 30),
        IRITHYLL_FIELD_UINT(SGBTConfig, tree.max_depth)},
    SgbtConfigRow{FieldInfo::integer("n-bins", "32", "histogram bins per feature").in(2, 65536),
        IRITHYLL_FIELD_UINT(SGBTConfig, tree.n_bins)},
    SgbtConfigRow{FieldInfo::real("lambda", "0.3", "L2 regularisation of leaf weights").at_least(0),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.lambda)},
    SgbtConfigRow{FieldInfo::real("gamma", "0", "minimum split gain").at_least(0),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.gamma)},
    SgbtConfigRow{FieldInfo::integer("grace-period", "50", "samples between split attempts").in(1, 1e9),
        IRITHYLL_FIELD_UINT(SGBTConfig, tree.grace_period)},
    SgbtConfigRow{FieldInfo::real("delta", "1e-07", "Hoeffding bound confidence").in(0, 1, true, true),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.delta)},
    SgbtConfigRow{FieldInfo::choice("drift", "adwin", "pht|adwin|ddm|none", "per-tree drift detector on |gradient| (squared/expectile loss: over the target sd)"),
        &set_drift, [](const SGBTConfig& c) { return std::string(drift_kind_name(c.drift.kind)); }},
    SgbtConfigRow{FieldInfo::real("drift-delta", "0.002", "Page-Hinkley delta / ADWIN confidence (ADWIN: below 1; set after --drift)").above(0),
        IRITHYLL_FIELD_REAL(SGBTConfig, drift.delta)},
    SgbtConfigRow{FieldInfo::real("drift-lambda", "50", "Page-Hinkley alarm threshold").above(0),
        IRITHYLL_FIELD_REAL(SGBTConfig, drift.lambda)},
    SgbtConfigRow{FieldInfo::choice("variant", "auto", "auto|standard|skip|mi", "auto (mi on classification, standard on regression) | standard | skip (SGBT-SK) | mi (multiple iterations), Gunasekara et al. 2024"),
        IRITHYLL_FIELD_ENUM(SGBTConfig, variant, parse_sgbt_variant, sgbt_variant_name)},
    SgbtConfigRow{FieldInfo::integer("skip-k", "10", "skip variant: skip a sample with probability 1/k").in(1, 1e6),
        IRITHYLL_FIELD_UINT(SGBTConfig, skip_k)},
    SgbtConfigRow{FieldInfo::real("mi-multiplier", "8", "mi variant (auto on classification): repetitions = max(1, ceil(|h| * m))").in(0, 1000, true),
        IRITHYLL_FIELD_REAL(SGBTConfig, mi_multiplier)},
    SgbtConfigRow{FieldInfo::integer("initial-target-count", "50", "targets averaged into the base prediction").in(1, 1e6),
        IRITHYLL_FIELD_UINT(SGBTConfig, initial_target_count)},
    SgbtConfigRow{FieldInfo::real("leaf-half-life", "0", "leaf statistics half-life in samples").in(1, 1e12).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, leaf_half_life)},
    SgbtConfigRow{FieldInfo::integer("max-tree-samples", "0", "replace a tree after this many samples").in(100, 1e15).or_off(),
        IRITHYLL_FIELD_UINT(SGBTConfig, max_tree_samples)},
    SgbtConfigRow{FieldInfo::choice("loss", "squared", "squared|huber|quantile|expectile", "regression loss (classification picks logistic/softmax)"),
        IRITHYLL_FIELD_ENUM(SGBTConfig, loss, parse_loss_kind, [](LossKind k) { return loss_traits(k).name; })},
    SgbtConfigRow{FieldInfo::real("loss-param", "0", "huber delta (> 0) or quantile/expectile tau in (0, 1); 0 = the loss's default").at_least(0),
        IRITHYLL_FIELD_REAL(SGBTConfig, loss_param)},
    SgbtConfigRow{FieldInfo::choice("bins", "uniform", "uniform|quantile|categorical|kmeans", "bin strategy: equal widths, quantiles, one bin per category code, or 1-D k-means over the grace period (bins narrow where values crowd)"),
        IRITHYLL_FIELD_ENUM(SGBTConfig, tree.bin_strategy, parse_bin_strategy, bin_strategy_name)},
    SgbtConfigRow{FieldInfo::real("hoeffding-r", "1", "range R in the Hoeffding bound").above(0),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.hoeffding_r)},
    SgbtConfigRow{FieldInfo::integer("min-samples-leaf", "0", "minimum samples each child of a split must hold (0 = off)").in(0, 1e9),
        IRITHYLL_FIELD_UINT(SGBTConfig, tree.min_samples_leaf)},
    SgbtConfigRow{FieldInfo::real("max-leaf-output", "0", "clamp every leaf value to [-m, m] (0 = off)").above(0).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.max_leaf_output)},
    SgbtConfigRow{FieldInfo::real("softmax-leaf-bound", "10", "3+ classes: clamp every leaf value of the softmax committees to [-b, b], where a vanishing hessian lets Newton steps grow without limit (0 = off; max-leaf-output, when smaller, wins)").above(0).or_off().absent_means("0"),
        IRITHYLL_FIELD_REAL(SGBTConfig, softmax_leaf_bound)},
    SgbtConfigRow{FieldInfo::real("min-hessian-sum", "0", "a leaf outputs 0 until its hessian sum reaches this (0 = off)").above(0).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.min_hessian_sum)},
    SgbtConfigRow{FieldInfo::real("gradient-clip-sigma", "0", "clamp each gradient to its leaf's mean +- k sd (Welford, after 10; 0 = off)").above(0).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.gradient_clip_sigma)},
    SgbtConfigRow{FieldInfo::real("adaptive-leaf-bound", "0", "clamp each leaf to +-max(|mean| + k sd, 0.01) of its past values, after 10 (0 = off; overrides max-leaf-output)").above(0).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.adaptive_leaf_bound)},
    SgbtConfigRow{FieldInfo::real("error-weight-alpha", "0", "weight samples by error: min(10, 1 + |y - base| / its EWMA(alpha)) (0 = off)").in(0, 1, true, true).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, error_weight_alpha)},
    SgbtConfigRow{FieldInfo::real("adaptive-mts", "0", "adaptive max-tree-samples k: limit = max-tree-samples / (1 + k sd/EWMA(sd)) of the trees' contributions (0 = off)").above(0).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, adaptive_mts_k)},
    SgbtConfigRow{FieldInfo::real("adaptive-mts-floor", "0", "adaptive max-tree-samples: the limit never falls below this fraction of max-tree-samples").in(0, 1),
        IRITHYLL_FIELD_REAL(SGBTConfig, adaptive_mts_floor)},
    SgbtConfigRow{FieldInfo::real("quality-prune-alpha", "0", "EWMA factor of each step's |lr * p|; replace a step whose EWMA stays below quality-prune-threshold (0 = off)").in(0, 1, true, true).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, quality_prune_alpha)},
    SgbtConfigRow{FieldInfo::real("quality-prune-threshold", "1e-06", "quality pruning: contribution EWMA below this counts as idle").above(0),
        IRITHYLL_FIELD_REAL(SGBTConfig, quality_prune_threshold)},
    SgbtConfigRow{FieldInfo::integer("quality-prune-patience", "500", "quality pruning: idle samples in a row before the step is replaced").in(1, 1e9),
        IRITHYLL_FIELD_UINT(SGBTConfig, quality_prune_patience)},
    SgbtConfigRow{FieldInfo::integer("proactive-prune-interval", "0", "every N samples replace the weakest mature step if below the 25th percentile (0 = off)").in(100, 1e15).or_off(),
        IRITHYLL_FIELD_UINT(SGBTConfig, proactive_prune_interval)},
    SgbtConfigRow{FieldInfo::real("prune-half-life", "0", "half-life in samples of each step's contribution EWMA that pruning compares; replaces quality-prune-alpha's rate and keeps the EWMAs even with both pruning rules off (0 = off)").in(kMinPruneHalfLife, kMaxPruneHalfLife).or_off().absent_means("0"),
        IRITHYLL_FIELD_REAL(SGBTConfig, prune_half_life)},
    SgbtConfigRow{FieldInfo::text("monotone", "", "per-feature monotone constraints, e.g. 0,1,-1 (+1 non-decreasing, -1 non-increasing; empty = none)"),
        &set_monotone, &get_monotone},
    SgbtConfigRow{FieldInfo::boolean("soft-routing", "off", "predict with soft splits: x goes left with weight sigmoid((threshold - x) / bandwidth), smooth in x (training routes hard)"),
        IRITHYLL_FIELD_BOOL(SGBTConfig, soft_routing)},
    SgbtConfigRow{FieldInfo::real("soft-bandwidth", "0", "soft routing bandwidth in feature units (0 = automatic per feature, from the split thresholds and the feature's spread)").above(0).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, soft_bandwidth)},
    SgbtConfigRow{FieldInfo::choice("soft-kernel", "sigmoid", "sigmoid|linear", "soft routing's weight: sigmoid of the distance to the threshold, or linear (sibling interpolation): within bandwidth b of threshold t the prediction blends the two siblings, (x - t + b) / 2b to the right, and routes hard farther away"),
        IRITHYLL_FIELD_ENUM(SGBTConfig, soft_kernel, parse_soft_kernel, soft_kernel_name)},
    SgbtConfigRow{FieldInfo::integer("handoff-window", "0", "on a replacement that promotes the alternate, blend the retired tree out linearly over this many samples (0 = abrupt swap)").in(0, 1e9),
        IRITHYLL_FIELD_UINT(SGBTConfig, handoff_window)},
    SgbtConfigRow{FieldInfo::choice("leaf-model", "constant", "constant|linear|adaptive|mlp", "leaf output: constant Newton weight | linear (weight + w.(x - mean), w by normalised LMS) | adaptive (constant until the linear model's running loss beats it by a Hoeffding margin) | mlp (weight + a one-hidden-layer ReLU network of the centred x, Newton-scaled SGD at linear-leaf-rate); only constant leaves can be packed-exported"),
        IRITHYLL_FIELD_ENUM(SGBTConfig, tree.leaf_model, parse_tree_leaf_model, tree_leaf_model_name)},
    SgbtConfigRow{FieldInfo::real("linear-leaf-rate", "0.1", "linear leaves: normalised LMS step (fraction of the way to each sample's Newton target)").in(0, 1, true),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.linear_learning_rate)},
    SgbtConfigRow{FieldInfo::integer("mlp-leaf-hidden", "8", "mlp leaves: hidden ReLU units of each leaf's network").in(1, 64),
        IRITHYLL_FIELD_UINT(SGBTConfig, tree.mlp_hidden)},
    SgbtConfigRow{FieldInfo::real("linear-leaf-decay", "1", "linear leaves: w is multiplied by this before each update, so old slopes fade (1 = off)").in(0, 1, true),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.linear_decay)},
    SgbtConfigRow{FieldInfo::choice("linear-leaf-optimizer", "nlms", "nlms|adagrad", "linear leaves: normalised LMS step, or AdaGrad's per-weight step at linear-leaf-rate"),
        [](SGBTConfig& c, std::string_view v) -> Status {
          if (v != "nlms" && v != "adagrad") return Status::invalid_argument("linear-leaf-optimizer: nlms|adagrad");
          c.tree.linear_adagrad = v == "adagrad";
          return Status::ok();
        },
        [](const SGBTConfig& c) { return std::string(c.tree.linear_adagrad ? "adagrad" : "nlms"); }},
    SgbtConfigRow{FieldInfo::boolean("interpolate", "off", "interpolated leaves: a leaf outputs a v + (1 - a) v_parent, a = H / (H + lambda), so a young leaf leans on its parent's value"),
        IRITHYLL_FIELD_BOOL(SGBTConfig, tree.interpolate)},
    SgbtConfigRow{FieldInfo::integer("split-reeval-interval", "0", "leaves at max depth keep histograms and every N samples re-score their parent's split, replacing it when another beats it by the Hoeffding bound (0 = off; rounded up to a multiple of grace-period)").in(1, 1e9).or_off(),
        IRITHYLL_FIELD_UINT(SGBTConfig, tree.split_reeval_interval)},
    SgbtConfigRow{FieldInfo::real("adaptive-depth", "0", "CIR gate factor c: trees may grow to 2 x max-depth but a split needs gain > c / (n x features) (0 = off; 7.5 / 9 / 11 for <= 10 / 50 / 200 features)").above(0).or_off(),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.adaptive_depth)},
    SgbtConfigRow{FieldInfo::text("categorical-features", "", "feature indices read as category codes 0..63 and split by category sets, e.g. 0,3 (other values count as missing and go right; the CLI fills it from --categorical and string columns)"),
        &set_categorical, [](const SGBTConfig& c) { return format_index_list(c.tree.categorical); }},
    SgbtConfigRow{FieldInfo::real("categorical-penalty", "1", "classification: a category-set split over K categories loses this many times (K - 2)/2 of its gain, what its sorted order gains on noise beyond a threshold's (0 = the plain gain; regression: 0)").in(0, 100).absent_means("0"),
        IRITHYLL_FIELD_REAL(SGBTConfig, tree.categorical_penalty)},
    SgbtConfigRow{FieldInfo::integer("threads", "1", "training threads: N >= 2 pipelines the boosting steps over min(N, n-steps) threads, same results (not stored in checkpoints)").in(1, 256),
        IRITHYLL_FIELD_UINT(SGBTConfig, threads)},
};


// The SGBT family's tables re-target these rows at their `base` member.
static_assert(kSgbtConfigFields.size() <= kMaxNestedRows, "nested_rows.hpp: raise kMaxNestedRows");

}  // namespace

std::span<const ConfigField<SGBTConfig>> sgbt_config_fields() { return kSgbtConfigFields; }

namespace {
using KV = std::pair<std::string_view, std::string_view>;
// Gunasekara et al.'s settings as the Rust library shipped them.
constexpr KV kOriginal[] = {
    {"n-steps", "100"},     {"learning-rate", "0.0125"}, {"n-bins", "64"},  {"lambda", "1"},
    {"grace-period", "200"}, {"drift", "pht"},           {"drift-delta", "0.005"}, {"drift-lambda", "50"},
    {"variant", "standard"}, {"mi-multiplier", "1"},    {"softmax-leaf-bound", "0"},
};
// The measured defaults, spelled out (so that `--preset default` documents them).
constexpr KV kDefault[] = {
    {"n-steps", "50"},      {"learning-rate", "0.1"}, {"n-bins", "32"},  {"lambda", "0.3"},
    {"grace-period", "50"}, {"drift", "adwin"},       {"drift-delta", "0.002"}, {"drift-lambda", "50"},
    {"variant", "auto"},    {"mi-multiplier", "8"},       {"softmax-leaf-bound", "10"},
};
constexpr SGBTPreset kPresets[] = {
    {"default", "the measured defaults (BENCHMARKS.md, SGBT defaults)", kDefault},
    {"original", "the Rust library's settings: 100 steps, lr 0.0125, grace 200, 64 bins, Page-Hinkley", kOriginal},
};
}  // namespace

std::span<const SGBTPreset> sgbt_presets() { return kPresets; }

Status apply_sgbt_preset(SGBTConfig& config, std::string_view name) {
  std::string known;
  for (const SGBTPreset& p : kPresets) {
    if (p.name == name) {
      ModelSettings s;
      for (const auto& [k, v] : p.values) s.set(std::string(k), std::string(v));
      return apply_settings<SGBTConfig>("sgbt", kSgbtConfigFields, s, config);
    }
    known += known.empty() ? "" : "|";
    known += p.name;
  }
  return Status::invalid_argument("sgbt: unknown preset '" + std::string(name) + "' (" + known + ")");
}

Status set_sgbt_config_field(SGBTConfig& config, std::string_view name, std::string_view value) {
  ModelSettings one;
  one.set(std::string(name), std::string(value));
  return apply_settings<SGBTConfig>("sgbt", kSgbtConfigFields, one, config);
}

Result<SGBTVariant> parse_sgbt_variant(std::string_view name) {
  if (name == "standard") return SGBTVariant::kStandard;
  if (name == "skip" || name == "sk") return SGBTVariant::kSkip;
  if (name == "mi" || name == "multiple-iterations") return SGBTVariant::kMultipleIterations;
  if (name == "auto") return SGBTVariant::kAuto;
  return Status::invalid_argument("unknown SGBT variant '" + std::string(name) + "' (auto|standard|skip|mi)");
}

std::string_view sgbt_variant_name(SGBTVariant v) {
  switch (v) {
    case SGBTVariant::kStandard: return "standard";
    case SGBTVariant::kSkip: return "skip";
    case SGBTVariant::kMultipleIterations: return "mi";
    case SGBTVariant::kAuto: return "auto";
  }
  return "?";
}

Status SGBTConfig::validate() const {
  // Every single-field bound lives in the table; what follows are the rules
  // that tie fields together or reach into components.
  IRITHYLL_RETURN_IF_ERROR(validate_fields<SGBTConfig>("sgbt", kSgbtConfigFields, *this));
  if (static_cast<unsigned>(variant) > 3) return Status::invalid_argument("sgbt: variant " + format_field_real(static_cast<double>(variant)) + " is unknown");
  IRITHYLL_RETURN_IF_ERROR(make_loss().validate().with_context("sgbt: loss-param"));
  if (adaptive_mts_k > 0.0 && max_tree_samples == 0)
    return Status::invalid_argument("sgbt: adaptive-mts needs max-tree-samples (its base)");
  if (soft_bandwidth > 0.0 && !soft_routing)
    return Status::invalid_argument("sgbt: soft-bandwidth needs soft-routing on");
  if (soft_kernel != SoftKernel::kSigmoid && !soft_routing)
    return Status::invalid_argument("sgbt: soft-kernel " + std::string(soft_kernel_name(soft_kernel)) + " needs --soft-routing on");
  if (drift.kind != DriftKind::kNone) {
    auto d = make_drift_detector(drift);
    if (!d) return d.status().with_context("sgbt: drift");
  }
  return tree_config(0).validate().with_context("sgbt");
}

GradientTreeConfig SGBTConfig::tree_config(std::uint32_t step) const {
  GradientTreeConfig t = tree;
  t.seed = seed ^ step;
  t.leaf_decay_alpha = leaf_half_life > 0.0 ? std::exp(-std::log(2.0) / leaf_half_life) : 0.0;
  // Without category features the penalty has nothing to act on; 0 keeps the
  // tree's record as it was before the penalty existed.
  if (t.categorical.empty()) t.categorical_penalty = 0.0;
  return t;
}

Loss SGBTConfig::make_loss() const {
  return loss_param == 0.0 ? Loss(loss) : Loss(loss, loss_param);
}

Status SGBTConfig::decode(ByteReader& in) {
  SGBTConfig c;
  c.softmax_leaf_bound = 0.0;  // the binary layout predates the bound
  c.n_steps = in.u32("n_steps");
  c.learning_rate = in.f64("learning_rate");
  c.tree.feature_subsample = in.f64("feature_subsample");
  c.tree.max_depth = in.u32("max_depth");
  c.tree.n_bins = in.u32("n_bins");
  c.tree.lambda = in.f64("lambda");
  c.tree.gamma = in.f64("gamma");
  c.tree.grace_period = in.u32("grace_period");
  c.tree.delta = in.f64("delta");
  const std::uint8_t dk = in.u8("drift kind");
  c.drift.delta = in.f64("drift delta");
  c.drift.lambda = in.f64("drift lambda");
  c.drift.warning_level = in.f64("drift warning level");
  c.drift.drift_level = in.f64("drift level");
  c.drift.min_instances = in.u32("drift min instances");
  const std::uint8_t var = in.u8("variant");
  c.skip_k = in.u32("skip_k");
  c.mi_multiplier = in.f64("mi_multiplier");
  c.seed = in.u64("seed");
  c.initial_target_count = in.u32("initial_target_count");
  c.leaf_half_life = in.f64("leaf_half_life");
  c.max_tree_samples = in.u64("max_tree_samples");
  const std::uint8_t lk = in.u8("loss");
  c.loss_param = in.f64("loss_param");
  const std::uint8_t bs = in.u8("bin strategy");
  c.tree.hoeffding_r = in.f64("hoeffding_r");
  c.tree.min_samples_leaf = in.u32("min_samples_leaf");
  if (in.ok() && (bs & 0x80) != 0) {
    const std::uint8_t v = in.u8("sgbt options version");
    if (in.ok() && (v < 1 || v > 3)) in.fail("unsupported sgbt options version " + std::to_string(v));
    c.tree.max_leaf_output = in.f64("max_leaf_output");
    c.tree.min_hessian_sum = in.f64("min_hessian_sum");
    c.tree.gradient_clip_sigma = in.f64("gradient_clip_sigma");
    c.tree.adaptive_leaf_bound = in.f64("adaptive_leaf_bound");
    const std::size_t n = in.read_count(1, "monotone constraints");
    if (in.ok()) {
      c.tree.monotone.resize(n);
      for (auto& m : c.tree.monotone) m = static_cast<std::int8_t>(static_cast<int>(in.u8("monotone")) - 1);
    }
    c.error_weight_alpha = in.f64("error_weight_alpha");
    c.adaptive_mts_k = in.f64("adaptive_mts_k");
    c.adaptive_mts_floor = in.f64("adaptive_mts_floor");
    c.quality_prune_alpha = in.f64("quality_prune_alpha");
    c.quality_prune_threshold = in.f64("quality_prune_threshold");
    c.quality_prune_patience = in.u32("quality_prune_patience");
    c.proactive_prune_interval = in.u64("proactive_prune_interval");
    if (in.ok() && v >= 2) {
      c.soft_routing = in.boolean("soft_routing");
      c.soft_bandwidth = in.f64("soft_bandwidth");
      c.handoff_window = in.u32("handoff_window");
      const std::uint8_t lm = in.u8("leaf_model");
      if (in.ok() && lm > 2) in.fail("leaf_model " + std::to_string(lm) + " is unknown");
      c.tree.leaf_model = static_cast<TreeLeafModel>(lm);
      c.tree.linear_learning_rate = in.f64("linear_learning_rate");
      c.tree.split_reeval_interval = in.u32("split_reeval_interval");
      c.tree.adaptive_depth = in.f64("adaptive_depth");
      const std::size_t k = in.read_count(4, "categorical features");
      for (std::size_t i = 0; i < k && in.ok(); ++i) c.tree.categorical.push_back(in.u32("categorical feature"));
    }
    if (in.ok() && v == 3) c.tree.categorical_penalty = in.f64("categorical_penalty");
    else if (!c.tree.categorical.empty()) c.tree.categorical_penalty = 0.0;
  }
  if (!in.ok()) return in.status();
  if (dk > 3 || var > 3 || lk > 5 || (bs & 0x7F) > 2) return Status::corruption("SGBT config: enum value out of range");
  c.drift.kind = static_cast<DriftKind>(dk);
  c.variant = static_cast<SGBTVariant>(var);
  c.loss = static_cast<LossKind>(lk);
  c.tree.bin_strategy = static_cast<BinStrategy>(bs & 0x7F);
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("SGBT config"));
  *this = c;
  return Status::ok();
}

}  // namespace irithyll
