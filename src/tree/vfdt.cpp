// Vfdt construction, routing and the learn step (see irithyll/tree/vfdt.hpp).
#include "irithyll/tree/vfdt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tree/category_split.hpp"

namespace irithyll {

namespace {
// Adaptive regression leaves: the fading factor of each predictor's squared
// error, River's model_selector_decay default (a memory of about 20 samples).
constexpr double kSelectorDecay = 0.95;
}  // namespace

Vfdt::Vfdt(const HoeffdingTreeConfig& config, Task task, std::size_t n_classes, std::size_t n_features,
           std::size_t subspace, std::uint64_t seed)
    : config_(config),
      task_(task),
      n_classes_(task == Task::kClassification ? n_classes : 0),
      n_features_(n_features),
      subspace_(subspace == 0 || subspace > n_features ? n_features : subspace),
      seed_(seed) {
  compute_layout();
  reset();
}

void Vfdt::compute_layout() {
  const bool cls = task_ == Task::kClassification;
  gaussian_ = cls && config_.numeric == NumericEstimator::kGaussian;
  adaptive_ = !cls && config_.leaf_model == LeafModel::kAdaptive;
  linear_ = !cls && (config_.leaf_model == LeafModel::kLinear || adaptive_);
  head_size_ = cls ? n_classes_ : 3;
  linear_size_ = linear_ ? n_features_ + 1 : 0;
  bin_stride_ = cls ? n_classes_ : 3;
  obs_size_ = gaussian_ ? 5 * n_classes_ : 3 + config_.n_bins * bin_stride_;
  static_assert(kNominalRows == kCategoryBins);
  nominal_.assign(n_features_, 0);
  any_nominal_ = false;
  for (std::uint32_t f : config_.categorical)
    if (f < n_features_) nominal_[f] = 1, any_nominal_ = true;
  if (any_nominal_) obs_size_ = std::max(obs_size_, kCategoryBins * bin_stride_);
  cand_branches_.assign(any_nominal_ ? kCategoryBins * bin_stride_ : 0, 0.0);
  best_branches_.assign(cand_branches_.size(), 0.0);
  log_scores_.assign(cls ? n_classes_ : 0, 0.0);
  proba_.assign(cls ? n_classes_ : 0, 0.0);
  var_product_.assign(cls ? n_classes_ : 0, 1.0);
  nb_cache_ = NbCache{};
  nb_cache_.x.assign(n_features_, 0.0);
  route_cache_ = RouteCache{};
  route_cache_.x.assign(n_features_, 0.0);
  for (auto* v : {&cand_left_, &cand_right_, &best_left_, &best_right_, &tmp_left_, &tmp_right_, &tmp_total_})
    v->assign(head_size_, 0.0);
  gauss_.assign(cls ? 2 * n_classes_ : 0, 0.0);
  perm_.resize(n_features_);
  lin_z_.assign(linear_ ? n_features_ : 0, 0.0);
}

void Vfdt::reset() {
  rng_ = Xorshift64(seed_);
  nb_cache_.valid = false;
  route_cache_.valid = false;
  nodes_.clear();
  leaves_.clear();
  free_.clear();
  feat_min_.assign(n_features_, std::numeric_limits<double>::infinity());
  feat_max_.assign(n_features_, -std::numeric_limits<double>::infinity());
  feat_moments_.assign(3 * n_features_, 0.0);
  nodes_.push_back(Node{0.0, -1, new_leaf_slot(), 0});
  std::vector<double> empty(head_size_, 0.0);
  init_leaf(leaves_[0], 0, empty);
}

std::uint32_t Vfdt::new_leaf_slot() {
  if (!free_.empty()) {
    const std::uint32_t s = free_.back();
    free_.pop_back();
    return s;
  }
  leaves_.emplace_back();
  return static_cast<std::uint32_t>(leaves_.size() - 1);
}

void Vfdt::init_leaf(Leaf& leaf, std::uint32_t depth, std::span<const double> head, const double* parent_linear) {
  // A leaf's subspace: the first m of a partial Fisher-Yates shuffle.
  leaf.features.resize(subspace_);
  if (subspace_ == n_features_) {
    for (std::size_t j = 0; j < subspace_; ++j) leaf.features[j] = static_cast<std::uint32_t>(j);
  } else {
    for (std::size_t j = 0; j < n_features_; ++j) perm_[j] = static_cast<std::uint32_t>(j);
    for (std::size_t j = 0; j < subspace_; ++j) {
      const std::size_t k = j + static_cast<std::size_t>(rng_.below(n_features_ - j));
      std::swap(perm_[j], perm_[k]);
      leaf.features[j] = perm_[j];
    }
  }
  leaf.stats.assign(stats_size(leaf), 0.0);
  std::copy(head.begin(), head.end(), leaf.stats.begin());
  if (parent_linear != nullptr) {
    double* wts = leaf.stats.data() + head_size_;
    for (std::size_t j = 0; j < n_features_; ++j) wts[j] = parent_linear[j];
    // The child's own mean replaces the parent's in mean + w.z + b: the
    // bias takes the difference, so the child predicts what the parent did.
    wts[n_features_] = parent_linear[n_features_] + parent_linear[n_features_ + 1] - leaf.stats[1];
  }
  leaf.depth = depth;
  leaf.mc_correct = leaf.nb_correct = 0.0;
  // A child inherits the share of its parent's observations that its
  // predicted weight stands for (0 at the root, whose head is empty).
  leaf.n_obs = config_.count_observations ? leaf_weight(leaf) * obs_per_weight_ : 0.0;
  leaf.weight_at_attempt = leaf_n(leaf);
}

const double* Vfdt::inherit_linear_from(std::size_t node) {
  // Children start as copies of the parent's linear model instead of zero
  // weights (FIMT-DD, Ikonomovska et al. 2011: a split leaf's perceptron is
  // copied into its children), so a split keeps what the leaf has fitted and
  // changes no prediction at once; the children then fit their own regions.
  if (!linear_ || nodes_[node].feature >= 0) return nullptr;
  const Leaf& parent = leaves_[nodes_[node].a];
  inherit_.assign(n_features_ + 2, 0.0);
  const double* wts = parent.stats.data() + head_size_;
  for (std::size_t j = 0; j <= n_features_; ++j) inherit_[j] = wts[j];
  inherit_[n_features_ + 1] = parent.stats[1];
  return inherit_.data();
}

double Vfdt::leaf_weight(const Leaf& leaf) const {
  if (task_ == Task::kRegression) return leaf.stats[0];
  double w = 0.0;
  for (std::size_t c = 0; c < n_classes_; ++c) w += leaf.stats[c];
  return w;
}

std::size_t Vfdt::find_leaf_node(std::span<const double> x, std::size_t start) const {
  std::size_t n = start;
  while (nodes_[n].feature >= 0) n = child_of(nodes_[n], x);
  return n;
}

std::size_t Vfdt::route(const Node& node, double v) const {
  const int c = category_code(v);
  if (node.kind == kEqual) return c >= 0 && static_cast<double>(c) == node.threshold ? node.a : node.b;
  return c >= 0 && static_cast<double>(c) < node.threshold ? node.a + static_cast<std::uint32_t>(c) : node.b;
}

std::size_t Vfdt::leaf_node_of(std::span<const double> x) const {
  RouteCache& rc = route_cache_;
  if (rc.valid && x.size() == rc.x.size() && std::equal(x.begin(), x.end(), rc.x.begin())) return rc.node;
  rc.node = find_leaf_node(x);
  rc.valid = x.size() == rc.x.size();
  if (rc.valid) std::copy(x.begin(), x.end(), rc.x.begin());
  return rc.node;
}

void Vfdt::route_together(std::span<const Vfdt* const> trees, std::span<const std::span<const double>> xs) {
  constexpr std::size_t kGroup = 16;  // walks in flight at once
  for (std::size_t first = 0; first < trees.size(); first += kGroup) {
    const std::size_t n = std::min(kGroup, trees.size() - first);
    std::uint32_t at[kGroup];
    std::size_t live = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Vfdt& t = *trees[first + i];
      at[i] = t.nodes_.empty() || xs[first + i].size() != t.route_cache_.x.size() ? kNoRoute : 0;
      live += at[i] != kNoRoute;
    }
    while (live > 0) {
      for (std::size_t i = 0; i < n; ++i) {
        if (at[i] == kNoRoute) continue;
        const Vfdt& t = *trees[first + i];
        const Node& node = t.nodes_[at[i]];
        if (node.feature >= 0) {
          at[i] = static_cast<std::uint32_t>(t.child_of(node, xs[first + i]));
          continue;
        }
        RouteCache& rc = t.route_cache_;
        rc.node = at[i];
        rc.valid = true;
        std::copy(xs[first + i].begin(), xs[first + i].end(), rc.x.begin());
        // The leaf's statistics are the next thing its prediction reads.
        const Leaf& leaf = t.leaves_[node.a];
        __builtin_prefetch(leaf.stats.data());
        at[i] = kNoRoute;
        --live;
      }
    }
  }
}

double Vfdt::learn_one(std::span<const double> x, double y, double w) {
  const std::size_t node = leaf_node_of(x);
  track_features(x, w);
  Leaf& leaf = leaves_[nodes_[node].a];
  const double before = learn_leaf(leaf, x, y, w);
  if (split_due(leaf)) attempt_split(node);
  return before;
}

void Vfdt::track_features(std::span<const double> x, double w) {
  // Per-feature range and moments over every sample (histogram widths,
  // linear-leaf standardisation): weighted Welford.
  for (std::size_t f = 0; f < n_features_; ++f) {
    const double v = x[f];
    if (!std::isfinite(v)) continue;
    feat_min_[f] = std::min(feat_min_[f], v);
    feat_max_[f] = std::max(feat_max_[f], v);
    if (linear_) {
      double* m = &feat_moments_[3 * f];
      m[0] += w;
      const double d = v - m[1];
      m[1] += w * d / m[0];
      m[2] += w * d * (v - m[1]);
    }
  }
}

double Vfdt::learn_leaf(Leaf& leaf, std::span<const double> x, double y, double w) {
  double before = 0.0;
  if (task_ == Task::kClassification) {
    const auto yc = static_cast<std::size_t>(y);
    const std::size_t mc = majority_class(leaf);
    std::size_t pred = mc;
    if (config_.leaf_model != LeafModel::kMajority && leaf_weight(leaf) > 0.0) {
      const std::size_t nb = naive_bayes_class_cached(leaf, x);
      if (config_.leaf_model == LeafModel::kNaiveBayes || use_naive_bayes(leaf)) pred = nb;
      // Adaptive leaves score both predictors on the sample before learning it.
      leaf.mc_correct += mc == yc ? w : 0.0;
      leaf.nb_correct += nb == yc ? w : 0.0;
    }
    before = static_cast<double>(pred);
  } else {
    // The linear output once: linear_value leaves the standardised inputs in
    // lin_z_ for the step.
    const double lin = linear_value(leaf, x);
    before = use_mean(leaf) ? leaf.stats[1] : lin;
    if (adaptive_) {
      // Both predictors scored on the sample before learning it; weight w
      // counts as w repetitions: decay^w, plus w squared errors.
      const double e_mean = y - leaf.stats[1], e_lin = y - lin;
      const double fade = w == 1.0 ? kSelectorDecay : std::pow(kSelectorDecay, w);
      if (std::isfinite(e_lin)) {
        leaf.mc_correct = fade * leaf.mc_correct + w * e_mean * e_mean;
        leaf.nb_correct = fade * leaf.nb_correct + w * e_lin * e_lin;
      }
    }
    if (linear_) update_linear(leaf, y - lin, w);
  }
  nb_cache_.valid = false;  // the statistics change from here
  route_cache_.valid = false;  // and a split may follow
  observe(leaf, x, y, w);
  leaf.n_obs += config_.count_observations ? 1.0 : 0.0;
  return before;
}

bool Vfdt::split_due(Leaf& leaf) {
  // Grace period: the leaf weight is a float sum that started from the
  // fractional weights the split predicted, so after 200 unit samples the
  // difference can read 199.99999999999994 and the attempt would slip a
  // sample, depending on the last bit of an erfc; a relative slack keeps it
  // on the 200th sample whatever the rounding.
  const double lw = leaf_n(leaf);
  if (lw - leaf.weight_at_attempt >= static_cast<double>(config_.grace_period) - 1e-9 * lw &&
      (config_.max_depth == 0 || leaf.depth < config_.max_depth)) {
    leaf.weight_at_attempt = lw;
    return true;
  }
  return false;
}

double Vfdt::predict_one(std::span<const double> x) const {
  const Leaf& leaf = leaves_[nodes_[leaf_node_of(x)].a];
  if (task_ == Task::kRegression) return leaf_value(leaf, x);
  return static_cast<double>(leaf_class(leaf, x));
}

void Vfdt::predict_proba(std::span<const double> x, std::span<double> proba) const {
  leaf_proba(leaves_[nodes_[leaf_node_of(x)].a], x, proba);
}

std::size_t Vfdt::depth() const {
  std::size_t d = 0;
  for (const Node& n : nodes_)
    if (n.feature < 0) d = std::max<std::size_t>(d, leaves_[n.a].depth);
  return d;
}

std::size_t Vfdt::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + nodes_.capacity() * sizeof(Node) + leaves_.capacity() * sizeof(Leaf) +
                      free_.capacity() * sizeof(std::uint32_t) + perm_.capacity() * sizeof(std::uint32_t) +
                      (inherit_.capacity() + lin_z_.capacity()) * sizeof(double);
  for (const Leaf& l : leaves_) bytes += l.features.capacity() * sizeof(std::uint32_t) + l.stats.capacity() * sizeof(double);
  for (const std::vector<double>* v : std::initializer_list<const std::vector<double>*>{&feat_min_, &feat_max_, &feat_moments_, &log_scores_, &proba_, &var_product_, &nb_cache_.x, &route_cache_.x, &cand_left_, &cand_right_,
                        &best_left_, &best_right_, &tmp_left_, &tmp_right_, &tmp_total_, &gauss_})
    bytes += v->capacity() * sizeof(double);
  return bytes;
}

}  // namespace irithyll
