#include "irithyll/ensemble/quantile_sgbt.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "core/field_rows.hpp"
#include "ensemble/sgbt_family.hpp"
#include "irithyll/ensemble/pava.hpp"

namespace irithyll {

namespace {

// Version 2 adds the `center` flag and the centre model; a model without a
// centre still writes version 1, so older readers and golden files agree.
constexpr std::uint32_t kQuantileSgbtStateVersion = 4;
constexpr std::size_t kMaxQuantiles = 32;
// The target spread used for the correction's step follows the stream with a
// half-life of about 700 samples, so a drift in scale re-sizes the step.
constexpr double kSpreadAlpha = 0.999;

Result<std::vector<double>> parse_quantiles(std::string_view text) {
  std::vector<double> out;
  for (std::string_view item : split_list_items(text, ',')) {
    auto v = parse_field_real("quantiles", item);
    if (!v) return v.status();
    out.push_back(*v);
  }
  return out;
}

std::string print_quantiles(const std::vector<double>& q) {
  std::string s;
  for (double v : q) s += (s.empty() ? "" : ",") + format_field_real(v);
  return s;
}

using QuantileSgbtRow = ConfigField<QuantileSGBTConfig>;
const std::array kQuantileSgbtFields = {
    QuantileSgbtRow{FieldInfo::text("quantiles", "0.05,0.5,0.95", "quantile levels tau, comma-separated, increasing, each in (0, 1)"),
        [](QuantileSGBTConfig& c, std::string_view v) -> Status {
          auto q = parse_quantiles(v);
          if (!q) return q.status();
          c.quantiles = std::move(q).value();
          return Status::ok();
        },
        [](const QuantileSGBTConfig& c) { return print_quantiles(c.quantiles); }},
    QuantileSgbtRow{FieldInfo::boolean("calibrate", "on", "online coverage correction per tau (adaptive conformal inference)"),
        IRITHYLL_FIELD_BOOL(QuantileSGBTConfig, calibrate)},
    QuantileSgbtRow{FieldInfo::real("calibration-rate", "0.01", "step of the coverage correction, in target spreads").in(0, 1, true),
        IRITHYLL_FIELD_REAL(QuantileSGBTConfig, calibration_rate)},
    QuantileSgbtRow{FieldInfo::boolean("center", "on", "tau models learn the residual around a squared-loss SGBT (narrower bands)"),
        IRITHYLL_FIELD_BOOL(QuantileSGBTConfig, center)},
};

SGBTConfig member_config(const SGBTConfig& base, double tau, std::size_t i) {
  SGBTConfig c = base;
  c.loss = LossKind::kQuantile;
  c.loss_param = tau;
  c.seed = base.seed + 0x9E3779B97F4A7C15ull * i;  // members draw different subsamples
  return c;
}

}  // namespace

std::span<const ConfigField<QuantileSGBTConfig>> quantile_sgbt_config_fields() { return kQuantileSgbtFields; }

Status QuantileSGBTConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<QuantileSGBTConfig>("quantile_sgbt", kQuantileSgbtFields, *this));
  if (quantiles.empty() || quantiles.size() > kMaxQuantiles)
    return Status::invalid_argument("quantile_sgbt: quantiles needs 1.." + std::to_string(kMaxQuantiles) + " levels");
  for (std::size_t i = 0; i < quantiles.size(); ++i) {
    if (!(quantiles[i] > 0.0 && quantiles[i] < 1.0))
      return Status::invalid_argument("quantile_sgbt: quantiles = " + format_field_real(quantiles[i]) +
                                      " is out of range: each must be in (0, 1)");
    if (i > 0 && !(quantiles[i] > quantiles[i - 1]))
      return Status::invalid_argument("quantile_sgbt: quantiles must be strictly increasing");
  }
  if (base.loss != LossKind::kSquared || base.loss_param != 0.0)
    return Status::invalid_argument("quantile_sgbt: the loss is the pinball loss at each tau; leave loss unset");
  return base.validate().with_context("quantile_sgbt");
}

Status QuantileSGBTConfig::decode(ByteReader& in) {
  QuantileSGBTConfig c;
  IRITHYLL_RETURN_IF_ERROR(c.base.decode(in));
  const std::uint64_t n = in.u64("quantile count");
  if (!in.ok()) return in.status();
  if (n == 0 || n > kMaxQuantiles) return Status::corruption("quantile_sgbt: quantile count " + std::to_string(n));
  c.quantiles.resize(n);
  for (double& q : c.quantiles) q = in.f64("quantile");
  c.calibrate = in.u8("calibrate") != 0;
  c.calibration_rate = in.f64("calibration rate");
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("quantile_sgbt config"));
  *this = std::move(c);
  return Status::ok();
}

QuantileSGBT::QuantileSGBT() : QuantileSGBT(QuantileSGBTConfig{}) {}

QuantileSGBT::QuantileSGBT(const QuantileSGBTConfig& config) : config_(config) { build(); }

std::span<const ConfigField<QuantileSGBTConfig>> QuantileSGBT::config_fields() {
  return ensemble_detail::family_table<QuantileSGBTConfig, &quantile_sgbt_config_fields>();
}

Result<std::unique_ptr<QuantileSGBT>> QuantileSGBT::make(const Config& config, const LearnerContext& context) {
  return ensemble_detail::make_regressor<QuantileSGBT>(config, context);
}

void QuantileSGBT::build() {
  memo_valid_ = false;
  const std::size_t k = config_.quantiles.size();
  members_.clear();
  members_.reserve(k);
  for (std::size_t i = 0; i < k; ++i) {
    const SGBTConfig member = member_config(config_.base, config_.quantiles[i], i);
    members_.emplace_back(member, LearnerContext{.seed = member.seed});
  }
  center_.clear();
  if (config_.center) {
    SGBTConfig c = config_.base;  // the squared loss (validate() keeps base.loss at its default)
    c.seed = config_.base.seed + 0x9E3779B97F4A7C15ull * k;
    center_.emplace_back(c, LearnerContext{.seed = c.seed});
  }
  offsets_.assign(k, 0.0);
  scratch_.assign(k, 0.0);
  spread_mean_ = spread_var_ = 0.0;
  samples_seen_ = 0;
  median_ = 0;
  origin_ = 0.0;
  unit_ = 1.0;
  standardised_ = false;
  warm_x_.clear();
  warm_y_.clear();
  warm_w_.clear();
  for (std::size_t i = 1; i < k; ++i)
    if (std::abs(config_.quantiles[i] - 0.5) < std::abs(config_.quantiles[median_] - 0.5)) median_ = i;
}

std::size_t QuantileSGBT::n_features() const {
  if (!standardised_ && !warm_y_.empty()) return warm_x_.size() / warm_y_.size();  // fixed by the warm-up buffer
  return members_.empty() ? 0 : members_[0].n_features();
}

void QuantileSGBT::raw_quantiles(std::span<const double> x, std::span<double> out) const {
  // Bit for bit: a -0.0 or a NaN payload is another x (and NaN != NaN).
  if (memo_valid_ && x.size() == memo_x_.size() &&
      (x.empty() || std::memcmp(x.data(), memo_x_.data(), x.size() * sizeof(double)) == 0)) {
    std::copy(memo_raw_.begin(), memo_raw_.end(), out.begin());
    return;
  }
  const double c = center_.empty() ? 0.0 : center_[0].predict_one(x);
  for (std::size_t i = 0; i < members_.size(); ++i)
    out[i] = origin_ + unit_ * (c + members_[i].predict_one(x)) + offsets_[i];
  memo_x_.assign(x.begin(), x.end());
  memo_raw_.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(members_.size()));
  memo_valid_ = true;
}

void QuantileSGBT::predict_quantiles(std::span<const double> x, std::span<double> out) const {
  raw_quantiles(x, out);
  pava_non_decreasing(out);
}

void QuantileSGBT::learn_standardised(std::span<const double> x, double z, double weight) {
  if (!center_.empty()) {
    const double c = center_[0].predict_one(x);  // before the centre learns this sample
    center_[0].learn_one(x, z, weight);
    z -= c;
  }
  for (auto& m : members_) m.learn_one(x, z, weight);
}

double QuantileSGBT::predict_one(std::span<const double> x) const {
  predict_quantiles(x, scratch_);
  return scratch_[median_];
}

Interval QuantileSGBT::predict_interval(std::span<const double> x, double level) const {
  predict_quantiles(x, scratch_);
  const auto& taus = config_.quantiles;
  auto at = [&](double tau) {
    if (tau <= taus.front()) return scratch_.front();
    if (tau >= taus.back()) return scratch_.back();
    const std::size_t hi = static_cast<std::size_t>(std::upper_bound(taus.begin(), taus.end(), tau) - taus.begin());
    const std::size_t lo = hi - 1;
    const double t = (tau - taus[lo]) / (taus[hi] - taus[lo]);
    return scratch_[lo] + t * (scratch_[hi] - scratch_[lo]);
  };
  return Interval{at(0.5 * (1.0 - level)), at(0.5 * (1.0 + level))};
}

void QuantileSGBT::learn_one(std::span<const double> x, double y, double weight) {
  if (!sample_admissible(x, y, weight, n_features(), Task::kRegression, 0)) return;  // the members would skip it too
  // During warm-up the buffer fixes the width, as the members would.
  if (!standardised_ && !warm_y_.empty() && x.size() * warm_y_.size() != warm_x_.size()) return;
  if (config_.calibrate && samples_seen_ > 0) {
    // Correction from the prediction this sample would have received.
    raw_quantiles(x, scratch_);
    const double eta = config_.calibration_rate * std::sqrt(spread_var_);
    for (std::size_t i = 0; i < members_.size(); ++i)
      offsets_[i] += eta * weight * (config_.quantiles[i] - (y <= scratch_[i] ? 1.0 : 0.0));
  }
  memo_valid_ = false;  // everything from here on changes the model
  if (samples_seen_ == 0) {
    spread_mean_ = y;
  } else {
    const double d = y - spread_mean_;
    spread_mean_ += (1.0 - kSpreadAlpha) * d;
    spread_var_ = kSpreadAlpha * (spread_var_ + (1.0 - kSpreadAlpha) * d * d);
  }
  ++samples_seen_;
  if (standardised_) {
    learn_standardised(x, (y - origin_) / unit_, weight);
    return;
  }
  warm_x_.insert(warm_x_.end(), x.begin(), x.end());
  warm_y_.push_back(y);
  warm_w_.push_back(weight);
  if (warm_y_.size() >= config_.base.initial_target_count) standardise_and_replay();
}

void QuantileSGBT::standardise_and_replay() {
  double sw = 0.0, mean = 0.0;
  for (std::size_t i = 0; i < warm_y_.size(); ++i) {
    sw += warm_w_[i];
    mean += warm_w_[i] * warm_y_[i];
  }
  mean /= sw;
  double var = 0.0;
  for (std::size_t i = 0; i < warm_y_.size(); ++i) var += warm_w_[i] * (warm_y_[i] - mean) * (warm_y_[i] - mean);
  const double sd = std::sqrt(var / sw);
  origin_ = mean;
  unit_ = sd > 0.0 && std::isfinite(sd) ? sd : 1.0;  // constant targets keep the raw scale
  standardised_ = true;
  const std::size_t d = warm_x_.size() / warm_y_.size();
  for (std::size_t i = 0; i < warm_y_.size(); ++i) {
    const std::span<const double> xi(warm_x_.data() + i * d, d);
    learn_standardised(xi, (warm_y_[i] - origin_) / unit_, warm_w_[i]);
  }
  std::vector<double>().swap(warm_x_);
  std::vector<double>().swap(warm_y_);
  std::vector<double>().swap(warm_w_);
}

void QuantileSGBT::reset() { build(); }

std::size_t QuantileSGBT::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + (offsets_.capacity() + scratch_.capacity()) * sizeof(double);
  for (const auto& m : members_) bytes += m.memory_bytes();
  for (const auto& m : center_) bytes += m.memory_bytes();
  return bytes;
}

// Version 1 (no centre) and 2 wrote the binary config, and every member its
// own; version 3 the settings by name once, then the members' states alone,
// whose trees still carried their binary configs; version 4 derives the
// trees' settings from the named ones.
void QuantileSGBT::encode(ByteWriter& out) const {
  out.u32(kQuantileSgbtStateVersion);
  ensemble_detail::encode_settings<QuantileSGBT>(config_, LearnerContext{.seed = config_.base.seed}, out);
  out.u64(samples_seen_);
  out.f64(spread_mean_);
  out.f64(spread_var_);
  for (double d : offsets_) out.f64(d);
  out.boolean(standardised_);
  out.f64(origin_);
  out.f64(unit_);
  out.f64s(warm_x_);
  out.f64s(warm_y_);
  out.f64s(warm_w_);
  for (const auto& m : members_) m.encode_state(out);
  for (const auto& m : center_) m.encode_state(out);
}

Status QuantileSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("quantile_sgbt state version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kQuantileSgbtStateVersion)
    return Status::not_supported("quantile_sgbt state version " + std::to_string(version));
  QuantileSGBT next;
  if (version >= 3) {
    auto made = ensemble_detail::decode_settings<QuantileSGBT>(in);
    if (!made) return made.status();
    next = std::move(**made);
  } else {
    IRITHYLL_RETURN_IF_ERROR(next.config_.decode(in));
    next.config_.center = version >= 2 ? in.u8("center") != 0 : false;  // version 1 had no centre
    if (!in.ok()) return in.status();
    IRITHYLL_RETURN_IF_ERROR(ensemble_detail::check_slots_fit<QuantileSGBT>(next.config_, {}, in));
    next.build();
  }
  next.samples_seen_ = in.u64("samples seen");
  next.spread_mean_ = in.f64("spread mean");
  next.spread_var_ = in.f64("spread variance");
  for (double& d : next.offsets_) d = in.f64("offset");
  next.standardised_ = in.u8("standardised") != 0;
  next.origin_ = in.f64("origin");
  next.unit_ = in.f64("unit");
  next.warm_x_ = in.f64s("warm-up features");
  next.warm_y_ = in.f64s("warm-up targets");
  next.warm_w_ = in.f64s("warm-up weights");
  if (!in.ok()) return in.status();
  if (!std::isfinite(next.origin_) || !(next.unit_ > 0.0) || !std::isfinite(next.unit_))
    return Status::corruption("quantile_sgbt: bad target standardisation");
  if (next.warm_y_.size() != next.warm_w_.size() || next.warm_y_.size() >= next.config_.base.initial_target_count ||
      (next.warm_y_.empty() ? !next.warm_x_.empty() : next.warm_x_.size() % next.warm_y_.size() != 0) ||
      (next.standardised_ && !next.warm_y_.empty()))
    return Status::corruption("quantile_sgbt: inconsistent warm-up buffer");
  for (const double d : next.offsets_)
    if (!std::isfinite(d)) return Status::corruption("quantile_sgbt: non-finite offset");
  if (!std::isfinite(next.spread_mean_) || !(next.spread_var_ >= 0.0) || !std::isfinite(next.spread_var_))
    return Status::corruption("quantile_sgbt: bad target spread");
  // From version 3 the members' settings derive from config_.
  const TreeSettings trees = version == 3 ? TreeSettings::kInRecord : TreeSettings::kDerived;
  const auto read = [&](SGBTLearner& m) { return version >= 3 ? m.decode_state(in, trees) : m.decode(in); };
  for (auto& m : next.members_) {
    IRITHYLL_RETURN_IF_ERROR(read(m).with_context("quantile_sgbt member"));
    if (m.task() != Task::kRegression) return Status::corruption("quantile_sgbt: member is not a regressor");
  }
  for (auto& m : next.center_) {
    IRITHYLL_RETURN_IF_ERROR(read(m).with_context("quantile_sgbt centre"));
    if (m.task() != Task::kRegression) return Status::corruption("quantile_sgbt: centre is not a regressor");
  }
  *this = std::move(next);
  return Status::ok();
}

}  // namespace irithyll
