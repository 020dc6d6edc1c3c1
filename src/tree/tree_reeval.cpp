// GradientTree split re-evaluation at the depth ceiling (split_reeval_interval;
// the Rust library's EFDT-style re-check): two sibling leaves at
// the ceiling hold the histograms of every sample their parent has routed
// since its split, so their sum is the parent's evidence; the split is
// replaced when the best candidate beats it by the Hoeffding bound. No
// tie-break here (eps < tau), or near-equal splits would keep trading places.
#include <algorithm>
#include <cmath>

#include "tree/gradient_tree.hpp"

namespace irithyll {

std::uint32_t GradientTree::parent_of(std::uint32_t n) const noexcept {
  for (std::uint32_t p = 0; p < route_.size(); ++p) {
    const std::uint32_t l = route_[p].left;
    if (l != 0 && (l == n || l + 1 == n)) return p;
  }
  return 0;  // only the root has none, and the root is never at the ceiling
}

bool GradientTree::reevaluate(std::uint32_t leaf) {
  // Checked at split-attempt points (count % grace == 0), so the interval
  // is rounded up to a multiple of the grace period; either child reaching
  // it re-scores the pair (children restart at 0 after a re-made split).
  const std::uint64_t grace = config_.grace_period;
  const std::uint64_t every = (config_.split_reeval_interval + grace - 1) / grace * grace;
  if (count_[leaf] % every != 0 || leaf == 0) return false;
  const std::uint32_t p = parent_of(leaf);
  const std::uint32_t l = route_[p].left, r = l + 1;
  if (!is_leaf(l) || !is_leaf(r) || slab_[l] == HistogramPool::kNone || slab_[r] == HistogramPool::kNone) return false;
  ++reevals_;
  if (config_.leaf_decay_alpha > 0.0) {
    pool_.materialize(slab_[l]);
    pool_.materialize(slab_[r]);
  }
  const std::size_t nb = pool_.bins_per_slab();
  merged_.resize(nb + 1);  // allocates at the first re-evaluation only
  const GradBin* a = pool_.bins(slab_[l]);
  const GradBin* b = pool_.bins(slab_[r]);
  for (std::size_t i = 0; i <= nb; ++i) merged_[i] = GradBin{a[i].g + b[i].g, a[i].h + b[i].h, a[i].count + b[i].count};
  draw_feature_mask();
  SplitCandidate best;
  double second = 0.0;
  std::uint64_t cats = 0;
  if (!find_best(merged_.data(), merged_[nb], best, second, cats)) return false;
  const bool by_set = cat_ && is_cat_[best.feature];
  const double thr = by_set ? 0.0 : edges_[best.feature].upper_edge(best.bin);
  if (best.feature == route_[p].feature && thr == route_[p].threshold && (!by_set || cats == cat_mask_[p])) return false;
  const GradBin& tl = pool_.total(slab_[l]);
  const GradBin& tr = pool_.total(slab_[r]);
  const double current = split_gain(tl.g, tl.h, tr.g, tr.h, config_.lambda, config_.gamma);
  double n_eff = static_cast<double>(merged_[nb].count);
  if (config_.leaf_decay_alpha > 0.0) n_eff = std::min(n_eff, 1.0 / (1.0 - config_.leaf_decay_alpha));
  if (!(n_eff > 0.0)) return false;
  const double rr = config_.hoeffding_r;
  const double eps = std::sqrt(rr * rr * std::log(1.0 / config_.delta) / (2.0 * n_eff));
  if (!(best.gain - current > eps)) return false;

  ++resplits_;
  route_[p].feature = best.feature;
  route_[p].threshold = thr;
  if (cat_) cat_mask_[p] = by_set ? cats : 0;
  // The children's histograms describe the old partition: start both empty
  // (release + acquire reuses the two slabs, zeroed, no allocation).
  pool_.release(slab_[l]);
  pool_.release(slab_[r]);
  slab_[l] = pool_.acquire();
  slab_[r] = pool_.acquire();
  set_children(p, best, false);
  split_gains_[best.feature] += best.gain;
  return true;
}

}  // namespace irithyll
