// One online Mondrian tree with aggregation weights (mondrian_tree.hpp).
#include "mondrian/mondrian_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/finite.hpp"

namespace irithyll::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Log weights are kept above this, so a run of huge squared errors cannot
// drive them to -inf (where W_v - w_v would be NaN).
constexpr double kMinLogWeight = -1e300;

// log((e^a + e^b) / 2) without overflow.
double log_sum_2_exp(double a, double b) {
  const double hi = std::max(a, b), lo = std::min(a, b);
  return hi + std::log1p(std::exp(lo - hi)) - 0.6931471805599453;
}
}  // namespace

MondrianTree::MondrianTree(const MondrianParams& p, std::uint64_t seed) : rng_(seed) { add_node(p); }

void MondrianTree::restart(const MondrianParams& p) {
  nodes_.clear();
  lo_.clear();
  hi_.clear();
  stats_.clear();
  learned_ = 0;
  add_node(p);
}

std::size_t MondrianTree::n_stats(const MondrianParams& p) const {
  return p.task == Task::kClassification ? p.n_classes : 1;
}

std::uint32_t MondrianTree::add_node(const MondrianParams& p) {
  // Grow by doubling up to the cap, so a tree never reserves past max-nodes.
  if (nodes_.size() == nodes_.capacity()) {
    const std::size_t cap = std::min<std::size_t>(std::max<std::size_t>(1, 2 * nodes_.capacity()), p.max_nodes);
    nodes_.reserve(cap);
    lo_.reserve(cap * p.width);
    hi_.reserve(cap * p.width);
    stats_.reserve(cap * n_stats(p));
  }
  nodes_.emplace_back();
  lo_.insert(lo_.end(), p.width, kInf);
  hi_.insert(hi_.end(), p.width, -kInf);
  stats_.insert(stats_.end(), n_stats(p), 0.0);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::size_t MondrianTree::memory_bytes() const {
  return sizeof(*this) + nodes_.capacity() * sizeof(MondrianNode) +
         (lo_.capacity() + hi_.capacity() + stats_.capacity()) * sizeof(double);
}

std::uint32_t MondrianTree::child_of(std::uint32_t v, std::span<const double> x) const {
  const MondrianNode& n = nodes_[v];
  const double xf = x[n.feature];
  if (finite_value(xf)) return xf <= n.threshold ? n.left : n.right;
  // Missing: the side that has seen more samples (ties left).
  return nodes_[n.right].mass > nodes_[n.left].mass ? n.right : n.left;
}

std::uint32_t MondrianTree::leaf_of(std::span<const double> x) const {
  std::uint32_t v = 0;
  while (!nodes_[v].is_leaf()) v = child_of(v, x);
  return v;
}

double MondrianTree::extension(const MondrianParams& p, std::uint32_t v, std::span<const double> x,
                               std::span<double> ext) const {
  const double* lo = lo_.data() + v * p.width;
  const double* hi = hi_.data() + v * p.width;
  double sum = 0.0;
  for (std::size_t j = 0; j < p.width; ++j) {
    const double xj = x[j];
    double e = 0.0;
    // A missing value, or a feature the box has no value for yet, widens nothing.
    if (finite_value(xj) && lo[j] <= hi[j]) e = xj < lo[j] ? lo[j] - xj : (xj > hi[j] ? xj - hi[j] : 0.0);
    if (p.scaled_extents && e > 0.0) {
      // The root's box spans every sample the tree has seen.
      const double range = std::max(hi_[j], xj) - std::min(lo_[j], xj);
      if (range > 0.0 && range <= std::numeric_limits<double>::max()) e /= range;
    }
    ext[j] = e;
    sum += e;
  }
  return sum;
}

double MondrianTree::loss(const MondrianParams& p, std::uint32_t v, double y) const {
  const double* s = stats_.data() + v * n_stats(p);
  if (p.task == Task::kClassification) {
    const double k = static_cast<double>(p.n_classes);
    const double prob = (s[static_cast<std::size_t>(y)] + p.dirichlet) / (nodes_[v].mass + p.dirichlet * k);
    return -std::log(prob);
  }
  const double r = s[0] - y;
  return 0.5 * r * r;
}

void MondrianTree::update(const MondrianParams& p, std::uint32_t v, std::span<const double> x, double y,
                          double weight, bool update_weight) {
  double* lo = lo_.data() + v * p.width;
  double* hi = hi_.data() + v * p.width;
  for (std::size_t j = 0; j < p.width; ++j) {
    const double xj = x[j];
    if (!finite_value(xj)) continue;
    lo[j] = std::min(lo[j], xj);
    hi[j] = std::max(hi[j], xj);
  }
  MondrianNode& n = nodes_[v];
  if (update_weight && p.use_aggregation) {
    const double l = loss(p, v, y);
    n.weight = std::max(kMinLogWeight, n.weight - p.step * weight * (finite_value(l) ? l : 1e300));
  }
  n.mass += weight;
  double* s = stats_.data() + v * n_stats(p);
  if (p.task == Task::kClassification) {
    s[static_cast<std::size_t>(y)] += weight;
  } else {
    s[0] += weight * (y - s[0]) / n.mass;  // weighted running mean (West 1979)
  }
}

std::uint32_t MondrianTree::split(const MondrianParams& p, std::uint32_t v, double time, std::uint32_t feature,
                                  double threshold, bool x_goes_right) {
  const std::uint32_t moved = add_node(p);
  const std::uint32_t fresh = add_node(p);
  const std::size_t w = p.width, k = n_stats(p);
  // `moved` takes v's box, statistics and subtree, born now.
  MondrianNode copy = nodes_[v];
  copy.parent = v;
  copy.time = time;
  nodes_[moved] = copy;
  std::copy_n(lo_.begin() + v * w, w, lo_.begin() + moved * w);
  std::copy_n(hi_.begin() + v * w, w, hi_.begin() + moved * w);
  std::copy_n(stats_.begin() + v * k, k, stats_.begin() + moved * k);
  if (!copy.is_leaf()) {
    nodes_[copy.left].parent = moved;
    nodes_[copy.right].parent = moved;
  }
  MondrianNode& leaf = nodes_[fresh];
  leaf.parent = v;
  leaf.time = time;
  MondrianNode& n = nodes_[v];
  n.feature = feature;
  n.threshold = threshold;
  n.left = x_goes_right ? moved : fresh;
  n.right = x_goes_right ? fresh : moved;
  return fresh;
}

void MondrianTree::learn(const MondrianParams& p, std::span<const double> x, double y, double weight,
                         std::span<double> ext) {
  if (learned_++ == 0) {
    // The first sample only opens the root's box: there is nothing to split
    // and no prediction yet to score.
    update(p, 0, x, y, weight, false);
    return;
  }
  std::uint32_t v = 0;
  std::uint32_t leaf = 0;
  for (;;) {
    const double e = extension(p, v, x, ext);
    bool do_split = false;
    double split_time = 0.0;
    const double* s = stats_.data() + v * n_stats(p);
    // A pure node whose label is x's does not split (split-pure off).
    const bool pure = p.task == Task::kClassification && !p.split_pure &&
                      s[static_cast<std::size_t>(y)] == nodes_[v].mass;
    if (!pure && e > 0.0 && nodes_.size() + 2 <= p.max_nodes) {
      // T ~ Exponential(E): -log(1 - u) / E with u in [0, 1).
      split_time = nodes_[v].time - std::log1p(-rng_.uniform()) / e;
      do_split = nodes_[v].is_leaf() || split_time < nodes_[nodes_[v].left].time;
    }
    if (!do_split) {
      update(p, v, x, y, weight, true);
      if (nodes_[v].is_leaf()) {
        leaf = v;
        break;
      }
      v = child_of(v, x);
      continue;
    }
    // Feature with probability e_j / E (an infinite E: among the infinite e_j).
    std::uint32_t feature = 0;
    if (finite_value(e)) {
      const double target = rng_.uniform() * e;
      double cum = 0.0;
      for (std::size_t j = 0; j < p.width; ++j) {
        if (ext[j] <= 0.0) continue;
        feature = static_cast<std::uint32_t>(j);
        cum += ext[j];
        if (target < cum) break;
      }
    } else {
      for (std::size_t j = 0; j < p.width; ++j)
        if (std::isinf(ext[j])) feature = static_cast<std::uint32_t>(j);
    }
    const double xf = x[feature];
    const double lo = lo_[v * p.width + feature], hi = hi_[v * p.width + feature];
    const bool right = xf > hi;
    // Uniform in the gap [hi, x_f) or [x_f, lo), kept strictly inside it so
    // the old box and x end on different sides whatever the rounding.
    const double a = right ? hi : xf, b = right ? xf : lo;
    const double u = rng_.uniform();
    double threshold = (1.0 - u) * a + u * b;
    if (!(threshold >= a && threshold < b)) threshold = a;
    const std::uint32_t fresh = split(p, v, split_time, feature, threshold, right);
    update(p, v, x, y, weight, true);
    update(p, fresh, x, y, weight, false);
    leaf = fresh;
    break;
  }
  if (!p.use_aggregation) return;
  // W_v from x's leaf up to the root.
  for (std::uint32_t u = leaf;; u = nodes_[u].parent) {
    MondrianNode& n = nodes_[u];
    n.log_weight_tree =
        n.is_leaf() ? n.weight
                    : log_sum_2_exp(n.weight, nodes_[n.left].log_weight_tree + nodes_[n.right].log_weight_tree);
    if (n.parent == MondrianNode::kNone) break;
  }
}

void MondrianTree::predict_proba(const MondrianParams& p, std::span<const double> x, std::span<double> out) const {
  const std::size_t k = p.n_classes;
  const double denom_prior = p.dirichlet * static_cast<double>(k);
  std::uint32_t v = leaf_of(x);
  auto node_score = [&](std::uint32_t u, std::size_t c) {
    return (stats_[u * k + c] + p.dirichlet) / (nodes_[u].mass + denom_prior);
  };
  for (std::size_t c = 0; c < k; ++c) out[c] = node_score(v, c);
  if (p.use_aggregation) {
    while (nodes_[v].parent != MondrianNode::kNone) {
      v = nodes_[v].parent;
      const double h = 0.5 * std::exp(nodes_[v].weight - nodes_[v].log_weight_tree);
      for (std::size_t c = 0; c < k; ++c) out[c] = h * node_score(v, c) + (1.0 - h) * out[c];
    }
  }
  double total = 0.0;
  for (std::size_t c = 0; c < k; ++c) total += out[c];
  for (std::size_t c = 0; c < k; ++c) out[c] /= total;
}

double MondrianTree::predict_value(const MondrianParams& p, std::span<const double> x) const {
  std::uint32_t v = leaf_of(x);
  double out = stats_[v];
  if (p.use_aggregation) {
    while (nodes_[v].parent != MondrianNode::kNone) {
      v = nodes_[v].parent;
      const double h = 0.5 * std::exp(nodes_[v].weight - nodes_[v].log_weight_tree);
      out = h * stats_[v] + (1.0 - h) * out;
    }
  }
  return out;
}

void MondrianTree::encode(ByteWriter& out) const {
  out.u64(rng_.state());
  out.u64(learned_);
  out.u64(nodes_.size());
  for (const MondrianNode& n : nodes_) {
    out.u32(n.parent);
    out.u32(n.left);
    out.u32(n.right);
    out.u32(n.feature);
    out.f64(n.threshold);
    out.f64(n.time);
    out.f64(n.weight);
    out.f64(n.log_weight_tree);
    out.f64(n.mass);
  }
  out.f64s(lo_);
  out.f64s(hi_);
  out.f64s(stats_);
}

Status MondrianTree::decode(const MondrianParams& p, ByteReader& in) {
  const std::uint64_t state = in.u64("mondrian rng");
  const std::uint64_t learned = in.u64("mondrian learned");
  const std::size_t count = in.read_count(40, "mondrian nodes");
  if (!in.ok()) return in.status();
  if (count == 0 || count > p.max_nodes) return Status::corruption("mondrian_forest: node count out of range");
  std::vector<MondrianNode> nodes(count);
  for (MondrianNode& n : nodes) {
    n.parent = in.u32("mondrian parent");
    n.left = in.u32("mondrian left");
    n.right = in.u32("mondrian right");
    n.feature = in.u32("mondrian feature");
    n.threshold = in.f64("mondrian threshold");
    n.time = in.f64("mondrian time");
    n.weight = in.f64("mondrian weight");
    n.log_weight_tree = in.f64("mondrian tree weight");
    n.mass = in.f64("mondrian mass");
  }
  std::vector<double> lo = in.f64s("mondrian box lo");
  std::vector<double> hi = in.f64s("mondrian box hi");
  std::vector<double> stats = in.f64s("mondrian statistics");
  if (!in.ok()) return in.status();
  const Status bad = Status::corruption("mondrian_forest: tree state out of range");
  if (state == 0 || lo.size() != count * p.width || hi.size() != count * p.width ||
      stats.size() != count * n_stats(p) || nodes[0].parent != MondrianNode::kNone)
    return bad;
  // One tree: every node reached once from the root, each child naming its
  // parent, so routing and the walk back up always end.
  std::vector<std::uint8_t> seen(count, 0);
  std::vector<std::uint32_t> stack{0};
  seen[0] = 1;
  std::size_t reached = 1;
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    const MondrianNode& n = nodes[v];
    if (n.is_leaf() != (n.right == MondrianNode::kNone)) return bad;
    if (n.is_leaf()) continue;
    if (n.feature >= p.width || !finite_value(n.threshold)) return bad;
    for (std::uint32_t c : {n.left, n.right}) {
      if (c >= count || seen[c] || nodes[c].parent != v) return bad;
      seen[c] = 1;
      ++reached;
      stack.push_back(c);
    }
  }
  if (reached != count) return bad;
  for (const MondrianNode& n : nodes)
    if (!finite_value(n.time) || n.time < 0.0 || !finite_value(n.weight) || !finite_value(n.log_weight_tree) || !finite_value(n.mass) ||
        n.mass < 0.0 || n.weight - n.log_weight_tree > 0.6931471805599453 + 1e-6)
      return bad;
  for (std::size_t i = 0; i < lo.size(); ++i)
    if (!(lo[i] == kInf && hi[i] == -kInf) && !(finite_value(lo[i]) && finite_value(hi[i]) && lo[i] <= hi[i])) return bad;
  for (std::size_t i = 0; i < stats.size(); ++i)
    if (!finite_value(stats[i]) || (p.task == Task::kClassification && stats[i] < 0.0)) return bad;
  rng_.set_state(state);
  learned_ = learned;
  nodes_ = std::move(nodes);
  lo_ = std::move(lo);
  hi_ = std::move(hi);
  stats_ = std::move(stats);
  return Status::ok();
}

}  // namespace irithyll::detail
