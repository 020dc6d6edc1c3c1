#include "continual_options.hpp"

namespace irithyll::cli {

void declare_continual_options(ArgParser& p) {
  p.option("continual", "S", "slstm|mgrade|mamba|loglinear: continual learning none | ewc | mask | regen (slstm, mgrade, mamba: regen only)", "none");
  p.option("continual-detector", "D", "continual: drift detector on the loss, pht | adwin | ddm | none", "pht");
  p.option("continual-fraction", "F", "continual: share frozen per drift (mask, default 0.3) or replaced (regen, default 0.01)");
  p.option("continual-alpha", "A", "continual: EWMA decay of Fisher / importance / utility in [0, 1)", "0.99");
  p.option("ewc-lambda", "L", "continual ewc: penalty strength", "1");
  p.option("regen-interval", "N", "continual regen: updates between regenerations", "1000");
  p.option("regen-on-drift", "on|off", "continual regen: also regenerate after a drift", "on");
}

Result<nn::ContinualConfig> parse_continual_options(const ArgParser& args, std::uint64_t seed) {
  nn::ContinualConfig c;
  c.seed = seed;
  auto kind = nn::parse_continual_kind(args.get("continual"));
  if (!kind.is_ok()) return kind.status();
  c.kind = *kind;
  auto detector = parse_drift_kind(args.get("continual-detector"));
  if (!detector.is_ok()) return detector.status();
  c.detector = *detector;
  auto alpha = args.get_double("continual-alpha");
  auto lambda = args.get_double("ewc-lambda");
  auto interval = args.get_int("regen-interval");
  for (const Status* s : {&alpha.status(), &lambda.status(), &interval.status()})
    if (!s->is_ok()) return *s;
  c.alpha = *alpha;
  c.ewc_lambda = *lambda;
  if (*interval < 1) return Status::invalid_argument("--regen-interval must be >= 1");
  c.interval = static_cast<std::uint64_t>(*interval);
  const std::string on_drift = args.get("regen-on-drift");
  if (on_drift != "on" && on_drift != "off") return Status::invalid_argument("--regen-on-drift must be on or off");
  c.regen_on_drift = on_drift == "on";
  if (!args.get("continual-fraction").empty()) {
    auto f = args.get_double("continual-fraction");
    if (!f.is_ok()) return f.status();
    (c.kind == nn::ContinualKind::kMask ? c.freeze_fraction : c.regen_fraction) = *f;
  }
  IRITHYLL_RETURN_IF_ERROR(c.validate());
  return c;
}

}  // namespace irithyll::cli
