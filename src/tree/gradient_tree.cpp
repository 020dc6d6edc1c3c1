#include "tree/gradient_tree.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "tree/category_split.hpp"

namespace irithyll {

// The plain path (a Newton step per sample, clamped to leaf_bound_) serves
// every tree whose only option is max_leaf_output: the clamp is one min and
// one max, which with no bound (+-infinity) return the step unchanged.
static bool plain_config(GradientTreeConfig config) {
  config.max_leaf_output = 0.0;
  return !config.has_options() && !config.has_extensions();
}

GradientTree::GradientTree(const GradientTreeConfig& config)
    : config_(config),
      plain_(plain_config(config)),
      leaf_bound_(config.max_leaf_output > 0.0 ? config.max_leaf_output : kInf),
      gain_{config.lambda, config.gamma, config.min_child_hessian, config.min_samples_leaf},
      rng_(config.seed),
      linear_(config.leaf_model != TreeLeafModel::kConstant),
      reeval_(config.split_reeval_interval > 0),
      ceiling_(config.depth_ceiling()),
      cat_(!config.categorical.empty()) {
  reset();
}

void GradientTree::reserve_nodes() {
  // Every node of a full tree of this depth, so growth never reallocates
  // (capped: deep configurations grow on demand instead). Done at the first
  // sample, not at construction, so a tree that never learns (an idle
  // alternate) costs only its own object.
  const std::size_t full = ceiling_ < 12 ? (std::size_t{2} << ceiling_) - 1 : 8191;
  route_.reserve(full);
  value_.reserve(full);
  depth_.reserve(full);
  count_.reserve(full);
  g_sum_.reserve(full);
  h_sum_.reserve(full);
  slab_.reserve(full);
  if (cat_) cat_mask_.reserve(full);
  if (config_.interpolate) prior_.reserve(full);
  if (config_.has_monotone()) {
    lo_.reserve(full);
    hi_.reserve(full);
  }
  if (config_.gradient_clip_sigma > 0.0) {
    clip_n_.reserve(full);
    clip_mean_.reserve(full);
    clip_m2_.reserve(full);
  }
  if (config_.adaptive_leaf_bound > 0.0) {
    out_n_.reserve(full);
    out_mean_.reserve(full);
    out_m2_.reserve(full);
  }
}

void GradientTree::release_storage() {
  // A fresh tree of the same configuration learns exactly as a reset one: the
  // feature count is re-fixed by the next first sample, as after reset().
  *this = GradientTree(config_);
}

void GradientTree::push_leaf(std::uint16_t depth, double value, double lo, double hi) {
  if (config_.interpolate) prior_.push_back(0.0);  // set_children sets a child's
  if (config_.has_monotone()) {
    lo_.push_back(lo);
    hi_.push_back(hi);
  }
  if (config_.adaptive_leaf_bound > 0.0) {
    out_n_.push_back(0);
    out_mean_.push_back(0.0);
    out_m2_.push_back(0.0);
  }
  if (config_.gradient_clip_sigma > 0.0) {
    clip_n_.push_back(0);
    clip_mean_.push_back(0.0);
    clip_m2_.push_back(0.0);
  }
  if (linear_) {
    lin_w_.resize(lin_w_.size() + n_features_, 0.0);
    lin_mean_.resize(lin_mean_.size() + n_features_, 0.0);
    lin_power_.push_back(0.0);
    if (config_.linear_adagrad) lin_g2_.resize(lin_g2_.size() + n_features_, 0.0);
    if (config_.leaf_model == TreeLeafModel::kMlp) {
      mlp_.resize(mlp_.size() + mlp_block(), 0.0);
      if (mlp_.size() == mlp_block()) init_mlp_root();  // the root, once the width is known
    }
    if (config_.leaf_model == TreeLeafModel::kAdaptive) {
      promoted_.push_back(0);
      adv_n_.push_back(0);
      adv_sum_.push_back(0.0);
      adv_max_.push_back(0.0);
    }
  }
  route_.push_back(RouteNode{});
  value_.push_back(value);
  depth_.push_back(depth);
  count_.push_back(0);
  g_sum_.push_back(0.0);
  h_sum_.push_back(0.0);
  slab_.push_back(HistogramPool::kNone);
  if (cat_) cat_mask_.push_back(0);
}

void GradientTree::reset() {
  rng_.set_state(config_.seed);
  samples_seen_ = 0;
  split_attempts_ = 0;
  edges_ready_ = false;
  for (auto& b : binners_) b.reset();
  warm_rows_.clear();
  warm_rows_.shrink_to_fit();
  // The histograms are rebuilt on new edges after the next grace period, so
  // their storage goes back now (a replaced tree would otherwise keep its
  // peak until it regrows, or forever as an idle alternate).
  pool_.release_memory();
  route_.clear();
  value_.clear();
  depth_.clear();
  count_.clear();
  g_sum_.clear();
  h_sum_.clear();
  slab_.clear();
  lo_.clear();
  hi_.clear();
  prior_.clear();
  clip_n_.clear();
  clip_mean_.clear();
  clip_m2_.clear();
  out_n_.clear();
  out_mean_.clear();
  out_m2_.clear();
  lin_w_.clear();
  lin_mean_.clear();
  lin_power_.clear();
  lin_g2_.clear();
  mlp_.clear();
  promoted_.clear();
  adv_n_.clear();
  adv_sum_.clear();
  adv_max_.clear();
  reevals_ = 0;
  resplits_ = 0;
  cat_mask_.clear();
  std::fill(split_gains_.begin(), split_gains_.end(), 0.0);
  push_leaf(0, 0.0);
}

void GradientTree::init_features(std::size_t n) {
  n_features_ = n;
  binners_.assign(n, FeatureBinner(config_.bin_strategy, config_.n_bins));
  edges_.assign(n, BinEdges());
  offset_.assign(n + 1, 0);
  split_gains_.assign(n, 0.0);
  mask_.reserve(n);
  if (linear_) {  // the nodes pushed before the feature count was known
    lin_w_.assign(route_.size() * n, 0.0);
    lin_mean_.assign(route_.size() * n, 0.0);
    if (config_.linear_adagrad) lin_g2_.assign(route_.size() * n, 0.0);
    if (config_.leaf_model == TreeLeafModel::kMlp) {
      mlp_.assign(route_.size() * mlp_block(), 0.0);
      init_mlp_root();
    }
  }
  is_cat_.clear();
  if (cat_) {
    is_cat_.assign(n, 0);
    for (std::uint32_t f : config_.categorical)
      if (f < n) is_cat_[f] = 1;
  }
}

void GradientTree::build_edges() {
  for (std::size_t f = 0; f < n_features_; ++f) {
    // A categorical feature has one bin per code 0..63 (edges at c + 1/2).
    edges_[f] = cat_ && is_cat_[f] ? BinEdges::uniform(-0.5, kCategoryBins - 0.5, kCategoryBins)
                                   : binners_[f].compute_edges();
    offset_[f + 1] = offset_[f] + edges_[f].n_bins();
    binners_[f].reset();
  }
  pool_.configure(offset_[n_features_]);
  edges_ready_ = true;
}

double GradientTree::leaf_variance(std::span<const double> x) const noexcept {
  const std::uint32_t n = leaf_index(x);
  const double d = h_sum_[n] + config_.lambda;
  return d > 0.0 ? 1.0 / d : std::numeric_limits<double>::infinity();
}

void GradientTree::set_limits(double lambda, std::uint32_t max_depth) {
  config_.lambda = lambda;
  gain_.lambda = lambda;
  config_.max_depth = max_depth;
  ceiling_ = config_.depth_ceiling();
  // Under re-evaluation every leaf keeps its histogram whatever its depth;
  // before the edges exist only the root lives and takes its slab with them.
  if (reeval_ || !edges_ready_) return;
  for (std::uint32_t n = 0; n < route_.size(); ++n) {
    if (!is_leaf(n)) continue;
    const bool splittable = depth_[n] < ceiling_;
    if (!splittable && slab_[n] != HistogramPool::kNone) {
      pool_.release(slab_[n]);
      slab_[n] = HistogramPool::kNone;
    } else if (splittable && slab_[n] == HistogramPool::kNone) {
      slab_[n] = pool_.acquire();
    }
  }
}

std::uint32_t GradientTree::depth() const {
  std::uint32_t d = 0;
  for (std::size_t n = 0; n < route_.size(); ++n)
    if (route_[n].left == 0) d = std::max<std::uint32_t>(d, depth_[n]);
  return d;
}

double GradientTree::learn_one(std::span<const double> x, double g, double h, std::uint32_t repeats) {
  std::uint32_t leaf = leaf_index(x);
  const double before = leaf_predict(leaf, x);
  for (std::uint32_t r = 0; r < repeats; ++r) {
    if (train_leaf(leaf, x, g, h)) leaf = leaf_index(x);
  }
  return before;
}

void GradientTree::accumulate(std::uint32_t slab, std::span<const double> x, double g, double h) noexcept {
  if (cat_) return accumulate_categorical(slab, x, g, h);
  double m = 1.0;
  if (config_.leaf_decay_alpha > 0.0) m = pool_.decay_step(slab, config_.leaf_decay_alpha);
  const double gs = g * m, hs = h * m;
  GradBin* bins = pool_.bins(slab);
  for (std::size_t f = 0; f < n_features_; ++f) {
    const double v = x[f];
    if (v != v) continue;  // missing: only in the total, credited left at split time
    GradBin& b = bins[offset_[f] + edges_[f].find_bin(v)];
    b.g += gs;
    b.h += hs;
    ++b.count;
  }
  GradBin& t = pool_.total(slab);
  t.g += gs;
  t.h += hs;
  ++t.count;
}

double GradientTree::leaf_output(double g, double h, double lo, double hi) const noexcept {
  double v = config_.min_hessian_sum > 0.0 && h < config_.min_hessian_sum ? 0.0 : leaf_weight(g, h, config_.lambda);
  const double m = config_.max_leaf_output;
  if (m > 0.0) v = std::clamp(v, -m, m);
  return std::clamp(v, lo, hi);
}

double GradientTree::learned_leaf_output(std::uint32_t leaf) noexcept {
  const double k = config_.adaptive_leaf_bound;
  if (!(k > 0.0)) return leaf_output(g_sum_[leaf], h_sum_[leaf], node_lo(leaf), node_hi(leaf));
  const double h = h_sum_[leaf];
  double v = config_.min_hessian_sum > 0.0 && h < config_.min_hessian_sum ? 0.0 : leaf_weight(g_sum_[leaf], h, config_.lambda);
  // As for gradient clipping: bounded by the values before it, folded in
  // bounded, so one wild value cannot widen its own bound.
  std::uint64_t& n = out_n_[leaf];
  const double a = config_.leaf_decay_alpha;
  if (n >= 10) {
    const double var = a > 0.0 ? out_m2_[leaf] : out_m2_[leaf] / static_cast<double>(n - 1);
    const double bound = std::max(std::abs(out_mean_[leaf]) + k * std::sqrt(var), 0.01);
    v = std::clamp(v, -bound, bound);
  } else if (config_.max_leaf_output > 0.0) {
    v = std::clamp(v, -config_.max_leaf_output, config_.max_leaf_output);
  }
  ++n;
  const double d = v - out_mean_[leaf];
  if (a > 0.0) {  // exponentially weighted mean and variance
    out_mean_[leaf] = n == 1 ? v : out_mean_[leaf] + (1.0 - a) * d;
    out_m2_[leaf] = n == 1 ? 0.0 : a * (out_m2_[leaf] + (1.0 - a) * d * d);
  } else {
    out_mean_[leaf] += d / static_cast<double>(n);
    out_m2_[leaf] += d * (v - out_mean_[leaf]);
  }
  return std::clamp(v, node_lo(leaf), node_hi(leaf));
}

double GradientTree::clip_gradient(std::uint32_t leaf, double g) noexcept {
  // Clamped against the statistics of the gradients before it, and folded in
  // clipped: the Rust library folds first, so an outlier widens its own bound by
  // its own size (1e6 among values near 1 would pass at a third of itself).
  std::uint64_t& n = clip_n_[leaf];
  if (n >= 10) {
    const double sd = std::sqrt(clip_m2_[leaf] / static_cast<double>(n - 1));
    const double k = config_.gradient_clip_sigma;
    if (sd > 1e-15) g = std::clamp(g, clip_mean_[leaf] - k * sd, clip_mean_[leaf] + k * sd);
  }
  ++n;
  const double d = g - clip_mean_[leaf];
  clip_mean_[leaf] += d / static_cast<double>(n);
  clip_m2_[leaf] += d * (g - clip_mean_[leaf]);
  return g;
}

void GradientTree::add_to_leaf_sums(std::uint32_t leaf, double g, double h) noexcept {
  const double a = config_.leaf_decay_alpha;
  if (a > 0.0) {
    g_sum_[leaf] = a * g_sum_[leaf] + g;
    h_sum_[leaf] = a * h_sum_[leaf] + h;
  } else {
    g_sum_[leaf] += g;
    h_sum_[leaf] += h;
  }
}

// The leaf update with options or extensions, out of line so that the plain
// path of train_leaf stays small enough to inline. Returns g as the histogram
// must see it (clipped when gradient clipping is on).
__attribute__((noinline)) double GradientTree::train_leaf_value_general(std::uint32_t leaf, std::span<const double> x,
                                                                         double g, double h) {
  if (config_.gradient_clip_sigma > 0.0) g = clip_gradient(leaf, g);
  if (linear_) train_linear(leaf, x, g, h);  // before the Newton weight moves: it is the intercept it corrects
  add_to_leaf_sums(leaf, g, h);
  value_[leaf] = config_.has_options() ? learned_leaf_output(leaf) : leaf_weight(g_sum_[leaf], h_sum_[leaf], config_.lambda);
  if (config_.interpolate && leaf != 0) {
    // H + lambda > 0 here: a zero lambda with a zero hessian sum keeps the plain value.
    const double h_sum = std::max(h_sum_[leaf], 0.0), total = h_sum + config_.lambda;
    if (total > 0.0) {
      const double a = h_sum / total;
      value_[leaf] = a * value_[leaf] + (1.0 - a) * prior_[leaf];
    }
  }
  return g;
}

bool GradientTree::train_leaf(std::uint32_t leaf, std::span<const double> x, double g, double h) {
  if (samples_seen_ == 0) {
    reserve_nodes();
    if (!edges_ready_ && n_features_ != x.size()) init_features(x.size());
  }
  assert(x.size() == n_features_);
  ++samples_seen_;
  const std::uint64_t n = ++count_[leaf];
  // Without leaf options or extensions (the common case) the value is the
  // plain Newton step: one test of a flag fixed at construction, no
  // per-option checks.
  if (plain_) [[likely]] {
    add_to_leaf_sums(leaf, g, h);
    value_[leaf] = std::clamp(leaf_weight(g_sum_[leaf], h_sum_[leaf], config_.lambda), -leaf_bound_, leaf_bound_);
  } else {
    g = train_leaf_value_general(leaf, x, g, h);
  }

  if (!edges_ready_) {  // only the root exists: learn the bin edges
    for (std::size_t f = 0; f < n_features_; ++f) binners_[f].observe(x[f]);
    const bool replay = config_.warm_start != 0;
    if (replay) {
      warm_rows_.insert(warm_rows_.end(), x.begin(), x.end());
      warm_rows_.push_back(g);
      warm_rows_.push_back(h);
    }
    // The edges never wait past the first split attempt.
    if (n >= std::min(replay ? config_.warm_start : config_.grace_period, config_.grace_period)) {
      build_edges();
      if (depth_[leaf] < ceiling_ || reeval_) {
        slab_[leaf] = pool_.acquire();
        if (!replay) {
          accumulate(slab_[leaf], x, g, h);  // earlier samples are not replayed
        } else {
          // The rows that set the range count too (this one among them).
          const std::size_t stride = n_features_ + 2;
          for (std::size_t r = 0; r + stride <= warm_rows_.size(); r += stride)
            accumulate(slab_[leaf], std::span<const double>(warm_rows_.data() + r, n_features_),
                       warm_rows_[r + n_features_], warm_rows_[r + n_features_ + 1]);
        }
      }
      warm_rows_.clear();
      warm_rows_.shrink_to_fit();
      if (replay && slab_[leaf] != HistogramPool::kNone && n % config_.grace_period == 0) return attempt_split(leaf);
    }
    return false;
  }
  const std::uint32_t slab = slab_[leaf];
  if (slab == HistogramPool::kNone) return false;
  accumulate(slab, x, g, h);
  if (n % config_.grace_period != 0) return false;
  return attempt_split(leaf);
}


void GradientTree::draw_feature_mask() {
  mask_.clear();
  const double rate = config_.feature_subsample;
  if (rate >= 1.0) {
    for (std::uint32_t f = 0; f < n_features_; ++f) mask_.push_back(f);
    return;
  }
  const auto want = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(rate * static_cast<double>(n_features_))));
  for (std::uint32_t f = 0; f < n_features_; ++f)
    if (rng_.uniform() < rate) mask_.push_back(f);
  // Top up deterministically, lowest index first, so every attempt scores at
  // least ceil(rate * n) features.
  for (std::uint32_t f = 0; f < n_features_ && mask_.size() < want; ++f) {
    if (std::find(mask_.begin(), mask_.end(), f) == mask_.end()) mask_.push_back(f);
  }
}

bool GradientTree::find_best(const GradBin* bins, const GradBin& total, SplitCandidate& best, double& second,
                              std::uint64_t& best_cats) {
  const double gt = total.g, ht = total.h;
  const std::uint64_t nt = total.count;
  SplitCandidate cand;
  second = 0.0;
  bool found = false;
  best_cats = 0;
  std::uint64_t cats = 0;  // category mask of cand
  GainParams gp = gain_;
  const bool monotone = !config_.monotone.empty();
  for (std::uint32_t f : mask_) {
    const GradBin* fb = bins + offset_[f];
    const std::uint32_t nb = edges_[f].n_bins();
    cats = 0;
    if (cat_ && is_cat_[f]) {
      if (!best_category_split(fb, gt, ht, gain_, cand, cats, nt, config_.categorical_penalty)) continue;
    } else {
      double gf = 0.0, hf = 0.0;
      std::uint64_t nf = 0;
      for (std::uint32_t b = 0; b < nb; ++b) {
        gf += fb[b].g;
        hf += fb[b].h;
        nf += fb[b].count;
      }
      if (monotone) gp.monotone = config_.monotone_of(f);
      if (!best_split(fb, nb, gt, ht, gt - gf, ht - hf, gp, cand, nt, nt - nf)) continue;
    }
    cand.feature = f;
    if (!found || cand.gain > best.gain) {
      if (found) second = best.gain;
      best = cand;
      best_cats = cats;
      found = true;
    } else {
      second = std::max(second, cand.gain);
    }
  }
  return found;
}

bool GradientTree::attempt_split(std::uint32_t leaf) {
  if (n_features_ == 0) return false;
  if (depth_[leaf] >= ceiling_) return reeval_ && reevaluate(leaf);
  ++split_attempts_;
  const std::uint32_t slab = slab_[leaf];
  if (config_.leaf_decay_alpha > 0.0) pool_.materialize(slab);
  draw_feature_mask();
  SplitCandidate best;
  double second = 0.0;
  std::uint64_t best_cats = 0;
  if (!find_best(pool_.bins(slab), pool_.total(slab), best, second, best_cats)) return false;

  double n_eff = static_cast<double>(count_[leaf]);
  if (config_.leaf_decay_alpha > 0.0) n_eff = std::min(n_eff, 1.0 / (1.0 - config_.leaf_decay_alpha));
  // CIR gate (adaptive depth, the Rust library's 1.0 formula): a split must pay
  // c / (n x features) before the Hoeffding test is even asked.
  if (config_.adaptive_depth > 0.0 &&
      best.gain <= config_.adaptive_depth / (n_eff * static_cast<double>(n_features_)))
    return false;
  const double r = config_.hoeffding_r;
  const double eps = std::sqrt(r * r * std::log(1.0 / config_.delta) / (2.0 * n_eff));
  if (!(best.gain - second > eps || eps < config_.tie_threshold)) return false;

  const auto left = static_cast<std::uint32_t>(route_.size());
  const auto child_depth = static_cast<std::uint16_t>(depth_[leaf] + 1);
  const bool by_set = cat_ && is_cat_[best.feature];
  route_[leaf] = RouteNode{by_set ? 0.0 : edges_[best.feature].upper_edge(best.bin), best.feature, left};
  if (by_set) cat_mask_[leaf] = best_cats;
  pool_.release(slab);
  slab_[leaf] = HistogramPool::kNone;
  set_children(leaf, best, true);
  if (child_depth < ceiling_ || reeval_) {
    slab_[left] = pool_.acquire();
    slab_[left + 1] = pool_.acquire();
  }
  split_gains_[best.feature] += best.gain;
  // Splits at max_depth - 1 free a slab and take none; once free slabs
  // outnumber live ones by two, give them back (the margin keeps a couple
  // for the next shallower splits). A full-grown tree keeps none.
  const std::size_t live = pool_.live_slabs(), free = pool_.free_slabs();
  if (free > live + 1 || (live == 0 && free > 0)) pool_.compact(slab_);
  return true;
}

void GradientTree::set_children(std::uint32_t parent, const SplitCandidate& best, bool fresh) {
  // Monotone bounds: children inherit the parent's; a split on a constrained
  // feature also cuts them at the midpoint of the children's values, so every
  // leaf left of it stays on one side of every leaf right of it.
  const double lo = node_lo(parent), hi = node_hi(parent);
  const double wl = leaf_output(best.gl, best.hl, lo, hi), wr = leaf_output(best.gr, best.hr, lo, hi);
  double llo = lo, lhi = hi, rlo = lo, rhi = hi;
  const bool by_set = cat_ && is_cat_[best.feature];  // category sets carry no order
  if (const std::int8_t m = by_set ? 0 : config_.monotone_of(best.feature); m != 0) {
    const double mid = std::clamp(0.5 * (wl + wr), lo, hi);
    if (m > 0) {
      lhi = mid;
      rlo = mid;
    } else {
      llo = mid;
      rhi = mid;
    }
  }
  const std::uint32_t left = route_[parent].left;
  const auto child_depth = static_cast<std::uint16_t>(depth_[parent] + 1);
  if (fresh) {
    push_leaf(child_depth, std::clamp(wl, llo, lhi), llo, lhi);
    push_leaf(child_depth, std::clamp(wr, rlo, rhi), rlo, rhi);
  } else {  // a re-made split: the children restart as fresh leaves in place
    const double v[2] = {std::clamp(wl, llo, lhi), std::clamp(wr, rlo, rhi)};
    const double b[4] = {llo, lhi, rlo, rhi};
    for (std::uint32_t k = 0; k < 2; ++k) {
      const std::uint32_t c = left + k;
      value_[c] = v[k];
      count_[c] = 0;
      g_sum_[c] = 0.0;
      h_sum_[c] = 0.0;
      if (!lo_.empty()) {
        lo_[c] = b[2 * k];
        hi_[c] = b[2 * k + 1];
      }
      if (!clip_n_.empty()) {
        clip_n_[c] = 0;
        clip_mean_[c] = 0.0;
        clip_m2_[c] = 0.0;
      }
      if (!out_n_.empty()) {
        out_n_[c] = 0;
        out_mean_[c] = 0.0;
        out_m2_[c] = 0.0;
      }
    }
  }
  if (config_.interpolate) prior_[left] = prior_[left + 1] = value_[parent];
  if (linear_) {
    // Linear: warm start from the parent's model; adaptive: children decide
    // afresh (the Rust library's clone_fresh), so they start constant with w = 0.
    const bool warm = config_.leaf_model == TreeLeafModel::kLinear || config_.leaf_model == TreeLeafModel::kMlp;
    init_linear_node(left, parent, warm);
    init_linear_node(left + 1, parent, warm);
  }
}

std::size_t GradientTree::memory_bytes() const {
  std::size_t b = sizeof(*this) + pool_.memory_bytes() - sizeof(pool_);
  for (const auto& x : binners_) b += x.memory_bytes();
  for (const auto& e : edges_) b += e.memory_bytes();
  b += offset_.capacity() * 4 + route_.capacity() * sizeof(RouteNode) + value_.capacity() * 8 +
       depth_.capacity() * 2 + count_.capacity() * 8 + g_sum_.capacity() * 8 + h_sum_.capacity() * 8 +
       slab_.capacity() * 4 + split_gains_.capacity() * 8 + mask_.capacity() * 4 +
       (lo_.capacity() + hi_.capacity() + prior_.capacity() + clip_mean_.capacity() + clip_m2_.capacity()) * 8 +
       clip_n_.capacity() * 8 +
       (out_n_.capacity() + out_mean_.capacity() + out_m2_.capacity()) * 8 +
       (lin_w_.capacity() + lin_mean_.capacity() + lin_power_.capacity() + lin_g2_.capacity() + mlp_.capacity() +
        adv_n_.capacity() +
        adv_sum_.capacity() + adv_max_.capacity()) * 8 +
       promoted_.capacity() + merged_.capacity() * sizeof(GradBin) + is_cat_.capacity() + cat_mask_.capacity() * 8 +
       warm_rows_.capacity() * 8;
  return b;
}

}  // namespace irithyll
