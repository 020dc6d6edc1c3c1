#include "irithyll/ensemble/adaptive_sgbt.hpp"

#include <array>
#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "ensemble/sgbt_family.hpp"

namespace irithyll {

namespace {

constexpr std::uint32_t kAdaptiveSgbtStateVersion = 3;

using C = AdaptiveSGBTConfig;
using AdaptiveSgbtRow = ConfigField<C>;
const std::array kAdaptiveSgbtFields = {
    AdaptiveSgbtRow{FieldInfo::choice("schedule", "constant", "constant|linear|exponential|cosine|plateau",
                          "learning-rate schedule, starting from --learning-rate"),
        IRITHYLL_FIELD_ENUM(C, schedule.kind, parse_lr_schedule, lr_schedule_name)},
    AdaptiveSgbtRow{FieldInfo::real("lr-final", "0.001", "linear: rate reached after decay-steps; cosine: the minimum")
            .in(1e-8, 1),
        IRITHYLL_FIELD_REAL(C, schedule.lr_final)},
    AdaptiveSgbtRow{FieldInfo::integer("decay-steps", "10000", "linear: samples to reach lr-final; cosine: the period")
            .in(1, 1e15),
        IRITHYLL_FIELD_UINT(C, schedule.decay_steps)},
    AdaptiveSgbtRow{FieldInfo::real("gamma-decay", "0.9999", "exponential: per-sample factor").in(0, 1, true),
        IRITHYLL_FIELD_REAL(C, schedule.gamma)},
    AdaptiveSgbtRow{FieldInfo::real("plateau-factor", "0.5", "plateau: multiplier when the loss stops improving")
            .in(0, 1, true, true),
        IRITHYLL_FIELD_REAL(C, schedule.factor)},
    AdaptiveSgbtRow{FieldInfo::integer("plateau-patience", "1000", "plateau: samples without a new best loss").in(1, 1e15),
        IRITHYLL_FIELD_UINT(C, schedule.patience)},
    AdaptiveSgbtRow{FieldInfo::real("lr-min", "0.0001", "plateau: the floor of the rate").in(1e-8, 1),
        IRITHYLL_FIELD_REAL(C, schedule.lr_min)},
};

}  // namespace

std::span<const ConfigField<AdaptiveSGBTConfig>> adaptive_sgbt_config_fields() { return kAdaptiveSgbtFields; }

Status AdaptiveSGBTConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<C>("adaptive_sgbt", kAdaptiveSgbtFields, *this));
  return base.validate().with_context("adaptive_sgbt");
}

Status AdaptiveSGBTConfig::decode(ByteReader& in) { return base.decode(in); }

AdaptiveSGBT::AdaptiveSGBT() : AdaptiveSGBT(AdaptiveSGBTConfig{}, LearnerContext{.seed = SGBTConfig{}.seed}) {}

AdaptiveSGBT::AdaptiveSGBT(const AdaptiveSGBTConfig& config, const LearnerContext& context)
    : config_(config), inner_(config.base, context), scheduler_(config.schedule, config.base.learning_rate) {
  config_.base.seed = context.seed;
  proba_.assign(inner_.n_classes(), 0.0);
}

std::span<const ConfigField<AdaptiveSGBTConfig>> AdaptiveSGBT::config_fields() {
  return ensemble_detail::family_table<AdaptiveSGBTConfig, &adaptive_sgbt_config_fields>();
}

Result<std::unique_ptr<AdaptiveSGBT>> AdaptiveSGBT::make(const Config& config, const LearnerContext& context) {
  Config c = config;
  c.base.seed = context.seed;
  IRITHYLL_RETURN_IF_ERROR(c.validate());
  auto inner = SGBTLearner::make(c.base, context);
  if (!inner) return inner.status().with_context(kName);
  auto m = std::make_unique<AdaptiveSGBT>(c, context);
  m->inner_ = std::move(*inner.value());
  return m;
}

void AdaptiveSGBT::learn_one(std::span<const double> x, double y, double weight) {
  // A sample the inner model skips must not move the schedule either (a zero
  // weight changes nothing); the inner model still counts it as skipped.
  if (!sample_admissible(x, y, weight, inner_.n_features(), inner_.task(), inner_.n_classes())) {
    inner_.learn_one(x, y, weight);
    return;
  }
  double loss = 0.0;
  if (inner_.task() == Task::kClassification) {
    inner_.predict_proba_one(x, proba_);
    loss = -std::log(std::max(proba_[static_cast<std::size_t>(y)], 1e-15));
  } else {
    const double e = y - inner_.predict_one(x);
    loss = e * e;
  }
  inner_.set_learning_rate(scheduler_.next(loss));
  inner_.learn_one(x, y, weight);
}

void AdaptiveSGBT::reset() {
  inner_.reset();
  inner_.set_learning_rate(config_.base.learning_rate);
  scheduler_ = LrScheduler(config_.schedule, config_.base.learning_rate);
}

// Version 1 wrote the binary config (and the inner SGBT its own); version 2
// the settings by name once, the schedule's state, the inner SGBT's current
// rate and its state alone, whose trees still carried their binary configs;
// version 3 derives the trees' settings from the named ones.
void AdaptiveSGBT::encode(ByteWriter& out) const {
  out.u32(kAdaptiveSgbtStateVersion);
  const LearnerContext inner = inner_.context();
  ensemble_detail::encode_settings<AdaptiveSGBT>(
      config_, LearnerContext{.task = inner.task, .n_classes = inner.n_classes, .n_features = inner.n_features,
                              .seed = config_.base.seed},
      out);
  scheduler_.encode(out);
  out.f64(inner_.config().learning_rate);
  inner_.encode_state(out);
}

Status AdaptiveSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("adaptive_sgbt state version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kAdaptiveSgbtStateVersion)
    return Status::not_supported("adaptive_sgbt state version " + std::to_string(version));
  if (version >= 2) {
    auto made = ensemble_detail::decode_settings<AdaptiveSGBT>(in);
    if (!made) return made.status();
    AdaptiveSGBT& next = **made;
    IRITHYLL_RETURN_IF_ERROR(next.scheduler_.decode(in));
    const double rate = in.f64("inner learning rate");
    if (!in.ok()) return in.status();
    if (!(rate > 0.0 && rate <= 1.0)) return Status::corruption("adaptive_sgbt: learning rate outside (0, 1]");
    if (next.scheduler_.config().kind != next.config_.schedule.kind)
      return Status::corruption("adaptive_sgbt: the schedule state differs from the settings");
    next.inner_.set_learning_rate(rate);
    IRITHYLL_RETURN_IF_ERROR(next.inner_.decode_state(in, version == 2 ? TreeSettings::kInRecord : TreeSettings::kDerived)
                                 .with_context("adaptive_sgbt"));
    *this = std::move(next);
    return Status::ok();
  }
  AdaptiveSGBT next;
  IRITHYLL_RETURN_IF_ERROR(next.config_.decode(in));
  IRITHYLL_RETURN_IF_ERROR(next.scheduler_.decode(in));
  IRITHYLL_RETURN_IF_ERROR(next.inner_.decode(in).with_context("adaptive_sgbt"));
  next.config_.schedule = next.scheduler_.config();
  IRITHYLL_RETURN_IF_ERROR(next.config_.validate().with_context("adaptive_sgbt state"));
  next.proba_.assign(next.inner_.n_classes(), 0.0);
  *this = std::move(next);
  return Status::ok();
}

}  // namespace irithyll
