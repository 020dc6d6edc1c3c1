#include "irithyll/timeseries/holt_winters.hpp"

#include <array>
#include <cmath>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "core/field_rows.hpp"

namespace irithyll::timeseries {

namespace {

constexpr std::uint32_t kStateVersion = 2;
constexpr std::uint32_t kMaxPeriod = 1u << 20;
// A multiplicative denominator closer to 0 than this is replaced by it, so a
// series that touches 0 gives large but finite states, never inf or NaN.
constexpr double kTiny = 1e-12;

double guard(double d) { return std::abs(d) < kTiny ? (d < 0.0 ? -kTiny : kTiny) : d; }

using Row = ConfigField<HoltWintersConfig>;
const std::array kFields = {
    Row{FieldInfo::real("alpha", "0.2", "level smoothing: higher follows the series faster").in(0, 1, true),
        IRITHYLL_FIELD_REAL(HoltWintersConfig, alpha)},
    Row{FieldInfo::real("beta", "0.05", "trend smoothing (with trend on)").in(0, 1),
        IRITHYLL_FIELD_REAL(HoltWintersConfig, beta)},
    Row{FieldInfo::real("gamma", "0.1", "seasonal smoothing (with a season)").in(0, 1),
        IRITHYLL_FIELD_REAL(HoltWintersConfig, gamma)},
    Row{FieldInfo::real("phi", "1", "trend damping per step ahead; 1 = undamped").in(0, 1, true),
        IRITHYLL_FIELD_REAL(HoltWintersConfig, phi)},
    Row{FieldInfo::boolean("trend", "on", "additive trend; off = level (and season) only"),
        IRITHYLL_FIELD_BOOL(HoltWintersConfig, trend)},
    Row{FieldInfo::integer("seasonality", "0", "seasonal period m in steps (12 for monthly data, 24 for hourly)")
            .in(2, kMaxPeriod)
            .or_off(),
        IRITHYLL_FIELD_UINT(HoltWintersConfig, seasonality)},
    Row{FieldInfo::boolean("multiplicative", "off", "multiplicative season (a positive series); off = additive"),
        IRITHYLL_FIELD_BOOL(HoltWintersConfig, multiplicative)},
};

}  // namespace

std::span<const ConfigField<HoltWintersConfig>> holt_winters_fields() { return kFields; }

Status HoltWintersConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<HoltWintersConfig>("holt_winters", kFields, *this));
  if (multiplicative && seasonality == 0)
    return Status::invalid_argument("holt_winters: multiplicative needs a season (seasonality >= 2)");
  return Status::ok();
}

std::size_t holt_winters_warmup(const HoltWintersConfig& config) {
  if (config.seasonality > 0) return 2 * std::size_t{config.seasonality};
  return config.trend ? 2 : 1;
}

HoltWintersStates holt_winters_initial_states(const HoltWintersConfig& config, std::span<const double> first) {
  const std::size_t m = config.seasonality > 0 ? config.seasonality : 1;
  HoltWintersStates st;
  double mean1 = 0.0;
  for (std::size_t j = 0; j < m; ++j) mean1 += first[j];
  mean1 /= static_cast<double>(m);
  if (config.trend && first.size() >= 2 * m) {
    double slope = 0.0;
    for (std::size_t j = 0; j < m; ++j) slope += (first[m + j] - first[j]) / static_cast<double>(m);
    st.trend = slope / static_cast<double>(m);
  }
  // The first season's mean sits at time (m+1)/2 of the 1-based clock.
  st.level = mean1 - st.trend * (static_cast<double>(m) + 1.0) / 2.0;
  if (config.seasonality == 0) return st;
  st.seasonals.assign(m, 0.0);
  const std::size_t seasons = first.size() / m;
  for (std::size_t k = 0; k < seasons; ++k)
    for (std::size_t j = 0; j < m; ++j) {
      const std::size_t t = k * m + j;
      const double fit = st.level + static_cast<double>(t + 1) * st.trend;
      st.seasonals[j] += (config.multiplicative ? first[t] / guard(fit) : first[t] - fit) / static_cast<double>(seasons);
    }
  double mean = 0.0;
  for (double s : st.seasonals) mean += s / static_cast<double>(m);
  for (double& s : st.seasonals) {
    if (config.multiplicative) s /= guard(mean);
    else s -= mean;
  }
  return st;
}

HoltWinters::HoltWinters(const HoltWintersConfig& config) : config_(config) {
  alphac_ = 1.0 - config_.alpha;
  betac_phi_ = (1.0 - config_.beta) * config_.phi;
  gammac_ = 1.0 - config_.gamma;
  reset();
}

void HoltWinters::reset() {
  initialized_ = false;
  level_ = trend_ = 0.0;
  season_.assign(config_.seasonality > 0 ? config_.seasonality : 1, config_.multiplicative ? 1.0 : 0.0);
  pos_ = 0;
  warmup_.clear();
  warmup_.reserve(holt_winters_warmup(config_));
  last_ = 0.0;
  n_seen_ = 0;
}

Status HoltWinters::set_initial_states(const HoltWintersStates& states) {
  if (n_seen_ > 0 || !warmup_.empty())
    return Status::invalid_argument("holt_winters: initial states must be set before the first value");
  if (states.seasonals.size() != config_.seasonality)
    return Status::invalid_argument("holt_winters: " + std::to_string(states.seasonals.size()) +
                                    " initial seasonals given, seasonality is " +
                                    std::to_string(config_.seasonality));
  if (!std::isfinite(states.level) || !std::isfinite(states.trend))
    return Status::invalid_argument("holt_winters: initial level and trend must be finite");
  for (double s : states.seasonals)
    if (!std::isfinite(s)) return Status::invalid_argument("holt_winters: initial seasonals must be finite");
  start(states);
  return Status::ok();
}

void HoltWinters::start(const HoltWintersStates& states) {
  level_ = states.level;
  trend_ = config_.trend ? states.trend : 0.0;
  if (config_.seasonality > 0) season_ = states.seasonals;
  pos_ = 0;
  initialized_ = true;
}

// One step of the recursion, in statsmodels' operation order so that the two
// agree to the last bits on the same data (y_alpha = alpha y first).
void HoltWinters::step(double y) {
  const double lb = level_ + config_.phi * trend_;  // l_{t-1} + phi b_{t-1}
  double& s = season_[pos_];
  const double prev = level_;
  if (config_.multiplicative) {
    level_ = (config_.alpha * y) / guard(s) + alphac_ * lb;
    s = (config_.gamma * y) / guard(lb) + gammac_ * s;
  } else {
    level_ = (config_.alpha * y) - config_.alpha * s + alphac_ * lb;
    if (config_.seasonality > 0) s = (config_.gamma * y) - config_.gamma * lb + gammac_ * s;
  }
  if (config_.trend) trend_ = config_.beta * (level_ - prev) + betac_phi_ * trend_;
  if (++pos_ == season_.size()) pos_ = 0;
}

Status HoltWinters::learn_one(double y, std::span<const double> /*x: no exogenous inputs*/) {
  if (!std::isfinite(y)) {
    // Missing: coast on the model's own forecast so the season stays aligned.
    if (initialized_) step(forecast_one());
    else if (!warmup_.empty()) warmup_.push_back(last_);
    else return Status::ok();  // nothing to coast on yet
  } else {
    ++n_seen_;
    last_ = y;
    if (initialized_) {
      step(y);
      return Status::ok();
    }
    warmup_.push_back(y);
  }
  if (!initialized_ && warmup_.size() == holt_winters_warmup(config_)) {
    start(holt_winters_initial_states(config_, warmup_));
    for (double v : warmup_) step(v);
    warmup_.clear();
    warmup_.shrink_to_fit();
  }
  return Status::ok();
}

double HoltWinters::forecast_one() const {
  if (!initialized_) return last_;
  const double lb = level_ + config_.phi * trend_;
  return config_.multiplicative ? lb * season_[pos_] : lb + season_[pos_];
}

Status HoltWinters::forecast(std::span<const double> /*xs*/, std::span<double> out) const {
  if (!initialized_) {
    for (double& v : out) v = last_;
    return Status::ok();
  }
  double damp = 0.0, phi_h = 1.0;  // damp = phi + ... + phi^h
  std::size_t j = pos_;
  for (double& v : out) {
    phi_h *= config_.phi;
    damp += phi_h;
    const double lb = level_ + damp * trend_;
    v = config_.multiplicative ? lb * season_[j] : lb + season_[j];
    if (++j == season_.size()) j = 0;
  }
  return Status::ok();
}

std::vector<double> HoltWinters::seasonals() const {
  std::vector<double> out;
  if (config_.seasonality == 0) return out;
  for (std::size_t k = 0; k < season_.size(); ++k) out.push_back(season_[(pos_ + k) % season_.size()]);
  return out;
}

std::size_t HoltWinters::memory_bytes() const {
  return sizeof(*this) + season_.capacity() * sizeof(double) + warmup_.capacity() * sizeof(double);
}

// Version 1 wrote the settings as fixed binary fields; version 2 by name
// from the field table.
void HoltWinters::encode(ByteWriter& out) const {
  out.u32(kStateVersion);
  encode_config(std::span<const ConfigField<HoltWintersConfig>>(kFields), config_, out, ConfigLengths::kVarint);
  out.boolean(initialized_);
  out.f64(level_);
  out.f64(trend_);
  out.f64s(season_);
  out.u32(pos_);
  out.f64s(warmup_);
  out.f64(last_);
  out.u64(n_seen_);
}

Status HoltWinters::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("holt_winters version");
  if (in.ok() && version != 1 && version != kStateVersion)
    return Status::corruption("holt_winters: unsupported state version");
  HoltWintersConfig c;
  if (version == 1) {
    c.alpha = in.f64("alpha");
    c.beta = in.f64("beta");
    c.gamma = in.f64("gamma");
    c.phi = in.f64("phi");
    c.trend = in.boolean("trend");
    c.seasonality = in.u32("seasonality");
    c.multiplicative = in.boolean("multiplicative");
  } else {
    IRITHYLL_RETURN_IF_ERROR(
        decode_config("holt_winters", std::span<const ConfigField<HoltWintersConfig>>(kFields), in, c));
  }
  if (!in.ok()) return in.status();
  if (Status s = c.validate(); !s) return Status::corruption("holt_winters checkpoint: " + s.message());
  HoltWinters m(c);
  m.initialized_ = in.boolean("initialized");
  m.level_ = in.f64("level");
  m.trend_ = in.f64("trend");
  m.season_ = in.f64s("seasonals");
  m.pos_ = in.u32("position");
  m.warmup_ = in.f64s("warm-up buffer");
  m.last_ = in.f64("last value");
  m.n_seen_ = in.u64("samples seen");
  if (!in.ok()) return in.status();
  const std::size_t ring = c.seasonality > 0 ? c.seasonality : 1;
  if (m.season_.size() != ring || m.pos_ >= ring || m.warmup_.size() >= holt_winters_warmup(c) ||
      (m.initialized_ && !m.warmup_.empty()))
    return Status::corruption("holt_winters checkpoint: inconsistent state sizes");
  m.warmup_.reserve(holt_winters_warmup(c));
  *this = std::move(m);
  return Status::ok();
}

}  // namespace irithyll::timeseries
