#include "irithyll/ensemble/distributional_sgbt.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "ensemble/sgbt_family.hpp"

namespace irithyll {

namespace {

constexpr std::uint32_t kDistributionalSgbtStateVersion = 3;
// sqrt(pi / 2): sigma over E|r| for Gaussian r.
constexpr double kAbsToSigma = 1.2533141373155003;
// Residuals used for the scale and calibration start after a short warm-up,
// while the location ensemble still predicts its base value.
constexpr std::uint64_t kWarmup = 50;

Result<ScaleModel> parse_scale(std::string_view v) {
  if (v == "tree") return ScaleModel::kTree;
  if (v == "empirical") return ScaleModel::kEmpirical;
  return Status::invalid_argument("scale = '" + std::string(v) + "' is not one of tree|empirical");
}
std::string_view scale_name(ScaleModel s) { return s == ScaleModel::kTree ? "tree" : "empirical"; }

using DistributionalSgbtRow = ConfigField<DistributionalSGBTConfig>;
const std::array kDistributionalSgbtFields = {
    DistributionalSgbtRow{FieldInfo::choice("scale", "tree", "tree|empirical",
                          "sigma(x) from a second SGBT on log r^2 (tree) or one global EWMA of r^2 (empirical)"),
        IRITHYLL_FIELD_ENUM(DistributionalSGBTConfig, scale, parse_scale, scale_name)},
    DistributionalSgbtRow{FieldInfo::real("scale-half-life", "500", "half-life in samples of the r^2 and calibration averages")
            .in(10, 1e9),
        IRITHYLL_FIELD_REAL(DistributionalSGBTConfig, scale_half_life)},
    DistributionalSgbtRow{FieldInfo::boolean("calibrate", "on", "rescale sigma so normalised residuals keep unit variance"),
        IRITHYLL_FIELD_BOOL(DistributionalSGBTConfig, calibrate)},
};

}  // namespace

std::span<const ConfigField<DistributionalSGBTConfig>> distributional_sgbt_config_fields() { return kDistributionalSgbtFields; }

Status DistributionalSGBTConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<DistributionalSGBTConfig>("distributional_sgbt", kDistributionalSgbtFields, *this));
  if (static_cast<unsigned>(scale) > 1) return Status::invalid_argument("distributional_sgbt: unknown scale model");
  if (base.loss != LossKind::kSquared)
    return Status::invalid_argument("distributional_sgbt: the location ensemble uses the squared loss");
  return base.validate().with_context("distributional_sgbt");
}

Status DistributionalSGBTConfig::decode(ByteReader& in) {
  DistributionalSGBTConfig c;
  IRITHYLL_RETURN_IF_ERROR(c.base.decode(in));
  const std::uint8_t s = in.u8("scale model");
  c.scale_half_life = in.f64("scale half-life");
  c.calibrate = in.u8("calibrate") != 0;
  if (!in.ok()) return in.status();
  if (s > 1) return Status::corruption("distributional_sgbt: scale model " + std::to_string(s));
  c.scale = static_cast<ScaleModel>(s);
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("distributional_sgbt config"));
  *this = c;
  return Status::ok();
}

DistributionalSGBT::DistributionalSGBT() : DistributionalSGBT(DistributionalSGBTConfig{}) {}

DistributionalSGBT::DistributionalSGBT(const DistributionalSGBTConfig& config) : config_(config) { build(); }

std::span<const ConfigField<DistributionalSGBTConfig>> DistributionalSGBT::config_fields() {
  return ensemble_detail::family_table<DistributionalSGBTConfig, &distributional_sgbt_config_fields>();
}

Result<std::unique_ptr<DistributionalSGBT>> DistributionalSGBT::make(const Config& config, const LearnerContext& context) {
  return ensemble_detail::make_regressor<DistributionalSGBT>(config, context);
}

void DistributionalSGBT::build() {
  location_ = SGBTLearner(config_.base, LearnerContext{.seed = config_.base.seed});
  SGBTConfig scale = config_.base;
  scale.seed = config_.base.seed ^ 0x5CA1Eull;  // its own feature subsamples
  scale_ = SGBTLearner(scale, LearnerContext{.seed = scale.seed});
  alpha_ = std::exp(-std::log(2.0) / config_.scale_half_life);
  residual_sq_ = 0.0;
  calibration_ = 1.0;
  samples_seen_ = 0;
}

double DistributionalSGBT::sigma_raw(std::span<const double> x) const {
  const double global = std::sqrt(residual_sq_);
  if (config_.scale == ScaleModel::kTree && samples_seen_ > 2 * kWarmup)
    return std::max(kAbsToSigma * scale_.predict_one(x), 0.05 * global);
  return global;
}

double DistributionalSGBT::predict_sigma(std::span<const double> x) const {
  const double s = sigma_raw(x);
  return config_.calibrate ? s * std::sqrt(calibration_) : s;
}

Interval DistributionalSGBT::predict_interval(std::span<const double> x, double level) const {
  if (level != last_level_) {
    last_level_ = level;
    last_z_ = normal_quantile(0.5 * (1.0 + level));
  }
  const double mu = location_.predict_one(x);
  const double half = last_z_ * predict_sigma(x);
  return Interval{mu - half, mu + half};
}

void DistributionalSGBT::learn_one(std::span<const double> x, double y, double weight) {
  // A wrong width is refused here too: the residual averages below would
  // otherwise move on a prediction the location model refuses to make.
  if (!sample_admissible(x, y, weight, n_features(), Task::kRegression, 0)) return;
  if (samples_seen_ >= kWarmup) {
    // A weight-w sample moves the averages like w unit samples would (a^w);
    // weight 1, the common case, keeps the plain factor.
    const double a = weight == 1.0 ? alpha_ : std::pow(alpha_, weight);
    const double r = y - location_.predict_one(x);
    const double r2 = r * r;
    // Calibration first, from the sigma this sample was predicted with.
    const double s = sigma_raw(x);
    if (samples_seen_ > kWarmup && s > 0.0 && std::isfinite(s))
      calibration_ = a * calibration_ + (1.0 - a) * std::min(r2 / (s * s), 1e6);
    residual_sq_ = samples_seen_ == kWarmup ? r2 : a * residual_sq_ + (1.0 - a) * r2;
    if (config_.scale == ScaleModel::kTree) scale_.learn_one(x, std::abs(r), weight);
  }
  location_.learn_one(x, y, weight);
  ++samples_seen_;
}

void DistributionalSGBT::reset() { build(); }

std::size_t DistributionalSGBT::memory_bytes() const {
  return sizeof(*this) + location_.memory_bytes() + scale_.memory_bytes();
}

// Version 1 wrote the binary config (and the location and scale SGBTs
// their own); version 2 the settings by name once, then the state alone,
// whose trees still carried their binary configs; version 3 derives the
// trees' settings from the named ones.
void DistributionalSGBT::encode(ByteWriter& out) const {
  out.u32(kDistributionalSgbtStateVersion);
  ensemble_detail::encode_settings<DistributionalSGBT>(config_, LearnerContext{.seed = config_.base.seed}, out);
  encode_state(out);
}

void DistributionalSGBT::encode_state(ByteWriter& out) const {
  out.u64(samples_seen_);
  out.f64(residual_sq_);
  out.f64(calibration_);
  location_.encode_state(out);
  scale_.encode_state(out);
}

Status DistributionalSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("distributional_sgbt state version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kDistributionalSgbtStateVersion)
    return Status::not_supported("distributional_sgbt state version " + std::to_string(version));
  if (version >= 2) {
    auto made = ensemble_detail::decode_settings<DistributionalSGBT>(in);
    if (!made) return made.status();
    IRITHYLL_RETURN_IF_ERROR((*made)->decode_state(in, version == 2 ? TreeSettings::kInRecord : TreeSettings::kDerived));
    *this = std::move(**made);
    return Status::ok();
  }
  DistributionalSGBT next;
  IRITHYLL_RETURN_IF_ERROR(next.config_.decode(in));
  next.build();
  IRITHYLL_RETURN_IF_ERROR(next.decode_statistics(in));
  IRITHYLL_RETURN_IF_ERROR(next.location_.decode(in).with_context("distributional_sgbt location"));
  IRITHYLL_RETURN_IF_ERROR(next.scale_.decode(in).with_context("distributional_sgbt scale"));
  if (next.location_.task() != Task::kRegression || next.scale_.task() != Task::kRegression)
    return Status::corruption("distributional_sgbt: member is not a regressor");
  *this = std::move(next);
  return Status::ok();
}

Status DistributionalSGBT::decode_state(ByteReader& in, TreeSettings trees) {
  DistributionalSGBT next(config_);
  IRITHYLL_RETURN_IF_ERROR(next.decode_statistics(in));
  IRITHYLL_RETURN_IF_ERROR(next.location_.decode_state(in, trees).with_context("distributional_sgbt location"));
  IRITHYLL_RETURN_IF_ERROR(next.scale_.decode_state(in, trees).with_context("distributional_sgbt scale"));
  *this = std::move(next);
  return Status::ok();
}

Status DistributionalSGBT::decode_statistics(ByteReader& in) {
  samples_seen_ = in.u64("samples seen");
  residual_sq_ = in.f64("residual EWMA");
  calibration_ = in.f64("calibration");
  if (!in.ok()) return in.status();
  if (!(residual_sq_ >= 0.0) || !std::isfinite(residual_sq_) || !(calibration_ >= 0.0) || !std::isfinite(calibration_))
    return Status::corruption("distributional_sgbt: bad scale statistics");
  return Status::ok();
}

}  // namespace irithyll
