#include "irithyll/nn/continual/continual_config.hpp"

#include <cmath>
#include <string>


namespace irithyll::nn {

Status ContinualConfig::validate() const {
  if (static_cast<std::uint8_t>(kind) > 3) return Status::invalid_argument("continual: unknown strategy");
  if (static_cast<std::uint8_t>(detector) > 3) return Status::invalid_argument("continual: unknown drift detector");
  if (!(ewc_lambda >= 0.0) || !std::isfinite(ewc_lambda))
    return Status::invalid_argument("continual: ewc lambda must be finite and >= 0");
  if (!(alpha >= 0.0 && alpha < 1.0)) return Status::invalid_argument("continual: alpha must be in [0, 1)");
  if (!(freeze_fraction >= 0.0 && freeze_fraction <= 1.0))
    return Status::invalid_argument("continual: freeze fraction must be in [0, 1]");
  if (!(regen_fraction > 0.0 && regen_fraction <= 1.0))
    return Status::invalid_argument("continual: regeneration fraction must be in (0, 1]");
  if (interval == 0) return Status::invalid_argument("continual: regeneration interval must be >= 1");
  if ((kind == ContinualKind::kEwc || kind == ContinualKind::kMask) && detector == DriftKind::kNone)
    return Status::invalid_argument("continual: ewc and mask act on drift and need a detector");
  return Status::ok();
}

Result<ContinualKind> parse_continual_kind(std::string_view name) {
  if (name == "none") return ContinualKind::kNone;
  if (name == "ewc") return ContinualKind::kEwc;
  if (name == "mask") return ContinualKind::kMask;
  if (name == "regen") return ContinualKind::kRegen;
  return Status::invalid_argument("continual: unknown strategy '" + std::string(name) + "' (none | ewc | mask | regen)");
}

std::string_view continual_kind_name(ContinualKind kind) {
  switch (kind) {
    case ContinualKind::kEwc: return "ewc";
    case ContinualKind::kMask: return "mask";
    case ContinualKind::kRegen: return "regen";
    case ContinualKind::kNone: break;
  }
  return "none";
}

void encode_continual_config(const ContinualConfig& c, ByteWriter& out) {
  out.u8(static_cast<std::uint8_t>(c.kind));
  out.u8(static_cast<std::uint8_t>(c.detector));
  out.f64(c.ewc_lambda);
  out.f64(c.alpha);
  out.f64(c.freeze_fraction);
  out.f64(c.regen_fraction);
  out.u64(c.interval);
  out.boolean(c.regen_on_drift);
  out.u64(c.seed);
}

Result<ContinualConfig> decode_continual_config(ByteReader& in) {
  ContinualConfig c;
  const std::uint8_t kind = in.u8("continual strategy");
  const std::uint8_t detector = in.u8("continual detector");
  c.ewc_lambda = in.f64("continual ewc lambda");
  c.alpha = in.f64("continual alpha");
  c.freeze_fraction = in.f64("continual freeze fraction");
  c.regen_fraction = in.f64("continual regeneration fraction");
  c.interval = in.u64("continual interval");
  c.regen_on_drift = in.boolean("continual regenerate on drift");
  c.seed = in.u64("continual seed");
  if (!in.ok()) return in.status();
  if (kind > 3 || detector > 3) return Status::corruption("continual: unknown strategy or detector");
  c.kind = static_cast<ContinualKind>(kind);
  c.detector = static_cast<DriftKind>(detector);
  if (Status s = c.validate(); !s.is_ok()) return Status::corruption(s.message());
  return c;
}

Result<std::unique_ptr<DriftDetector>> make_continual_detector(const ContinualConfig& config) {
  if (config.detector == DriftKind::kNone) return std::unique_ptr<DriftDetector>();
  return make_drift_detector(default_drift_config(config.detector));
}

}  // namespace irithyll::nn
