// SGBT state encode/decode: RNG, counters, the warm-up buffer and every slot
// (active tree, alternate, detector), so that a decoded committee continues
// bit-identically. The configuration and loss are the owner's: it writes its
// settings once and builds the committee from them before decoding.
#include <cmath>

#include "irithyll/ensemble/sgbt.hpp"
#include "ensemble/tree_slot.hpp"

namespace irithyll {

void SGBT::encode_state(ByteWriter& out) const {
  sync();  // config.threads is a run-time setting and not written: a
           // multi-thread committee writes its sequential twin's bytes
  out.u64(rng_.state());
  out.u64(n_features_);
  out.u64(samples_seen_);
  out.boolean(initialized_);
  out.f64(base_);
  out.f64s(warm_x_);
  out.f64s(warm_y_);
  out.f64s(warm_w_);
  out.f64s(warm_offset_);
  out.boolean(scale_drift_monitor_);
  out.u64(target_n_);
  out.f64(target_mean_);
  out.f64(target_m2_);
  out.u64(slots_.size());
  for (const TreeSlot& s : slots_) s.encode(out);
  if (config_.error_weight_alpha > 0.0) {  // present exactly when the config says so
    out.boolean(error_seeded_);
    out.f64(error_rolling_);
  }
  if (config_.adaptive_mts_k > 0.0) out.f64(mts_roll_);
  if (config_.prunes()) {
    out.f64s(contrib_ewma_);
    for (std::uint32_t r : idle_run_) out.u32(r);
  }
  encode_routing(out);  // writes nothing unless soft routing is on
}

Status SGBT::decode_with_config(ByteReader& in, bool with_target_spread) {
  SGBTConfig cfg;
  IRITHYLL_RETURN_IF_ERROR(cfg.decode(in));
  const std::uint8_t lk = in.u8("loss kind");
  const double lp = in.f64("loss param");
  if (!in.ok()) return in.status();
  if (lk > 5) return Status::corruption("unknown loss kind");
  const Loss loss(static_cast<LossKind>(lk), lp);
  IRITHYLL_RETURN_IF_ERROR(loss.validate());
  SGBT m(cfg, loss);
  IRITHYLL_RETURN_IF_ERROR(m.decode_body(in, with_target_spread, TreeSettings::kInRecord));
  *this = std::move(m);
  return Status::ok();
}

Status SGBT::decode_state(ByteReader& in, TreeSettings trees) {
  SGBT m(config_, loss_);
  IRITHYLL_RETURN_IF_ERROR(m.decode_body(in, true, trees));
  *this = std::move(m);
  return Status::ok();
}

// Reads into this freshly built committee (its config and loss set).
Status SGBT::decode_body(ByteReader& in, bool with_target_spread, TreeSettings trees) {
  SGBT& m = *this;
  const SGBTConfig& cfg = config_;
  m.rng_.set_state(in.u64("sgbt rng"));
  m.n_features_ = static_cast<std::size_t>(in.u64("n_features"));
  m.samples_seen_ = in.u64("samples seen");
  m.initialized_ = in.boolean("initialized");
  m.base_ = in.f64("base prediction");
  m.warm_x_ = in.f64s("warm-up x");
  m.warm_y_ = in.f64s("warm-up y");
  m.warm_w_ = in.f64s("warm-up w");
  m.warm_offset_ = in.f64s("warm-up offset");
  m.scale_drift_monitor_ = false;
  if (with_target_spread) {
    m.scale_drift_monitor_ = in.boolean("drift monitor scaling");
    m.target_n_ = in.u64("target count");
    m.target_mean_ = in.f64("target mean");
    m.target_m2_ = in.f64("target m2");
  }
  const std::uint64_t n_slots = in.u64("n slots");
  if (!in.ok()) return in.status();
  if (!std::isfinite(m.base_)) return Status::corruption("non-finite base prediction");
  if (!std::isfinite(m.target_mean_) || !(m.target_m2_ >= 0.0) || !std::isfinite(m.target_m2_))
    return Status::corruption("bad target statistics");
  const std::size_t nw = m.warm_y_.size();
  if (m.warm_w_.size() != nw || m.warm_offset_.size() != nw || m.warm_x_.size() != nw * m.n_features_ ||
      (m.initialized_ && nw != 0) || nw >= cfg.initial_target_count + (m.initialized_ ? 1u : 0u))
    return Status::corruption("inconsistent SGBT warm-up buffer");
  if (n_slots != cfg.n_steps) return Status::corruption("slot count differs from n_steps");
  for (TreeSlot& s : m.slots_) {
    IRITHYLL_RETURN_IF_ERROR(s.decode(in, trees));
    const std::size_t tf = s.active().n_features();
    const std::size_t af = s.alternate() != nullptr ? s.alternate()->n_features() : 0;
    if ((tf != 0 && tf != m.n_features_) || (af != 0 && af != m.n_features_))
      return Status::corruption("tree feature count differs from the committee's");
  }
  if (cfg.error_weight_alpha > 0.0) {
    m.error_seeded_ = in.boolean("error weighting seeded");
    m.error_rolling_ = in.f64("error rolling mean");
    if (!in.ok()) return in.status();
    if (!(m.error_rolling_ >= 0.0) || !std::isfinite(m.error_rolling_)) return Status::corruption("bad error rolling mean");
  }
  if (cfg.adaptive_mts_k > 0.0) {
    m.mts_roll_ = in.f64("adaptive mts roll");
    if (!in.ok()) return in.status();
    if (!(m.mts_roll_ >= 0.0) || !std::isfinite(m.mts_roll_)) return Status::corruption("bad adaptive mts roll");
  }
  if (cfg.prunes()) {
    std::vector<double> ewma = in.f64s("contribution EWMAs");
    if (!in.ok()) return in.status();
    if (ewma.size() != cfg.n_steps) return Status::corruption("contribution EWMA count differs from n_steps");
    for (double v : ewma)
      if (!(v >= 0.0) || !std::isfinite(v)) return Status::corruption("bad contribution EWMA");
    m.contrib_ewma_ = std::move(ewma);
    for (std::uint32_t& r : m.idle_run_) r = in.u32("idle run");
    if (!in.ok()) return in.status();
  }
  IRITHYLL_RETURN_IF_ERROR(m.decode_routing(in));
  if (m.soft_ && !m.bandwidth_.empty() && m.bandwidth_.size() != m.n_features_)
    return Status::corruption("soft routing bandwidth count differs from the feature count");
  return Status::ok();
}

}  // namespace irithyll
