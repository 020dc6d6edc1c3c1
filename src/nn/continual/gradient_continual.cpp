#include "nn/continual/gradient_continual.hpp"

namespace irithyll::nn {

Result<GradientContinual> GradientContinual::make(const ContinualConfig& c, std::size_t n_params,
                                                  std::size_t group_size) {
  IRITHYLL_RETURN_IF_ERROR(c.validate());
  if (!c.enabled()) return Status::invalid_argument("continual: no strategy selected");
  auto detector = make_continual_detector(c);
  if (!detector.is_ok()) return detector.status();
  GradientContinual g;
  switch (c.kind) {
    case ContinualKind::kEwc: g.strategy_.emplace<StreamingEwc>(n_params, StreamingEwcConfig{c.ewc_lambda, c.alpha}); break;
    case ContinualKind::kMask: g.strategy_.emplace<DriftMask>(n_params, DriftMaskConfig{c.freeze_fraction, c.alpha}); break;
    case ContinualKind::kRegen: {
      NeuronRegenerationConfig r;
      r.group_size = group_size;
      r.fraction = c.regen_fraction;
      r.interval = c.interval;
      r.utility_alpha = c.alpha;
      r.seed = c.seed;
      r.on_drift = c.regen_on_drift;
      g.strategy_.emplace<NeuronRegeneration>(n_params, r);
      break;
    }
    case ContinualKind::kNone: break;
  }
  g.watch_ = LossWatch(std::move(detector).value());
  g.params_.assign(n_params, 0.0);
  g.grads_.assign(n_params, 0.0);
  return g;
}

ContinualStrategy& GradientContinual::strategy() noexcept {
  return const_cast<ContinualStrategy&>(static_cast<const GradientContinual&>(*this).strategy());
}

const ContinualStrategy& GradientContinual::strategy() const noexcept {
  // make() always emplaces a strategy; a default-constructed guard is never used.
  if (const auto* e = std::get_if<StreamingEwc>(&strategy_)) return *e;
  if (const auto* m = std::get_if<DriftMask>(&strategy_)) return *m;
  return *std::get_if<NeuronRegeneration>(&strategy_);
}

DriftSignal GradientContinual::observe_loss(double loss) noexcept {
  const DriftSignal s = watch_.update(loss);
  if (s != DriftSignal::kStable) strategy().on_drift(params_, s);
  return s;
}

std::size_t GradientContinual::memory_bytes() const noexcept {
  const std::size_t n = params_.capacity() + grads_.capacity();
  // Each strategy keeps about two doubles (or a double and a flag) per parameter.
  return watch_.memory_bytes() + n * sizeof(double) + 2 * params_.size() * sizeof(double);
}

void GradientContinual::encode_state(ByteWriter& out) const {
  strategy().encode_state(out);
  watch_.encode(out);
}

Status GradientContinual::decode_state(ByteReader& in) {
  if (std::holds_alternative<std::monostate>(strategy_)) return Status::corruption("continual: no strategy to decode into");
  // Decode into copies so that a rejected tail leaves this guard unchanged.
  GradientContinual next = *this;
  IRITHYLL_RETURN_IF_ERROR(next.strategy().decode_state(in));
  IRITHYLL_RETURN_IF_ERROR(next.watch_.decode(in));
  *this = std::move(next);
  return Status::ok();
}

}  // namespace irithyll::nn
