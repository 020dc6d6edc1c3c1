#include "irithyll/ensemble/sgbt_config.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace irithyll {

namespace {

Status parse_f64(std::string_view field, std::string_view s, double& out) {
  double v = 0.0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size())
    return Status::invalid_argument(std::string(field) + ": not a number: '" + std::string(s) + "'");
  out = v;
  return Status::ok();
}

template <class U>
Status parse_uint(std::string_view field, std::string_view s, U& out) {
  std::uint64_t v = 0;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || s.empty() || v > static_cast<std::uint64_t>(U(~U{0})))
    return Status::invalid_argument(std::string(field) + ": not a non-negative integer: '" + std::string(s) + "'");
  out = static_cast<U>(v);
  return Status::ok();
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

#define F64_FIELD(NAME, MEMBER, DEFAULT, HELP)                                                          \
  SGBTConfigField {                                                                                     \
    NAME, HELP, DEFAULT, [](SGBTConfig& c, std::string_view v) { return parse_f64(NAME, v, c.MEMBER); }, \
        [](const SGBTConfig& c) { return fmt(c.MEMBER); }                                               \
  }
#define UINT_FIELD(NAME, MEMBER, DEFAULT, HELP)                                                          \
  SGBTConfigField {                                                                                      \
    NAME, HELP, DEFAULT, [](SGBTConfig& c, std::string_view v) { return parse_uint(NAME, v, c.MEMBER); }, \
        [](const SGBTConfig& c) { return std::to_string(c.MEMBER); }                                     \
  }

const std::array kFields = {
    UINT_FIELD("n-steps", n_steps, "100", "boosting steps (trees)"),
    F64_FIELD("learning-rate", learning_rate, "0.0125", "shrinkage per tree, (0, 1]"),
    F64_FIELD("feature-subsample", feature_subsample, "0.75", "fraction of features scored per split, (0, 1]"),
    UINT_FIELD("max-depth", max_depth, "6", "maximum tree depth, [1, 30]"),
    UINT_FIELD("n-bins", n_bins, "64", "histogram bins per feature, >= 2"),
    F64_FIELD("lambda", lambda, "1", "L2 regularisation of leaf weights, >= 0"),
    F64_FIELD("gamma", gamma, "0", "minimum split gain, >= 0"),
    UINT_FIELD("grace-period", grace_period, "200", "samples between split attempts, >= 1"),
    F64_FIELD("delta", delta, "1e-07", "Hoeffding bound confidence, (0, 1)"),
    SGBTConfigField{"drift", "per-tree drift detector on |gradient| (squared/expectile loss: over the target sd): pht|adwin|ddm|none", "pht",
                    [](SGBTConfig& c, std::string_view v) -> Status {
                      auto k = parse_drift_kind(v);
                      if (!k) return k.status();
                      c.drift.kind = *k;
                      c.drift.delta = *k == DriftKind::kAdwin ? 0.002 : 0.005;  // each detector's default
                      return Status::ok();
                    },
                    [](const SGBTConfig& c) { return std::string(drift_kind_name(c.drift.kind)); }},
    F64_FIELD("drift-delta", drift.delta, "0.005", "Page-Hinkley delta / ADWIN confidence (set after --drift)"),
    F64_FIELD("drift-lambda", drift.lambda, "50", "Page-Hinkley alarm threshold"),
    SGBTConfigField{"variant", "standard|skip|mi (Gunasekara et al. 2024)", "standard",
                    [](SGBTConfig& c, std::string_view v) -> Status {
                      auto k = parse_sgbt_variant(v);
                      if (!k) return k.status();
                      c.variant = *k;
                      return Status::ok();
                    },
                    [](const SGBTConfig& c) { return std::string(sgbt_variant_name(c.variant)); }},
    UINT_FIELD("skip-k", skip_k, "10", "skip variant: skip a sample with probability 1/k"),
    F64_FIELD("mi-multiplier", mi_multiplier, "1", "mi variant: repetitions = max(1, ceil(|h| * m))"),
    UINT_FIELD("seed", seed, "0xDEADBEEFCAFE4242", "random seed (decimal or 0x hex)"),
    UINT_FIELD("initial-target-count", initial_target_count, "50", "targets used for the base prediction"),
    F64_FIELD("leaf-half-life", leaf_half_life, "0", "leaf statistics half-life in samples (0 = off, else >= 1)"),
    UINT_FIELD("max-tree-samples", max_tree_samples, "0", "replace a tree after this many samples (0 = off)"),
    SGBTConfigField{"loss", "regression loss: squared|huber|quantile|expectile", "squared",
                    [](SGBTConfig& c, std::string_view v) -> Status {
                      auto k = parse_loss_kind(v);
                      if (!k) return k.status();
                      c.loss = *k;
                      return Status::ok();
                    },
                    [](const SGBTConfig& c) { return std::string(loss_traits(c.loss).name); }},
    F64_FIELD("loss-param", loss_param, "0", "huber delta or quantile/expectile tau (0 = default)"),
    SGBTConfigField{"bins", "bin strategy: uniform|quantile|categorical", "uniform",
                    [](SGBTConfig& c, std::string_view v) -> Status {
                      auto k = parse_bin_strategy(v);
                      if (!k) return k.status();
                      c.bin_strategy = *k;
                      return Status::ok();
                    },
                    [](const SGBTConfig& c) { return std::string(bin_strategy_name(c.bin_strategy)); }},
    F64_FIELD("hoeffding-r", hoeffding_r, "1", "range R in the Hoeffding bound, > 0"),
    UINT_FIELD("min-samples-leaf", min_samples_leaf, "0", "minimum samples each child of a split must hold (0 = off)"),
};

#undef F64_FIELD
#undef UINT_FIELD

}  // namespace

std::span<const SGBTConfigField> sgbt_config_fields() { return kFields; }

Status set_sgbt_config_field(SGBTConfig& config, std::string_view name, std::string_view value) {
  for (const auto& f : kFields)
    if (f.name == name) return f.set(config, value);
  return Status::invalid_argument("unknown SGBT option '" + std::string(name) + "'");
}

Result<SGBTVariant> parse_sgbt_variant(std::string_view name) {
  if (name == "standard") return SGBTVariant::kStandard;
  if (name == "skip" || name == "sk") return SGBTVariant::kSkip;
  if (name == "mi" || name == "multiple-iterations") return SGBTVariant::kMultipleIterations;
  return Status::invalid_argument("unknown SGBT variant '" + std::string(name) + "' (standard|skip|mi)");
}

std::string_view sgbt_variant_name(SGBTVariant v) {
  switch (v) {
    case SGBTVariant::kStandard: return "standard";
    case SGBTVariant::kSkip: return "skip";
    case SGBTVariant::kMultipleIterations: return "mi";
  }
  return "?";
}

Status SGBTConfig::validate() const {
  auto bad = [](const char* field, const char* rule, double v) {
    return Status::invalid_argument(std::string(field) + " " + rule + " (got " + fmt(v) + ")");
  };
  if (n_steps == 0) return bad("n-steps", "must be > 0", n_steps);
  if (!(learning_rate > 0.0 && learning_rate <= 1.0)) return bad("learning-rate", "must be in (0, 1]", learning_rate);
  if (variant == SGBTVariant::kSkip && skip_k == 0) return bad("skip-k", "must be >= 1", skip_k);
  if (variant == SGBTVariant::kMultipleIterations && !(mi_multiplier > 0.0 && std::isfinite(mi_multiplier)))
    return bad("mi-multiplier", "must be > 0", mi_multiplier);
  if (static_cast<unsigned>(variant) > 2) return bad("variant", "unknown", static_cast<double>(variant));
  if (initial_target_count == 0) return bad("initial-target-count", "must be > 0", 0);
  if (leaf_half_life != 0.0 && !(leaf_half_life >= 1.0 && std::isfinite(leaf_half_life)))
    return bad("leaf-half-life", "must be 0 (off) or >= 1", leaf_half_life);
  if (max_tree_samples != 0 && max_tree_samples < 100)
    return bad("max-tree-samples", "must be 0 (off) or >= 100", static_cast<double>(max_tree_samples));
  IRITHYLL_RETURN_IF_ERROR(make_loss().validate());
  if (drift.kind != DriftKind::kNone) {
    auto d = make_drift_detector(drift);
    if (!d) return d.status().with_context("drift");
  }
  return tree_config(0).validate();
}

TreeConfig SGBTConfig::tree_config(std::uint32_t step) const {
  TreeConfig t;
  t.max_depth = max_depth;
  t.n_bins = n_bins;
  t.lambda = lambda;
  t.gamma = gamma;
  t.grace_period = grace_period;
  t.delta = delta;
  t.feature_subsample = feature_subsample;
  t.seed = seed ^ step;
  t.leaf_decay_alpha = leaf_half_life > 0.0 ? std::exp(-std::log(2.0) / leaf_half_life) : 0.0;
  t.hoeffding_r = hoeffding_r;
  t.min_samples_leaf = min_samples_leaf;
  t.bin_strategy = bin_strategy;
  return t;
}

Loss SGBTConfig::make_loss() const {
  return loss_param == 0.0 ? Loss(loss) : Loss(loss, loss_param);
}

void SGBTConfig::encode(ByteWriter& out) const {
  out.u32(n_steps);
  out.f64(learning_rate);
  out.f64(feature_subsample);
  out.u32(max_depth);
  out.u32(n_bins);
  out.f64(lambda);
  out.f64(gamma);
  out.u32(grace_period);
  out.f64(delta);
  out.u8(static_cast<std::uint8_t>(drift.kind));
  out.f64(drift.delta);
  out.f64(drift.lambda);
  out.f64(drift.warning_level);
  out.f64(drift.drift_level);
  out.u32(drift.min_instances);
  out.u8(static_cast<std::uint8_t>(variant));
  out.u32(skip_k);
  out.f64(mi_multiplier);
  out.u64(seed);
  out.u32(initial_target_count);
  out.f64(leaf_half_life);
  out.u64(max_tree_samples);
  out.u8(static_cast<std::uint8_t>(loss));
  out.f64(loss_param);
  out.u8(static_cast<std::uint8_t>(bin_strategy));
  out.f64(hoeffding_r);
  out.u32(min_samples_leaf);
}

Status SGBTConfig::decode(ByteReader& in) {
  SGBTConfig c;
  c.n_steps = in.u32("n_steps");
  c.learning_rate = in.f64("learning_rate");
  c.feature_subsample = in.f64("feature_subsample");
  c.max_depth = in.u32("max_depth");
  c.n_bins = in.u32("n_bins");
  c.lambda = in.f64("lambda");
  c.gamma = in.f64("gamma");
  c.grace_period = in.u32("grace_period");
  c.delta = in.f64("delta");
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
  c.hoeffding_r = in.f64("hoeffding_r");
  c.min_samples_leaf = in.u32("min_samples_leaf");
  if (!in.ok()) return in.status();
  if (dk > 3 || var > 2 || lk > 5 || bs > 2) return Status::corruption("SGBT config: enum value out of range");
  c.drift.kind = static_cast<DriftKind>(dk);
  c.variant = static_cast<SGBTVariant>(var);
  c.loss = static_cast<LossKind>(lk);
  c.bin_strategy = static_cast<BinStrategy>(bs);
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("SGBT config"));
  *this = c;
  return Status::ok();
}

}  // namespace irithyll
