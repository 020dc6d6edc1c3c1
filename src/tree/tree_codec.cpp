// GradientTree encode/decode: the complete state, so a decoded tree keeps
// learning bit-identically. The record holds no settings: the owner builds
// the tree from its own settings (which it writes once, by name) and decodes
// the state into it. Records written before that carried the tree's binary
// config first; decode_with_config reads those. decode() validates structure before adopting it:
// children always have larger indices than their parent (so routing cannot
// cycle), every node but the root has exactly one parent, features and slabs
// are in range, and histogram slabs match the bin layout.
#include <algorithm>
#include <cmath>
#include <string>

#include "tree/gradient_tree.hpp"

namespace irithyll {

void GradientTree::encode(ByteWriter& out) const {
  out.u64(rng_.state());
  out.u64(n_features_);
  out.boolean(edges_ready_);
  out.u64(samples_seen_);
  out.u64(split_attempts_);
  for (const auto& b : binners_) b.encode(out);
  for (const auto& e : edges_) e.encode(out);
  pool_.encode(out);
  out.u64(route_.size());
  for (std::size_t n = 0; n < route_.size(); ++n) {
    out.f64(route_[n].threshold);
    out.u32(route_[n].feature);
    out.u32(route_[n].left);
    out.f64(value_[n]);
    out.u16(depth_[n]);
    out.u64(count_[n]);
    out.f64(g_sum_[n]);
    out.f64(h_sum_[n]);
    out.u32(slab_[n]);
  }
  out.f64s(split_gains_);
  // Per-node state of the leaf controls, present exactly when the config
  // (decoded first) enables them.
  const bool monotone = config_.has_monotone(), clip = config_.gradient_clip_sigma > 0.0,
             bound = config_.adaptive_leaf_bound > 0.0;
  if (monotone || clip || bound) {
    for (std::size_t n = 0; n < route_.size(); ++n) {
      if (monotone) {
        out.f64(lo_[n]);
        out.f64(hi_[n]);
      }
      if (clip) {
        out.u64(clip_n_[n]);
        out.f64(clip_mean_[n]);
        out.f64(clip_m2_[n]);
      }
      if (bound) {
        out.u64(out_n_[n]);
        out.f64(out_mean_[n]);
        out.f64(out_m2_[n]);
      }
    }
  }
  // Model and structure options (config options block version 2).
  if (linear_) {
    out.f64s(lin_w_);
    out.f64s(lin_mean_);
    out.f64s(lin_power_);
    if (config_.linear_adagrad) out.f64s(lin_g2_);
    if (config_.leaf_model == TreeLeafModel::kMlp) out.f64s(mlp_);
    if (config_.leaf_model == TreeLeafModel::kAdaptive) {
      for (std::size_t n = 0; n < route_.size(); ++n) {
        out.u8(promoted_[n]);
        out.u64(adv_n_[n]);
        out.f64(adv_sum_[n]);
        out.f64(adv_max_[n]);
      }
    }
  }
  if (reeval_) {
    out.u64(reevals_);
    out.u64(resplits_);
  }
  // Category masks, present exactly when the config lists categorical
  // features (its options block version 2): older records have none.
  if (cat_)
    for (std::uint64_t m : cat_mask_) out.u64(m);
  // The rows awaiting replay, present exactly when the config sets
  // warm_start (its options block version 3).
  if (config_.warm_start != 0) out.f64s(warm_rows_);
  // Interpolated leaves: each node's prior (no record before the setting has one).
  if (config_.interpolate) out.f64s(prior_);
}

Status GradientTree::decode_with_config(ByteReader& in) {
  GradientTreeConfig cfg;
  IRITHYLL_RETURN_IF_ERROR(cfg.decode(in));
  GradientTree t(cfg);
  IRITHYLL_RETURN_IF_ERROR(t.decode(in));
  *this = std::move(t);
  return Status::ok();
}

Status GradientTree::decode(ByteReader& in) {
  const GradientTreeConfig cfg = config_;
  GradientTree t(cfg);
  t.rng_.set_state(in.u64("tree rng"));
  const std::size_t nf = in.read_count(16, "n_features");
  t.edges_ready_ = in.boolean("edges ready");
  t.samples_seen_ = in.u64("samples seen");
  t.split_attempts_ = in.u64("split attempts");
  if (!in.ok()) return in.status();
  if (t.samples_seen_ > 0) t.reserve_nodes();  // as train_leaf would have at its first sample
  if (nf > 0) t.init_features(nf);
  for (auto& b : t.binners_) IRITHYLL_RETURN_IF_ERROR(b.decode(in));
  for (std::size_t f = 0; f < nf; ++f) {
    IRITHYLL_RETURN_IF_ERROR(t.edges_[f].decode(in));
    t.offset_[f + 1] = t.offset_[f] + t.edges_[f].n_bins();
  }
  IRITHYLL_RETURN_IF_ERROR(t.pool_.decode(in));
  const std::size_t nn = in.read_count(50, "tree nodes");
  if (!in.ok()) return in.status();
  if (nn == 0) return Status::corruption("tree has no root");
  t.route_.clear();
  t.value_.clear();
  t.depth_.clear();
  t.count_.clear();
  t.g_sum_.clear();
  t.h_sum_.clear();
  t.slab_.clear();
  t.lo_.clear();
  t.hi_.clear();
  t.prior_.clear();
  t.clip_n_.clear();
  t.clip_mean_.clear();
  t.clip_m2_.clear();
  t.out_n_.clear();
  t.out_mean_.clear();
  t.out_m2_.clear();
  t.cat_mask_.clear();
  for (std::size_t n = 0; n < nn; ++n) {
    RouteNode r;
    r.threshold = in.f64("threshold");
    r.feature = in.u32("feature");
    r.left = in.u32("left child");
    t.route_.push_back(r);
    t.value_.push_back(in.f64("leaf value"));
    t.depth_.push_back(in.u16("depth"));
    t.count_.push_back(in.u64("node count"));
    t.g_sum_.push_back(in.f64("G"));
    t.h_sum_.push_back(in.f64("H"));
    t.slab_.push_back(in.u32("slab"));
  }
  t.split_gains_ = in.f64s("split gains");
  const bool monotone = cfg.has_monotone(), clip = cfg.gradient_clip_sigma > 0.0, bound = cfg.adaptive_leaf_bound > 0.0;
  for (std::size_t n = 0; n < nn && in.ok() && (monotone || clip || bound); ++n) {
    if (monotone) {
      t.lo_.push_back(in.f64("monotone lo"));
      t.hi_.push_back(in.f64("monotone hi"));
      if (in.ok() && !(t.lo_.back() <= t.hi_.back())) in.fail("monotone bounds out of order");
    }
    if (clip) {
      t.clip_n_.push_back(in.u64("clip count"));
      t.clip_mean_.push_back(in.f64("clip mean"));
      t.clip_m2_.push_back(in.f64("clip m2"));
    }
    if (bound) {
      t.out_n_.push_back(in.u64("output count"));
      t.out_mean_.push_back(in.f64("output mean"));
      t.out_m2_.push_back(in.f64("output m2"));
    }
  }
  if (t.linear_ && in.ok()) {
    t.lin_w_ = in.f64s("linear leaf weights");
    t.lin_mean_ = in.f64s("linear leaf means");
    t.lin_power_ = in.f64s("linear leaf input power");
    if (in.ok() && (t.lin_w_.size() != nn * nf || t.lin_mean_.size() != nn * nf || t.lin_power_.size() != nn))
      in.fail("linear leaf state size differs from nodes x n_features");
    if (cfg.linear_adagrad) {
      t.lin_g2_ = in.f64s("linear leaf AdaGrad sums");
      if (in.ok() && t.lin_g2_.size() != nn * nf) in.fail("linear leaf AdaGrad sums differ from nodes x n_features");
      for (std::size_t i = 0; i < t.lin_g2_.size() && in.ok(); ++i)
        if (!(t.lin_g2_[i] >= 0.0 && t.lin_g2_[i] <= 1.7976931348623157e308)) in.fail("linear leaf AdaGrad sum out of range");
    }
    if (cfg.leaf_model == TreeLeafModel::kMlp) {
      t.mlp_ = in.f64s("MLP leaf weights");
      if (in.ok() && t.mlp_.size() != nn * t.mlp_block()) in.fail("MLP leaf weights differ from nodes x hidden x (n_features + 2)");
      for (std::size_t i = 0; i < t.mlp_.size() && in.ok(); ++i)
        if (!std::isfinite(t.mlp_[i])) in.fail("non-finite MLP leaf weight");
    }
    if (cfg.leaf_model == TreeLeafModel::kAdaptive) {
      t.promoted_.clear();
      t.adv_n_.clear();
      t.adv_sum_.clear();
      t.adv_max_.clear();
      for (std::size_t n = 0; n < nn && in.ok(); ++n) {
        t.promoted_.push_back(in.u8("promoted") != 0 ? 1 : 0);
        t.adv_n_.push_back(in.u64("promotion count"));
        t.adv_sum_.push_back(in.f64("promotion advantage"));
        t.adv_max_.push_back(in.f64("promotion range"));
      }
    }
  }
  if (t.reeval_) {
    t.reevals_ = in.u64("re-evaluations");
    t.resplits_ = in.u64("re-made splits");
  }
  for (std::size_t n = 0; n < nn && in.ok() && t.cat_; ++n) t.cat_mask_.push_back(in.u64("category mask"));
  if (cfg.warm_start != 0) t.warm_rows_ = in.f64s("warm-start rows");
  if (cfg.interpolate) {
    t.prior_ = in.f64s("interpolation priors");
    if (in.ok() && t.prior_.size() != nn) in.fail("interpolation priors differ from the node count");
    for (std::size_t n = 0; n < t.prior_.size() && in.ok(); ++n)
      if (!std::isfinite(t.prior_[n])) in.fail("non-finite interpolation prior");
  }
  if (!in.ok()) return in.status();
  if (!t.warm_rows_.empty()) {
    const std::size_t stride = nf + 2;
    if (t.edges_ready_ || nf == 0 || t.warm_rows_.size() % stride != 0 ||
        t.warm_rows_.size() / stride >= std::min(cfg.warm_start, cfg.grace_period))
      return Status::corruption("warm-start rows do not match the tree");
    for (std::size_t r = 0; r < t.warm_rows_.size(); r += stride)
      if (!std::isfinite(t.warm_rows_[r + nf]) || !std::isfinite(t.warm_rows_[r + nf + 1]))
        return Status::corruption("non-finite gradient in the warm-start rows");
  }
  if (nf > 0 && t.split_gains_.size() != nf) return Status::corruption("split gains size differs from n_features");
  if (t.edges_ready_ && t.pool_.bins_per_slab() != t.offset_[nf])
    return Status::corruption("histogram slab size differs from the bin layout");
  IRITHYLL_RETURN_IF_ERROR(t.validate_structure());
  *this = std::move(t);
  return Status::ok();
}

Status GradientTree::validate_structure() const {
  const std::size_t nn = route_.size();
  if (nn % 2 == 0) return Status::corruption("tree node count must be odd");
  std::vector<std::uint8_t> parents(nn, 0);
  std::vector<std::uint8_t> slab_used(pool_.n_slabs(), 0);
  for (std::size_t n = 0; n < nn; ++n) {
    const RouteNode& r = route_[n];
    if (!std::isfinite(value_[n])) return Status::corruption("non-finite leaf value at node " + std::to_string(n));
    // A lowered max_depth (set_limits) keeps the branches already grown, so
    // the bound is the deepest any configuration allows (2 x 30 with the
    // adaptive ceiling), which soft routing's fixed stack also relies on.
    if (depth_[n] > kDeepestTreeNode) return Status::corruption("node deeper than any tree may grow");
    if (r.left == 0) {
      const std::uint32_t s = slab_[n];
      if (s != HistogramPool::kNone && (!edges_ready_ || !pool_.owns(s) || slab_used[s]++))
        return Status::corruption("bad histogram slab at node " + std::to_string(n));
      continue;
    }
    if (r.left <= n || static_cast<std::size_t>(r.left) + 1 >= nn) return Status::corruption("child index out of range at node " + std::to_string(n));
    if (r.feature >= n_features_) return Status::corruption("split feature out of range at node " + std::to_string(n));
    if (std::isnan(r.threshold)) return Status::corruption("NaN threshold at node " + std::to_string(n));
    if (is_categorical_split(static_cast<std::uint32_t>(n)) && cat_mask_[n] == 0)
      return Status::corruption("category split with an empty mask at node " + std::to_string(n));
    if (slab_[n] != HistogramPool::kNone) return Status::corruption("internal node holds a histogram");
    if (parents[r.left]++ || parents[r.left + 1]++) return Status::corruption("node with two parents");
    if (depth_[r.left] != depth_[n] + 1 || depth_[r.left + 1] != depth_[n] + 1)
      return Status::corruption("child depth mismatch");
  }
  for (std::size_t n = 1; n < nn; ++n)
    if (parents[n] != 1) return Status::corruption("unreachable node " + std::to_string(n));
  if (depth_[0] != 0) return Status::corruption("root depth must be 0");
  return Status::ok();
}

}  // namespace irithyll
