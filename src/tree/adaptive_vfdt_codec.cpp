// AdaptiveVfdt checkpoint encoding. Layout (ByteWriter):
//   Vfdt record (vfdt_codec.cpp)
//   counters 5 x u64 | first_split_weight f64 | weight_seen f64
//   n u64 | per node: alt u32, stats u32, depth u32, det u32, reeval_at f64, err_n f64, err_mean f64, err_m2 f64
//   detectors u64 | one ADWIN record each
// The settings (the tree config and the options) are the owner's: it derives
// them from its named settings and passes them to decode(). Records from
// before that carried the binary config first and the options (mode u8,
// adwin_delta f64, drift_window u32, switch_significance f64, bootstrap bool,
// reevaluate_period u32) after the Vfdt record; decode_with_config() reads
// those. decode() checks the options, that every alternate comes after its owner
// (no cycles), that an EFDT node's statistics slot is its own and no leaf's,
// and the alternates' nesting, so hostile bytes give a Status.
#include <cmath>

#include "irithyll/tree/adaptive_vfdt.hpp"

namespace irithyll {

void AdaptiveVfdt::encode(ByteWriter& out) const {
  Vfdt::encode(out);
  for (std::uint64_t c : {counters_.alternates, counters_.switches, counters_.prunes, counters_.kills, counters_.replacements})
    out.u64(c);
  out.f64(first_split_weight_);
  out.f64(weight_seen_);
  out.u64(ext_.size());
  for (const NodeExt& e : ext_) {
    out.u32(e.alt);
    out.u32(e.stats);
    out.u32(e.depth);
    out.u32(e.det);
    out.f64(e.reeval_at);
    out.f64(e.err_n);
    out.f64(e.err_mean);
    out.f64(e.err_m2);
  }
  out.u64(detectors_.size());
  for (const Adwin& d : detectors_) d.encode(out);
}

Status AdaptiveVfdt::decode_with_config(ByteReader& in) {
  AdaptiveVfdt t;
  IRITHYLL_RETURN_IF_ERROR(t.Vfdt::decode_with_config(in));
  const std::uint8_t mode = in.u8("mode");
  t.options_.adwin_delta = in.f64("adwin_delta");
  t.options_.drift_window = in.u32("drift_window");
  t.options_.switch_significance = in.f64("switch_significance");
  t.options_.bootstrap = in.boolean("bootstrap");
  t.options_.reevaluate_period = in.u32("reevaluate_period");
  if (!in.ok()) return in.status();
  const AdaptiveTreeOptions& o = t.options_;
  if (mode > 1 || !(o.adwin_delta > 0.0 && o.adwin_delta < 1.0) || !(o.switch_significance > 0.0 && o.switch_significance < 1.0) ||
      o.reevaluate_period < 1)
    return Status::corruption("adaptive tree: bad options");
  t.options_.mode = static_cast<AdaptiveTreeOptions::Mode>(mode);
  IRITHYLL_RETURN_IF_ERROR(t.decode_state(in));
  *this = std::move(t);
  return Status::ok();
}

Status AdaptiveVfdt::decode(ByteReader& in, const HoeffdingTreeConfig& config, const AdaptiveTreeOptions& options) {
  AdaptiveVfdt t;
  IRITHYLL_RETURN_IF_ERROR(t.Vfdt::decode(in, config));
  t.options_ = options;
  IRITHYLL_RETURN_IF_ERROR(t.decode_state(in));
  *this = std::move(t);
  return Status::ok();
}

// The node states after the Vfdt record (and the options of old records),
// into this fresh tree.
Status AdaptiveVfdt::decode_state(ByteReader& in) {
  AdaptiveVfdt& t = *this;
  Counters& c = t.counters_;
  for (std::uint64_t* v : {&c.alternates, &c.switches, &c.prunes, &c.kills, &c.replacements}) *v = in.u64("counter");
  t.first_split_weight_ = in.f64("first_split_weight");
  t.weight_seen_ = in.f64("weight_seen");
  if (!in.ok()) return in.status();
  if (!std::isfinite(t.first_split_weight_) || !std::isfinite(t.weight_seen_))
    return Status::corruption("adaptive tree: bad split weights");
  const bool hat = t.options_.mode == AdaptiveTreeOptions::Mode::kHat;
  if (t.subspace_ != t.n_features_) return Status::corruption("adaptive tree: a subspace tree");
  if (!hat && t.task_ != Task::kClassification) return Status::corruption("adaptive tree: EFDT is a classifier");
  const std::size_t n = in.read_count(48, "adaptive tree nodes");
  if (!in.ok()) return in.status();
  if (n != t.nodes_.size()) return Status::corruption("adaptive tree: node state count does not match the tree");
  t.ext_.resize(n);
  for (NodeExt& e : t.ext_) {
    e.alt = in.u32("alt");
    e.stats = in.u32("stats slot");
    e.depth = in.u32("depth");
    e.det = in.u32("detector");
    e.reeval_at = in.f64("reeval_at");
    e.err_n = in.f64("err_n");
    e.err_mean = in.f64("err_mean");
    e.err_m2 = in.f64("err_m2");
  }
  if (!in.ok()) return in.status();
  // Slots the leaf nodes hold, then each EFDT statistics slot: its own.
  const std::size_t n_slots = t.leaves_.size();
  std::vector<std::uint8_t> held(n_slots, 0);
  for (std::uint32_t s : t.free_) held[s] = 1;
  for (const Node& node : t.nodes_)
    if (node.feature < 0) held[node.a] = 1;
  std::vector<std::uint32_t> nesting(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const NodeExt& e = t.ext_[i];
    const bool leaf = t.nodes_[i].feature < 0;
    if (!std::isfinite(e.reeval_at) || !std::isfinite(e.err_n) || !std::isfinite(e.err_mean) || !std::isfinite(e.err_m2) ||
        e.err_n < 0.0 || e.depth > (1u << 20))
      return Status::corruption("adaptive tree: bad node state");
    if (e.alt != 0 && (!hat || leaf || e.alt <= i || e.alt >= n))
      return Status::corruption("adaptive tree: bad alternate reference");
    if (hat || leaf ? e.stats != kNoSlot : (e.stats >= n_slots || held[e.stats]))
      return Status::corruption("adaptive tree: bad statistics slot");
    if (!hat && !leaf) held[e.stats] = 1;
    // Nesting of alternates flows down (children and alternates come later).
    if (!leaf) {
      const Node& node = t.nodes_[i];
      const std::size_t k = node.kind == kMultiway ? static_cast<std::size_t>(node.threshold) : 0;
      for (std::size_t j = 0; j < k; ++j) nesting[node.a + j] = std::max(nesting[node.a + j], nesting[i]);
      nesting[node.a] = std::max(nesting[node.a], nesting[i]);
      nesting[node.b] = std::max(nesting[node.b], nesting[i]);
    }
    if (e.alt != 0) {
      nesting[e.alt] = std::max(nesting[e.alt], nesting[i] + 1);
      if (nesting[e.alt] > kMaxNesting) return Status::corruption("adaptive tree: alternates nested too deep");
    }
  }
  if (t.nodes_[0].feature < 0 && t.ext_[0].alt != 0) return Status::corruption("adaptive tree: bad root");
  // Detectors: one per kHat internal node, at most one per alternate root
  // otherwise, none for kEfdt; each owned by one node.
  // (An ADWIN record is at least 39 bytes; each holds 6.3 KB once decoded,
  // so they are decoded one by one, never allocated ahead of the bytes.)
  const std::size_t n_det = in.read_count(39, "detectors");
  if (!in.ok()) return in.status();
  if (n_det > n) return Status::corruption("adaptive tree: more detectors than nodes");
  std::vector<std::uint8_t> owned(n_det, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t det = t.ext_[i].det;
    if (det == kNoSlot) {
      if (hat && t.nodes_[i].feature >= 0) return Status::corruption("adaptive tree: a routing node without its detector");
      continue;
    }
    if (!hat || det >= n_det || owned[det]) return Status::corruption("adaptive tree: bad detector reference");
    owned[det] = 1;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (t.ext_[i].alt != 0 && t.ext_[t.ext_[i].alt].det == kNoSlot)
      return Status::corruption("adaptive tree: an alternate without its detector");
  t.detectors_.clear();
  for (std::size_t i = 0; i < n_det; ++i) {
    Adwin d(t.options_.adwin_delta);
    IRITHYLL_RETURN_IF_ERROR(d.decode(in));
    t.detectors_.push_back(d);
  }
  return Status::ok();
}

}  // namespace irithyll
