// AdaptiveVfdt learn step: HAT's per-node ADWIN and alternate subtrees,
// EFDT's early splits and re-evaluation (see irithyll/tree/adaptive_vfdt.hpp).
#include "irithyll/tree/adaptive_vfdt.hpp"

#include <algorithm>
#include <cmath>

#include "irithyll/core/poisson.hpp"

namespace irithyll {

namespace {
const double kExpNegOne = std::exp(-1.0);
}  // namespace

AdaptiveVfdt::AdaptiveVfdt(const HoeffdingTreeConfig& config, const AdaptiveTreeOptions& options, Task task,
                           std::size_t n_classes, std::size_t n_features, std::uint64_t seed)
    : Vfdt(config, task, n_classes, n_features, 0, seed), options_(options) {
  reset();
}

void AdaptiveVfdt::reset() {
  Vfdt::reset();
  ext_.assign(1, NodeExt{});
  detectors_.clear();
  counters_ = Counters{};
  first_split_weight_ = weight_seen_ = 0.0;
  dirty_ = false;
}

void AdaptiveVfdt::learn_one(std::span<const double> x, double y, double w) {
  // Alternates may replace subtrees before any leaf learns (or with none
  // learning at all): no route remembered from a prediction survives.
  route_cache_.valid = false;
  track_features(x, w);
  weight_seen_ += w;
  if (options_.mode == AdaptiveTreeOptions::Mode::kHat) {
    learn_hat(0, x, y, w, 0);
  } else {
    learn_efdt(x, y, w);
  }
  if (dirty_) compact();
  if (first_split_weight_ == 0.0 && nodes_[0].feature >= 0) first_split_weight_ = weight_seen_;
}

void AdaptiveVfdt::sync_nodes(std::size_t first_new) {
  ext_.resize(nodes_.size());
  for (std::size_t i = first_new; i < nodes_.size(); ++i) {
    ext_[i] = NodeExt{};
    if (nodes_[i].feature < 0) ext_[i].depth = leaves_[nodes_[i].a].depth;
  }
}

std::uint32_t AdaptiveVfdt::new_detector() {
  // An ADWIN is 6.3 KB: grow by a quarter, not the vector's doubling.
  if (detectors_.size() == detectors_.capacity()) detectors_.reserve(detectors_.size() + detectors_.size() / 4 + 1);
  detectors_.emplace_back(options_.adwin_delta);
  return static_cast<std::uint32_t>(detectors_.size() - 1);
}

// ---- Hoeffding Adaptive Tree ----

double AdaptiveVfdt::hat_error(NodeExt& e, double y, double predicted) {
  if (task_ == Task::kClassification) return predicted == y ? 0.0 : 1.0;
  // |error| min-max normalised over mean +- 3 sd of the node's errors so far
  // (Welford), clipped to ADWIN's [0, 1].
  const double err = std::abs(y - predicted);
  if (!std::isfinite(err)) return 0.5;
  e.err_n += 1.0;
  const double d = err - e.err_mean;
  e.err_mean += d / e.err_n;
  e.err_m2 += d * (err - e.err_mean);
  if (e.err_n < 2.0) return 0.5;
  const double sd = std::sqrt(std::max(e.err_m2, 0.0) / (e.err_n - 1.0));
  if (!(sd > 0.0)) return 0.5;
  return std::clamp((err - e.err_mean + 3.0 * sd) / (6.0 * sd), 0.0, 1.0);
}

double AdaptiveVfdt::subtree_prediction(std::size_t n, std::span<const double> x) const {
  const Leaf& leaf = leaves_[nodes_[find_leaf_node(x, n)].a];
  if (task_ == Task::kRegression) return leaf_value(leaf, x);
  return static_cast<double>(leaf_class(leaf, x));
}

bool AdaptiveVfdt::learn_hat(std::size_t n, std::span<const double> x, double y, double w, std::uint32_t nesting) {
  // Down the main path iteratively; alternates recursively.
  const std::size_t start = n;
  for (;;) {
    if (nodes_[n].feature < 0) {
      double lw = w;
      if (options_.bootstrap) {
        const std::uint32_t k = sample_poisson_limit(rng_, kExpNegOne);
        if (k == 0 && task_ == Task::kRegression) {
          // Regression leaves k = 0 out (see the header); its error still counts.
          if (ext_[n].det != kNoSlot) detectors_[ext_[n].det].update(hat_error(ext_[n], y, subtree_prediction(n, x)));
          return false;
        }
        // Classification: k = 0 keeps weight w (MOA's and River's rule; see the header).
        lw = k == 0 ? w : w * static_cast<double>(k);
      }
      const double before = learn_leaf(leaves_[nodes_[n].a], x, y, lw);
      if (ext_[n].det != kNoSlot) detectors_[ext_[n].det].update(hat_error(ext_[n], y, before));
      if (split_due(leaves_[nodes_[n].a])) {
        const std::size_t size = nodes_.size();
        attempt_split(n);
        if (nodes_.size() != size) {
          // A new routing node watches its own subtree's error from scratch.
          sync_nodes(size);
          NodeExt& e = ext_[n];
          e.err_n = e.err_mean = e.err_m2 = 0.0;
          if (e.det == kNoSlot) {
            e.det = new_detector();
          } else {
            detectors_[e.det] = Adwin(options_.adwin_delta);
          }
          return n == start;
        }
      }
      return false;
    }
    const double predicted = subtree_prediction(n, x);
    Adwin& detector = detectors_[ext_[n].det];
    const double before = detector.estimated_mean();
    const bool drift = detector.update(hat_error(ext_[n], y, predicted)) == DriftSignal::kDrift;
    // Only a rise of the error starts an alternate.
    if (drift && !(before > detector.estimated_mean()) && nesting < kMaxNesting) {
      if (ext_[n].alt != 0) dirty_ = true;  // the previous alternate is dropped
      const std::uint32_t slot = new_leaf_slot();
      const std::uint32_t depth = ext_[n].depth;
      std::fill(tmp_total_.begin(), tmp_total_.end(), 0.0);
      init_leaf(leaves_[slot], depth, tmp_total_);
      const std::size_t alt = nodes_.size();
      nodes_.push_back(Node{0.0, -1, slot, 0});
      sync_nodes(alt);
      ext_[alt].det = new_detector();  // may move detectors_
      ext_[n].alt = static_cast<std::uint32_t>(alt);
      ++counters_.alternates;
    } else if (ext_[n].alt != 0 && hat_switch(n)) {
      continue;  // n now holds the former alternate, which learns the sample
    }
    if (ext_[n].alt != 0 && learn_hat(ext_[n].alt, x, y, w, nesting + 1)) {
      // The alternate's root leaf split: it takes n's place at once (MOA's
      // and River's rule; see the header). It has learned the sample.
      promote_alternate(n);
      return false;
    }
    n = child_of(nodes_[n], x);
  }
}

void AdaptiveVfdt::promote_alternate(std::size_t n) {
  // The alternate takes the node's place; the old subtree and the
  // alternate's old index become unreachable (compact() frees them).
  const std::size_t alt = ext_[n].alt;
  const std::uint32_t depth = ext_[n].depth;
  nodes_[n] = nodes_[alt];
  ext_[n] = ext_[alt];
  ext_[n].depth = depth;
  ++counters_.switches;
  dirty_ = true;
}

bool AdaptiveVfdt::hat_switch(std::size_t n) {
  const std::size_t alt = ext_[n].alt;
  const Adwin& main = detectors_[ext_[n].det];
  const Adwin& other = detectors_[ext_[alt].det];
  if (!(main.width() > options_.drift_window && other.width() > options_.drift_window)) return false;
  const double p = main.estimated_mean(), q = other.estimated_mean();
  const double pc = std::clamp(p, 0.0, 1.0);
  const double inv_n = 1.0 / static_cast<double>(other.width()) + 1.0 / static_cast<double>(main.width());
  const double bound = std::sqrt(2.0 * pc * (1.0 - pc) * std::log(2.0 / options_.switch_significance) * inv_n);
  if (bound < p - q) {
    promote_alternate(n);
    return true;
  }
  if (bound < q - p) {
    ext_[n].alt = 0;
    ++counters_.prunes;
    dirty_ = true;
  }
  return false;
}

// ---- Extremely Fast Decision Tree ----

void AdaptiveVfdt::learn_efdt(std::span<const double> x, double y, double w) {
  std::size_t n = 0;
  while (nodes_[n].feature >= 0) {
    Leaf& stats = leaves_[ext_[n].stats];
    nb_cache_.valid = false;
    observe(stats, x, y, w);
    const double weight = leaf_weight(stats);
    if (weight - ext_[n].reeval_at >= static_cast<double>(options_.reevaluate_period)) {
      ext_[n].reeval_at = weight;
      if (efdt_reevaluate(n)) return;
    }
    n = child_of(nodes_[n], x);
  }
  Leaf& leaf = leaves_[nodes_[n].a];
  learn_leaf(leaf, x, y, w);
  if (split_due(leaf)) efdt_attempt_split(n);
}

void AdaptiveVfdt::efdt_attempt_split(std::size_t n) {
  const std::uint32_t slot = nodes_[n].a;
  SplitScore s;
  if (!score_split(leaves_[slot], s) || s.best.feature < 0) return;
  // The best split against not splitting (merit 0).
  if (!(s.best.merit > s.eps || s.eps < config_.tie_threshold)) return;
  const std::size_t size = nodes_.size();
  apply_split(n, s.best, new_leaf_slot(), ext_[n].depth + 1);
  sync_nodes(size);
  // The node keeps its statistics and goes on learning.
  ext_[n].stats = slot;
  ext_[n].reeval_at = leaf_weight(leaves_[slot]);
}

bool AdaptiveVfdt::efdt_reevaluate(std::size_t n) {
  const std::uint32_t slot = ext_[n].stats;
  SplitScore s;
  s.tracked = nodes_[n].feature;
  if (!score_split(leaves_[slot], s) || s.best.feature < 0) return false;
  const double eps = s.eps, tau = config_.tie_threshold;
  if (0.0 - s.best.merit > eps) {
    // Not splitting wins: the subtree becomes a leaf with the node's statistics.
    nodes_[n] = Node{0.0, -1, slot, 0};
    ext_[n].stats = kNoSlot;
    leaves_[slot].weight_at_attempt = leaf_weight(leaves_[slot]);
    ++counters_.kills;
    dirty_ = true;
    return true;
  }
  const double gap = s.best.merit - s.tracked_merit;
  if (!(gap > eps || (eps < tau && gap > tau / 2.0))) return false;
  if (s.best.feature != nodes_[n].feature) {
    const std::size_t size = nodes_.size();
    apply_split(n, s.best, new_leaf_slot(), ext_[n].depth + 1);
    sync_nodes(size);
    ++counters_.replacements;
    dirty_ = true;
    return true;
  }
  // Same attribute: the split point follows the statistics.
  if (s.best.kind == nodes_[n].kind && s.best.kind != kMultiway) nodes_[n].threshold = s.best.threshold;
  return false;
}

// ---- Structure ----

void AdaptiveVfdt::compact() {
  dirty_ = false;
  nb_cache_.valid = false;
  // Breadth-first from the root: each node's children (one contiguous block,
  // as multiway routing needs) and then its alternate get the next indices.
  std::vector<std::uint32_t> order{0};
  std::vector<Node> nodes;
  std::vector<NodeExt> ext;
  std::vector<Adwin> detectors;
  detectors.reserve(detectors_.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::uint32_t old = order[i];
    Node node = nodes_[old];
    NodeExt e = ext_[old];
    if (node.feature >= 0) {
      const auto first = static_cast<std::uint32_t>(order.size());
      const std::uint32_t count = node.kind == kMultiway ? static_cast<std::uint32_t>(node.threshold) : 2;
      if (node.kind == kMultiway) {
        for (std::uint32_t c = 0; c < count; ++c) order.push_back(node.a + c);
        node.b = first + (node.b - node.a);
      } else {
        order.push_back(node.a);
        order.push_back(node.b);
        node.b = first + 1;
      }
      node.a = first;
    }
    if (e.alt != 0) {
      order.push_back(e.alt);
      e.alt = static_cast<std::uint32_t>(order.size() - 1);
    }
    if (e.det != kNoSlot) {
      detectors.push_back(detectors_[e.det]);
      e.det = static_cast<std::uint32_t>(detectors.size() - 1);
    }
    nodes.push_back(node);
    ext.push_back(e);
  }
  // Leaf slots no live node holds are free (they keep their blocks, which
  // the next leaf to take the slot reinitialises).
  std::vector<std::uint8_t> live(leaves_.size(), 0);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].feature < 0) live[nodes[i].a] = 1;
    if (ext[i].stats != kNoSlot) live[ext[i].stats] = 1;
  }
  free_.clear();
  for (std::size_t s = leaves_.size(); s-- > 0;) {
    if (live[s]) continue;
    free_.push_back(static_cast<std::uint32_t>(s));
  }
  nodes_ = std::move(nodes);
  ext_ = std::move(ext);
  detectors_ = std::move(detectors);
}

std::size_t AdaptiveVfdt::n_main_splits() const {
  std::size_t count = 0;
  std::vector<std::size_t> stack{0};
  while (!stack.empty()) {
    const Node& node = nodes_[stack.back()];
    stack.pop_back();
    if (node.feature < 0) continue;
    ++count;
    const std::size_t k = node.kind == kMultiway ? static_cast<std::size_t>(node.threshold) : 2;
    if (node.kind == kMultiway) {
      for (std::size_t c = 0; c < k; ++c) stack.push_back(node.a + c);
    } else {
      stack.push_back(node.a);
      stack.push_back(node.b);
    }
  }
  return count;
}

std::size_t AdaptiveVfdt::memory_bytes() const {
  return Vfdt::memory_bytes() + (sizeof(AdaptiveVfdt) - sizeof(Vfdt)) + ext_.capacity() * sizeof(NodeExt) +
         detectors_.capacity() * sizeof(Adwin);
}

}  // namespace irithyll
