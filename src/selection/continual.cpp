#include "irithyll/selection/continual.hpp"

#include <array>
#include <cmath>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {
namespace {

constexpr std::uint8_t kContinualVersion = 1;
// EWMA weights of the loss averages that tell a rise from a fall: about the
// last 30 samples against about the last 500.
constexpr double kRecentWeight = 1.0 / 32.0;
constexpr double kLongerWeight = 1.0 / 512.0;

Result<DriftKind> parse_watch_detector(std::string_view name) {
  auto kind = parse_drift_kind(name);
  if (kind && *kind == DriftKind::kNone)
    return Status::invalid_argument("continual: detector 'none' would never act (give adwin, pht, ddm, ...)");
  return kind;
}

using ContinualRow = ConfigField<ContinualLearnerConfig>;
const std::array kContinualFields = {
    ContinualRow{FieldInfo::text("base", "hoeffding_tree", "the wrapped model: a catalogue name with optional :key=value,key=value settings"),
        [](ContinualLearnerConfig& c, std::string_view v) {
          c.model = std::string(v);
          return Status::ok();
        },
        [](const ContinualLearnerConfig& c) { return c.model; }},
    ContinualRow{FieldInfo::choice("strategy", "reset", "reset|ewc|mask|regen",
                                   "reset: replace the model on a drift (any model) | ewc, mask: guard its trained "
                                   "weights | regen: regenerate its units (models that expose them)"),
        IRITHYLL_FIELD_ENUM(ContinualLearnerConfig, strategy, parse_continual_strategy, continual_strategy_name)},
    ContinualRow{FieldInfo::choice("detector", "adwin", "adwin|pht|ddm|eddm|hddm_a|hddm_w|kswin",
                                   "drift detector on the loss (0/1 error or |y - y_hat|); ddm, eddm, hddm_a and "
                                   "hddm_w read values in [0, 1], so classification only"),
        IRITHYLL_FIELD_ENUM(ContinualLearnerConfig, detector, parse_watch_detector, drift_kind_name)},
    ContinualRow{FieldInfo::boolean("background", "on", "reset: train a replacement from the first warning on (off: a fresh model at the drift)"),
        IRITHYLL_FIELD_BOOL(ContinualLearnerConfig, background)},
};

// The detectors whose input must be a 0/1 error (or a value in [0, 1]).
bool reads_binary_errors(DriftKind kind) {
  return kind == DriftKind::kDdm || kind == DriftKind::kEddm || kind == DriftKind::kHddmA ||
         kind == DriftKind::kHddmW;
}

const FieldInfo* find_field(std::span<const FieldInfo> fields, std::string_view name) {
  for (const FieldInfo& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

// The settings that hand the guard to a model with its own continual
// learning; an error naming the model where it has none, or not this
// strategy, or not this detector.
Status add_guard_settings(const ContinualLearnerConfig& config, const MemberFactory& factory, const MemberSpec& spec,
                          ModelSettings& settings) {
  const std::string_view strategy = continual_strategy_name(config.strategy);
  const std::span<const FieldInfo> fields = factory.fields ? factory.fields(spec.name) : std::span<const FieldInfo>();
  const FieldInfo* kind = find_field(fields, "continual");
  if (kind == nullptr)
    return Status::invalid_argument("continual: --base '" + spec.name + "' exposes neither trained weights (ewc, mask) nor units (regen) to a continual guard; --strategy reset works with any model");
  if (!in_choices(kind->choices, strategy))
    return Status::invalid_argument("continual: --base '" + spec.name + "' offers continual " + std::string(kind->choices) +
                                    ", not " + std::string(strategy) + " (" + std::string(kind->help) + ")");
  const FieldInfo* detector = find_field(fields, "continual-detector");
  const std::string_view watch = drift_kind_name(config.detector);
  if (detector != nullptr && !in_choices(detector->choices, watch))
    return Status::invalid_argument("continual: --base '" + spec.name + "' watches its loss with " +
                                    std::string(detector->choices) + ", not " + std::string(watch));
  settings.set("continual", std::string(strategy));
  if (detector != nullptr) settings.set("continual-detector", std::string(watch));
  return Status::ok();
}

}  // namespace

Result<ContinualStrategy> parse_continual_strategy(std::string_view name) {
  if (name == "reset") return ContinualStrategy::kReset;
  if (name == "ewc") return ContinualStrategy::kEwc;
  if (name == "mask") return ContinualStrategy::kMask;
  if (name == "regen") return ContinualStrategy::kRegen;
  return Status::invalid_argument("continual: unknown strategy '" + std::string(name) + "' (reset|ewc|mask|regen)");
}

std::string_view continual_strategy_name(ContinualStrategy strategy) {
  switch (strategy) {
    case ContinualStrategy::kReset: return "reset";
    case ContinualStrategy::kEwc: return "ewc";
    case ContinualStrategy::kMask: return "mask";
    case ContinualStrategy::kRegen: return "regen";
  }
  return "reset";
}

std::span<const ConfigField<ContinualLearnerConfig>> ContinualLearner::config_fields() { return kContinualFields; }

Result<std::unique_ptr<ContinualLearner>> ContinualLearner::make(const Config& config, const LearnerContext& context,
                                                                 const MemberFactory& factory) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, kContinualFields, config));
  if (!factory.complete()) return Status::invalid_argument("continual: no model factory");
  if (context.n_targets != 1) return Status::invalid_argument("continual: one target only");
  if (config.strategy == ContinualStrategy::kReset && context.task == Task::kRegression &&
      reads_binary_errors(config.detector))
    return Status::invalid_argument("continual: detector '" + std::string(drift_kind_name(config.detector)) +
                                    "' reads values in [0, 1]; a regressor's loss is |y - y_hat| (give adwin, pht or kswin)");
  auto spec = parse_member_spec(config.model);
  if (!spec) return spec.status().with_context("continual: base");
  if (spec->name == kName) return Status::invalid_argument("continual: cannot wrap 'continual' itself");
  if (!factory.available(spec->name, context.task))
    return Status::invalid_argument("continual: '" + spec->name + "' is not a model for " +
                                    (context.task == Task::kClassification ? "classification" : "regression"));
  if (config.strategy != ContinualStrategy::kReset)
    IRITHYLL_RETURN_IF_ERROR(add_guard_settings(config, factory, *spec, spec->settings));
  auto model = factory.make(spec->name, spec->settings, context);
  if (!model) return model.status().with_context("continual");
  auto out = std::make_unique<ContinualLearner>(factory);
  out->config_ = config;
  out->context_ = context;
  out->model_ = std::move(model).value();
  if (config.strategy == ContinualStrategy::kReset) {
    auto detector = make_drift_detector(default_drift_config(config.detector));
    if (!detector) return detector.status().with_context("continual");
    out->detector_ = std::move(detector).value();
  }
  return out;
}

Result<std::unique_ptr<Learner>> ContinualLearner::fresh_model() const {
  auto spec = parse_member_spec(config_.model);
  if (!spec) return spec.status();
  return factory_.make(spec->name, spec->settings, context_);
}

double ContinualLearner::loss(std::span<const double> x, double y) const {
  const double y_hat = model_->predict_one(x);
  if (context_.task == Task::kClassification) return y_hat == y ? 0.0 : 1.0;
  const double e = std::fabs(y - y_hat);
  return std::isfinite(e) ? e : 1.7976931348623157e308;
}

void ContinualLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!model_ || !sample_admissible(x, y, weight, model_->n_features(), context_.task, context_.n_classes)) {
    ++skipped_;
    return;
  }
  if (detector_) {
    const double l = loss(x, y);
    // A fast and a slow average of the loss tell a rise from a fall.
    recent_loss_ += kRecentWeight * (l - recent_loss_);
    longer_loss_ += kLongerWeight * (l - longer_loss_);
    const DriftSignal signal = detector_->update(l);
    // ADWIN, KSWIN and Page-Hinkley also signal a fall in the loss (the model
    // improving): that is no reason to replace it, nor to keep a replacement
    // learning. The other detectors watch rises only.
    const bool two_sided = config_.detector == DriftKind::kAdwin || config_.detector == DriftKind::kKswin ||
                           config_.detector == DriftKind::kPageHinkley;
    if (signal == DriftSignal::kDrift && two_sided && !loss_is_rising()) {
      ++improvements_;
      background_.reset();
    } else if (signal == DriftSignal::kWarning) {
      ++warnings_;
      if (config_.background && !background_) {
        auto fresh = fresh_model();
        if (fresh) background_ = std::move(fresh).value();
      }
    } else if (signal == DriftSignal::kDrift) {
      ++drifts_;
      if (background_) {
        model_ = std::move(background_);
        ++promotions_;
      } else if (auto fresh = fresh_model()) {
        model_ = std::move(fresh).value();
      }
      detector_->reset();
    }
  }
  model_->learn_one(x, y, weight);
  if (background_) background_->learn_one(x, y, weight);
}

bool ContinualLearner::loss_is_rising() const {
  // Both averages start at 0, so each is divided by the weight it has
  // gathered (Adam's bias correction). Uncorrected, the slow one is low for
  // its first thousand or so losses, and a fall early in learning would read
  // as a rise.
  const double n = static_cast<double>(seen_ - skipped_);  // losses averaged, this one included
  const double recent = recent_loss_ / (1.0 - std::pow(1.0 - kRecentWeight, n));
  const double longer = longer_loss_ / (1.0 - std::pow(1.0 - kLongerWeight, n));
  return recent > longer;
}

double ContinualLearner::predict_one(std::span<const double> x) const { return model_ ? model_->predict_one(x) : 0.0; }

void ContinualLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (model_) model_->predict_proba_one(x, proba);
}

void ContinualLearner::reset() {
  if (model_) model_->reset();
  background_.reset();
  if (detector_) detector_->reset();
  seen_ = skipped_ = warnings_ = drifts_ = promotions_ = improvements_ = 0;
  recent_loss_ = longer_loss_ = 0.0;
}

std::size_t ContinualLearner::memory_bytes() const {
  return sizeof(*this) + config_.model.capacity() + (model_ ? model_->memory_bytes() : 0) +
         (background_ ? background_->memory_bytes() : 0) + (detector_ ? detector_->memory_bytes() : 0);
}

std::string ContinualLearner::report_text() const {
  std::string out = "continual: " + std::string(continual_strategy_name(config_.strategy)) + " around " +
                    std::string(model_ ? model_->name() : std::string_view("-"));
  if (config_.strategy == ContinualStrategy::kReset)
    out += ", " + std::to_string(warnings_) + " warnings, " + std::to_string(drifts_) + " drifts (" +
           std::to_string(promotions_) + " replaced by a background model), " + std::to_string(improvements_) +
           " falls in the loss ignored";
  return out + "\n";
}

std::string ContinualLearner::report_json() const {
  return "{\"strategy\":\"" + std::string(continual_strategy_name(config_.strategy)) + "\",\"model\":\"" +
         std::string(model_ ? model_->name() : std::string_view()) + "\",\"warnings\":" + std::to_string(warnings_) +
         ",\"drifts\":" + std::to_string(drifts_) + ",\"promotions\":" + std::to_string(promotions_) +
         ",\"improvements\":" + std::to_string(improvements_) +
         ",\"background\":" + (background_ ? "true" : "false") + "}";
}

namespace {

// The model and the background model: bool present, then the member record.
void encode_member(const Learner* model, ByteWriter& out) {
  out.boolean(model != nullptr);
  if (model) encode_member_record(model, out);
}

Result<std::unique_ptr<Learner>> decode_member(ByteReader& in, const MemberFactory& factory,
                                               const LearnerContext& context) {
  const bool present = in.boolean("continual model present");
  if (!in.ok()) return in.status();
  if (!present) return std::unique_ptr<Learner>();
  return decode_member_record(in, factory, ContinualLearner::kName, context);
}

}  // namespace

void ContinualLearner::encode(ByteWriter& out) const {
  out.u8(kContinualVersion);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(seen_);
  out.u64(skipped_);
  out.u64(warnings_);
  out.u64(drifts_);
  out.u64(promotions_);
  out.u64(improvements_);
  out.f64(recent_loss_);
  out.f64(longer_loss_);
  out.boolean(detector_ != nullptr);
  if (detector_) encode_drift_detector(*detector_, out);
  encode_member(model_.get(), out);
  encode_member(background_.get(), out);
}

Status ContinualLearner::decode(ByteReader& in) {
  if (!factory_.complete()) return Status::invalid_argument("continual: this instance has no model factory to decode with");
  const std::uint8_t version = in.u8("continual version");
  if (in.ok() && version != kContinualVersion)
    return Status::corruption("continual: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, kContinualFields, config));
  const std::uint64_t seen = in.u64("continual seen");
  const std::uint64_t skipped = in.u64("continual skipped");
  const std::uint64_t warnings = in.u64("continual warnings");
  const std::uint64_t drifts = in.u64("continual drifts");
  const std::uint64_t promotions = in.u64("continual promotions");
  const std::uint64_t improvements = in.u64("continual improvements");
  const double recent_loss = in.f64("continual recent loss");
  const double longer_loss = in.f64("continual longer loss");
  const bool has_detector = in.boolean("continual detector present");
  if (!in.ok()) return in.status();
  if (skipped > seen || promotions > drifts || improvements > seen) return Status::corruption("continual: counts out of order");
  if (!(recent_loss >= 0.0 && recent_loss <= 1.7976931348623157e308) ||
      !(longer_loss >= 0.0 && longer_loss <= 1.7976931348623157e308))
    return Status::corruption("continual: a loss average out of range");
  if (has_detector != (config.strategy == ContinualStrategy::kReset))
    return Status::corruption("continual: a detector belongs to strategy reset only");
  std::unique_ptr<DriftDetector> detector;
  if (has_detector) {
    auto d = decode_drift_detector(in);
    if (!d) return d.status().with_context("continual");
    if ((*d)->name() != drift_kind_name(config.detector))
      return Status::corruption("continual: the detector is not the configured " +
                                std::string(drift_kind_name(config.detector)));
    detector = std::move(d).value();
  }
  auto model = decode_member(in, factory_, context);
  if (!model) return model.status();
  if (*model == nullptr) return Status::corruption("continual: no model");
  auto background = decode_member(in, factory_, context);
  if (!background) return background.status();
  if (*background != nullptr && config.strategy != ContinualStrategy::kReset)
    return Status::corruption("continual: a background model belongs to strategy reset only");
  config_ = std::move(config);
  context_ = std::move(context);
  model_ = std::move(model).value();
  background_ = std::move(background).value();
  detector_ = std::move(detector);
  seen_ = seen, skipped_ = skipped, warnings_ = warnings, drifts_ = drifts, promotions_ = promotions, improvements_ = improvements;
  recent_loss_ = recent_loss, longer_loss_ = longer_loss;
  return Status::ok();
}

}  // namespace irithyll
