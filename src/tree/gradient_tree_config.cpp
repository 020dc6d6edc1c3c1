#include "irithyll/tree/gradient_tree_config.hpp"

#include <cmath>
#include <string>

namespace irithyll {

namespace {
Status bad(const char* field, const char* rule, double v) {
  return Status::invalid_argument(std::string(field) + " " + rule + " (got " + std::to_string(v) + ")");
}
}  // namespace

Result<TreeLeafModel> parse_tree_leaf_model(std::string_view name) {
  if (name == "constant") return TreeLeafModel::kConstant;
  if (name == "linear") return TreeLeafModel::kLinear;
  if (name == "adaptive") return TreeLeafModel::kAdaptive;
  if (name == "mlp") return TreeLeafModel::kMlp;
  return Status::invalid_argument("unknown leaf model '" + std::string(name) + "' (constant|linear|adaptive|mlp)");
}

Result<SoftKernel> parse_soft_kernel(std::string_view name) {
  if (name == "sigmoid") return SoftKernel::kSigmoid;
  if (name == "linear") return SoftKernel::kLinear;
  return Status::invalid_argument("unknown soft kernel '" + std::string(name) + "' (sigmoid|linear)");
}

std::string_view soft_kernel_name(SoftKernel k) { return k == SoftKernel::kLinear ? "linear" : "sigmoid"; }

std::string_view tree_leaf_model_name(TreeLeafModel m) {
  switch (m) {
    case TreeLeafModel::kConstant: return "constant";
    case TreeLeafModel::kLinear: return "linear";
    case TreeLeafModel::kAdaptive: return "adaptive";
    case TreeLeafModel::kMlp: return "mlp";
  }
  return "?";
}

Status GradientTreeConfig::validate() const {
  if (max_depth < 1 || max_depth > kMaxDepth) return bad("max_depth", "must be in [1, 30]", max_depth);
  if (n_bins < 2 || n_bins > 65536) return bad("n_bins", "must be in [2, 65536]", n_bins);
  if (!(lambda >= 0.0) || !std::isfinite(lambda)) return bad("lambda", "must be >= 0", lambda);
  if (!(gamma >= 0.0) || !std::isfinite(gamma)) return bad("gamma", "must be >= 0", gamma);
  if (grace_period < 1) return bad("grace_period", "must be >= 1", grace_period);
  if (!(delta > 0.0 && delta < 1.0)) return bad("delta", "must be in (0, 1)", delta);
  if (!(feature_subsample > 0.0 && feature_subsample <= 1.0))
    return bad("feature_subsample", "must be in (0, 1]", feature_subsample);
  if (!(leaf_decay_alpha >= 0.0 && leaf_decay_alpha < 1.0))
    return bad("leaf_decay_alpha", "must be 0 (off) or in (0, 1)", leaf_decay_alpha);
  if (!(hoeffding_r > 0.0) || !std::isfinite(hoeffding_r)) return bad("hoeffding_r", "must be > 0", hoeffding_r);
  if (!(tie_threshold > 0.0) || !std::isfinite(tie_threshold)) return bad("tie_threshold", "must be > 0", tie_threshold);
  if (!(min_child_hessian >= 0.0) || !std::isfinite(min_child_hessian))
    return bad("min_child_hessian", "must be >= 0", min_child_hessian);
  if (static_cast<std::size_t>(bin_strategy) >= bin_strategy_table().size())
    return bad("bin_strategy", "unknown", static_cast<double>(bin_strategy));
  if (!(max_leaf_output >= 0.0) || !std::isfinite(max_leaf_output))
    return bad("max_leaf_output", "must be 0 (off) or > 0", max_leaf_output);
  if (!(min_hessian_sum >= 0.0) || !std::isfinite(min_hessian_sum))
    return bad("min_hessian_sum", "must be 0 (off) or > 0", min_hessian_sum);
  if (!(gradient_clip_sigma >= 0.0) || !std::isfinite(gradient_clip_sigma))
    return bad("gradient_clip_sigma", "must be 0 (off) or > 0", gradient_clip_sigma);
  if (!(adaptive_leaf_bound >= 0.0) || !std::isfinite(adaptive_leaf_bound))
    return bad("adaptive_leaf_bound", "must be 0 (off) or > 0", adaptive_leaf_bound);
  for (std::int8_t m : monotone)
    if (m < -1 || m > 1) return bad("monotone constraint", "must be -1, 0 or 1", m);
  if (static_cast<unsigned>(leaf_model) > 3) return bad("leaf_model", "unknown", static_cast<double>(leaf_model));
  if (mlp_hidden < 1 || mlp_hidden > 64) return bad("mlp_hidden", "must be in [1, 64]", mlp_hidden);
  if (!(linear_learning_rate > 0.0 && linear_learning_rate <= 1.0))
    return bad("linear_learning_rate", "must be in (0, 1]", linear_learning_rate);
  if (!(linear_decay > 0.0 && linear_decay <= 1.0)) return bad("linear_decay", "must be in (0, 1]", linear_decay);
  if (leaf_model != TreeLeafModel::kConstant && has_monotone())
    return Status::invalid_argument("leaf_model linear/adaptive cannot be combined with monotone constraints (the linear term is unconstrained)");
  if (!(adaptive_depth >= 0.0) || !std::isfinite(adaptive_depth))
    return bad("adaptive_depth", "must be 0 (off) or > 0", adaptive_depth);
  if (!(categorical_penalty >= 0.0 && categorical_penalty <= 100.0))
    return bad("categorical_penalty", "must be in [0, 100]", categorical_penalty);
  return Status::ok();
}

Status GradientTreeConfig::decode(ByteReader& in) {
  GradientTreeConfig c;
  c.max_depth = in.u32("max_depth");
  c.n_bins = in.u32("n_bins");
  c.lambda = in.f64("lambda");
  c.gamma = in.f64("gamma");
  c.grace_period = in.u32("grace_period");
  c.delta = in.f64("delta");
  c.feature_subsample = in.f64("feature_subsample");
  c.seed = in.u64("seed");
  c.leaf_decay_alpha = in.f64("leaf_decay_alpha");
  c.hoeffding_r = in.f64("hoeffding_r");
  c.tie_threshold = in.f64("tie_threshold");
  c.min_child_hessian = in.f64("min_child_hessian");
  c.min_samples_leaf = in.u32("min_samples_leaf");
  const std::uint8_t bs = in.u8("bin_strategy");
  c.bin_strategy = static_cast<BinStrategy>(bs & 0x7F);
  if (in.ok() && (bs & 0x80) != 0) {
    const std::uint8_t v = in.u8("tree options version");
    if (in.ok() && (v < 1 || v > 4)) in.fail("unsupported tree options version " + std::to_string(v));
    c.max_leaf_output = in.f64("max_leaf_output");
    c.min_hessian_sum = in.f64("min_hessian_sum");
    c.gradient_clip_sigma = in.f64("gradient_clip_sigma");
    c.adaptive_leaf_bound = in.f64("adaptive_leaf_bound");
    const std::size_t n = in.read_count(1, "monotone constraints");
    if (in.ok()) {
      c.monotone.resize(n);
      for (auto& m : c.monotone) m = static_cast<std::int8_t>(static_cast<int>(in.u8("monotone")) - 1);
    }
    if (in.ok() && v >= 2) {
      c.leaf_model = static_cast<TreeLeafModel>(in.u8("leaf_model"));
      c.linear_learning_rate = in.f64("linear_learning_rate");
      c.split_reeval_interval = in.u32("split_reeval_interval");
      c.adaptive_depth = in.f64("adaptive_depth");
      const std::size_t k = in.read_count(4, "categorical features");
      for (std::size_t i = 0; i < k && in.ok(); ++i) c.categorical.push_back(in.u32("categorical feature"));
    }
    if (in.ok() && v >= 3) c.warm_start = in.u32("warm_start");
    if (in.ok() && v == 4) c.categorical_penalty = in.f64("categorical_penalty");
  }
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("tree config"));
  *this = c;
  return Status::ok();
}

}  // namespace irithyll
