#include "irithyll/tree/tree_config.hpp"

#include <cmath>
#include <string>

namespace irithyll {

namespace {
Status bad(const char* field, const char* rule, double v) {
  return Status::invalid_argument(std::string(field) + " " + rule + " (got " + std::to_string(v) + ")");
}
}  // namespace

Status TreeConfig::validate() const {
  if (max_depth < 1 || max_depth > 30) return bad("max_depth", "must be in [1, 30]", max_depth);
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
  if (static_cast<unsigned>(bin_strategy) > 2) return bad("bin_strategy", "unknown", static_cast<double>(bin_strategy));
  return Status::ok();
}

void TreeConfig::encode(ByteWriter& out) const {
  out.u32(max_depth);
  out.u32(n_bins);
  out.f64(lambda);
  out.f64(gamma);
  out.u32(grace_period);
  out.f64(delta);
  out.f64(feature_subsample);
  out.u64(seed);
  out.f64(leaf_decay_alpha);
  out.f64(hoeffding_r);
  out.f64(tie_threshold);
  out.f64(min_child_hessian);
  out.u32(min_samples_leaf);
  out.u8(static_cast<std::uint8_t>(bin_strategy));
}

Status TreeConfig::decode(ByteReader& in) {
  TreeConfig c;
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
  c.bin_strategy = static_cast<BinStrategy>(in.u8("bin_strategy"));
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("tree config"));
  *this = c;
  return Status::ok();
}

}  // namespace irithyll
