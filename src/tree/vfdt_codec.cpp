// Vfdt checkpoint encoding. Layout (little-endian, ByteWriter):
//   task u8 | n_classes u64 | n_features u64 | subspace u64 | seed u64 | rng state u64
//   feat_min f64s | feat_max f64s | feat_moments f64s
//   n_nodes u64 | per node: threshold f64, feature i32 (as u32; a routing node's
//                 kind in its top byte: 0 threshold, 1 multiway, 2 equal, so
//                 records from before nominal attributes read as threshold), a u32, b u32
//   n_leaves u64 | per leaf: depth u32, weight_at_attempt f64, mc_correct f64, nb_correct f64,
//                           [observations f64: only under config.count_observations]
//                           n features u64 + u32 each, stats f64s (head, linear, observers;
//                           under config.binary_nominal each observer sized by its attribute)
//   free u64 count + u32 each
// The settings are not in the record: the owner derives the tree's config
// from its own named settings and passes it to decode(). Records from before
// that put the binary config first; decode_with_config() reads those.
// decode() checks every count against the layout, every index against its
// array and that children come after their parent (no cycles), so hostile
// bytes give a Status and never a crash or a hang.
#include <cmath>

#include "irithyll/tree/vfdt.hpp"

namespace irithyll {

void Vfdt::encode(ByteWriter& out) const {
  out.u8(static_cast<std::uint8_t>(task_));
  out.u64(n_classes_);
  out.u64(n_features_);
  out.u64(subspace_);
  out.u64(seed_);
  out.u64(rng_.state());
  out.f64s(feat_min_);
  out.f64s(feat_max_);
  out.f64s(feat_moments_);
  out.u64(nodes_.size());
  for (const Node& n : nodes_) {
    out.f64(n.threshold);
    out.u32(n.feature < 0 ? static_cast<std::uint32_t>(n.feature)
                          : static_cast<std::uint32_t>(n.feature) | (static_cast<std::uint32_t>(n.kind) << 24));
    out.u32(n.a);
    out.u32(n.b);
  }
  out.u64(leaves_.size());
  for (const Leaf& l : leaves_) {
    out.u32(l.depth);
    out.f64(l.weight_at_attempt);
    out.f64(l.mc_correct);
    out.f64(l.nb_correct);
    if (config_.count_observations) out.f64(l.n_obs);
    out.u64(l.features.size());
    for (std::uint32_t f : l.features) out.u32(f);
    out.f64s(l.stats);
  }
  out.u64(free_.size());
  for (std::uint32_t s : free_) out.u32(s);
}

Status Vfdt::decode_with_config(ByteReader& in) {
  HoeffdingTreeConfig config;
  IRITHYLL_RETURN_IF_ERROR(config.decode(in));
  return decode(in, config);
}

Status Vfdt::decode(ByteReader& in, const HoeffdingTreeConfig& config) {
  Vfdt t;
  t.config_ = config;
  const std::uint8_t task = in.u8("task");
  const std::uint64_t k = in.u64("n_classes"), d = in.u64("n_features"), m = in.u64("subspace");
  t.seed_ = in.u64("seed");
  const std::uint64_t rng = in.u64("rng state");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("hoeffding tree: bad task");
  t.task_ = static_cast<Task>(task);
  const bool cls = t.task_ == Task::kClassification;
  if ((cls && (k < 2 || k > 65536)) || (!cls && k != 0) || d < 1 || d > (1u << 20) || m < 1 || m > d)
    return Status::corruption("hoeffding tree: bad shape (classes, features or subspace)");
  t.n_classes_ = k;
  t.n_features_ = d;
  t.subspace_ = m;
  t.compute_layout();
  t.rng_.set_state(rng);
  t.feat_min_ = in.f64s("feat_min");
  t.feat_max_ = in.f64s("feat_max");
  t.feat_moments_ = in.f64s("feat_moments");
  if (!in.ok()) return in.status();
  if (t.feat_min_.size() != d || t.feat_max_.size() != d || t.feat_moments_.size() != 3 * d)
    return Status::corruption("hoeffding tree: feature summary size mismatch");
  // Ranges start at +-infinity; the moments (weight, mean, squared
  // deviations) scale the linear leaves' inputs, so they are finite and the
  // weight and deviations non-negative.
  for (std::size_t f = 0; f < d; ++f) {
    const double* mo = &t.feat_moments_[3 * f];
    if (std::isnan(t.feat_min_[f]) || std::isnan(t.feat_max_[f]) || !(mo[0] >= 0.0) || !std::isfinite(mo[0]) ||
        !std::isfinite(mo[1]) || !(mo[2] >= 0.0) || !std::isfinite(mo[2]))
      return Status::corruption("hoeffding tree: bad feature summary");
  }

  const std::size_t n_nodes = in.read_count(20, "nodes");
  if (!in.ok()) return in.status();
  if (n_nodes == 0 || n_nodes > 0xFFFFFFF0u) return Status::corruption("hoeffding tree: bad node count");
  t.nodes_.resize(n_nodes);
  for (Node& n : t.nodes_) {
    n.threshold = in.f64("threshold");
    const std::uint32_t f = in.u32("feature");
    if (f == 0xFFFFFFFFu) {
      n.feature = -1;
    } else {
      n.feature = static_cast<std::int32_t>(f & 0xFFFFFFu);
      n.kind = static_cast<std::uint8_t>(f >> 24);
    }
    n.a = in.u32("node a");
    n.b = in.u32("node b");
  }
  const std::size_t n_leaves = in.read_count(36, "leaves");
  if (!in.ok()) return in.status();
  t.leaves_.resize(n_leaves);
  for (Leaf& l : t.leaves_) {
    l.depth = in.u32("depth");
    l.weight_at_attempt = in.f64("weight_at_attempt");
    l.mc_correct = in.f64("mc_correct");
    l.nb_correct = in.f64("nb_correct");
    if (t.config_.count_observations) {
      l.n_obs = in.f64("observations");
      if (in.ok() && !(l.n_obs >= 0.0 && l.n_obs <= 1e300)) return Status::corruption("hoeffding tree: bad observation count");
    }
    const std::size_t nf = in.read_count(4, "leaf features");
    if (!in.ok()) return in.status();
    if (nf != m) return Status::corruption("hoeffding tree: leaf subspace size mismatch");
    l.features.resize(nf);
    for (auto& f : l.features) {
      f = in.u32("leaf feature");
      if (f >= d) return Status::corruption("hoeffding tree: leaf feature out of range");
    }
    l.stats = in.f64s("leaf stats");
    if (!in.ok()) return in.status();
    if (l.stats.size() != t.stats_size(l)) {
      // Records written before linear leaves read every feature hold m + 1
      // linear weights where the layout now has d + 1.
      if (!t.linear_ || m == d || l.stats.size() + (d - m) != t.stats_size(l))
        return Status::corruption("hoeffding tree: leaf stats size mismatch");
      t.widen_linear_block(l);
    }
    // The head: class weights, or weight, mean and squared deviations. The
    // predictions divide by them, so they are finite and the weights
    // non-negative.
    for (std::size_t c = 0; c < t.head_size_; ++c) {
      const double v = l.stats[c];
      const bool weight = cls || c == 0;
      if (!std::isfinite(v) || (weight && v < 0.0)) return Status::corruption("hoeffding tree: bad leaf statistics");
    }
    if (!std::isfinite(t.leaf_weight(l))) return Status::corruption("hoeffding tree: leaf weight overflows");
    // Linear-leaf weights (after the head) enter every prediction of the leaf.
    for (std::size_t j = 0; j < t.linear_size_; ++j) {
      const double v = l.stats[t.head_size_ + j];
      if (!(std::abs(v) <= kMaxLinearWeight))
        return Status::corruption("hoeffding tree: bad linear leaf weight");
    }
    if (!t.gaussian_) {
      // Histogram blocks must have a finite origin and a positive finite width once used.
      for (std::size_t j = 0; j < m; ++j) {
        if (t.any_nominal_ && t.nominal_[l.features[j]]) continue;  // value rows, not a histogram block
        const double* b = l.stats.data() + t.obs_offset(l, j);
        if (b[2] != 0.0 && (b[2] != 1.0 || !std::isfinite(b[0]) || !(b[1] > 0.0) || !std::isfinite(b[1])))
          return Status::corruption("hoeffding tree: bad histogram range");
      }
    }
  }
  const std::size_t n_free = in.read_count(4, "free slots");
  if (!in.ok()) return in.status();
  t.free_.resize(n_free);
  std::vector<std::uint8_t> used(n_leaves, 0);
  for (auto& s : t.free_) {
    s = in.u32("free slot");
    if (s >= n_leaves || used[s]) return Status::corruption("hoeffding tree: bad free slot");
    used[s] = 1;
  }
  if (!in.ok()) return in.status();
  for (std::size_t i = 0; i < n_nodes; ++i) {
    const Node& n = t.nodes_[i];
    if (n.feature < 0) {
      if (n.feature != -1 || n.a >= n_leaves || used[n.a]) return Status::corruption("hoeffding tree: bad leaf reference");
      used[n.a] = 1;  // each slot belongs to one leaf node
    } else if (static_cast<std::uint64_t>(n.feature) >= d || n.a <= i || n.b <= i || n.a >= n_nodes || n.b >= n_nodes ||
               !std::isfinite(n.threshold) || n.kind > kEqual) {
      return Status::corruption("hoeffding tree: bad routing node");
    } else if (n.kind != kThreshold) {
      // Nominal nodes: an integer code (equal) or branch count (multiway,
      // children a .. a + count - 1 with the default b among them).
      const double v = n.threshold;
      const bool ok = n.kind == kEqual ? v >= 0.0 && v < 64.0 && v == std::floor(v)
                                       : v >= 2.0 && v <= 64.0 && v == std::floor(v) &&
                                             n.a + static_cast<std::uint64_t>(v) <= n_nodes && n.b >= n.a &&
                                             n.b < n.a + static_cast<std::uint64_t>(v);
      if (!ok) return Status::corruption("hoeffding tree: bad nominal routing node");
    }
  }
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
