#include "irithyll/timeseries/snarimax.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "core/field_rows.hpp"

namespace irithyll::timeseries {

namespace {

// 2 added rls and P; 3 the exogenous origin; 4 the regressor; 5 writes the
// settings by name from the field table instead of fixed binary fields.
constexpr std::uint32_t kStateVersion = 5;

// P_0's entry for the constant c: the prior is a ridge penalty (P_0^-1) on
// each weight; a near-flat one on c leaves the level to the data (c is the
// level at the first row's exogenous features, where the fit puts their
// origin).
constexpr double kInterceptPrior = 1e6;

using Row = ConfigField<SnarimaxConfig>;
const std::array kFields = {
    Row{FieldInfo::integer("p", "1", "AR order: lags of the (differenced) series").in(0, 512),
        IRITHYLL_FIELD_UINT(SnarimaxConfig, p)},
    Row{FieldInfo::integer("d", "0", "differencing order").in(0, 4), IRITHYLL_FIELD_UINT(SnarimaxConfig, d)},
    Row{FieldInfo::integer("q", "0", "MA order: lags of the past errors").in(0, 512),
        IRITHYLL_FIELD_UINT(SnarimaxConfig, q)},
    Row{FieldInfo::integer("m", "1", "season length in steps (the seasonal lag)").in(1, 100000),
        IRITHYLL_FIELD_UINT(SnarimaxConfig, m)},
    Row{FieldInfo::integer("sp", "0", "seasonal AR order: lags m, 2m, ...").in(0, 64),
        IRITHYLL_FIELD_UINT(SnarimaxConfig, sp)},
    Row{FieldInfo::integer("sd", "0", "seasonal differencing order").in(0, 2), IRITHYLL_FIELD_UINT(SnarimaxConfig, sd)},
    Row{FieldInfo::integer("sq", "0", "seasonal MA order: error lags m, 2m, ...").in(0, 64),
        IRITHYLL_FIELD_UINT(SnarimaxConfig, sq)},
    Row{FieldInfo::real("learning-rate", "0.02", "SGD step size (NLMS: stable in (0, 2) without MA terms; MA feedback needs less)").in(0, 10, true),
        IRITHYLL_FIELD_REAL(SnarimaxConfig, learning_rate)},
    Row{FieldInfo::boolean("normalize", "on", "NLMS: step divided by 1 + |features|^2 (scale-free); off = plain SGD"),
        IRITHYLL_FIELD_BOOL(SnarimaxConfig, normalize)},
    Row{FieldInfo::boolean("rls", "on", "recursive least squares (extended least squares); off = a gradient step (learning-rate, normalize)"),
        IRITHYLL_FIELD_BOOL(SnarimaxConfig, rls)},
    Row{FieldInfo::text("regressor", "",
                        "a catalogue regressor or pipeline as --model spells it, in place of the built-in linear model "
                        "(River's regressor=), e.g. standard_scaler|linear_regression(intercept-lr=0.3); empty = built-in"),
        [](SnarimaxConfig& c, std::string_view v) -> Status {
          c.regressor = std::string(v);
          return Status::ok();
        },
        [](const SnarimaxConfig& c) { return c.regressor; }},
};

}  // namespace

std::span<const ConfigField<SnarimaxConfig>> snarimax_fields() { return kFields; }

Status SnarimaxConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<SnarimaxConfig>("snarimax", kFields, *this));
  if (std::uint64_t{std::max(sp, std::max(sd, sq))} * m > 1000000)
    return Status::invalid_argument("snarimax: seasonal lags reach past 1e6 steps (m * max(sp, sd, sq))");
  return Status::ok();
}

Snarimax::Snarimax(const SnarimaxConfig& config) : config_(config) {
  diff_coef_ = {1.0};
  auto multiply = [&](std::size_t lag) {
    std::vector<double> next(diff_coef_.size() + lag, 0.0);
    for (std::size_t k = 0; k < diff_coef_.size(); ++k) {
      next[k] += diff_coef_[k];
      next[k + lag] -= diff_coef_[k];
    }
    diff_coef_ = std::move(next);
  };
  for (std::uint32_t i = 0; i < config_.d; ++i) multiply(1);
  for (std::uint32_t i = 0; i < config_.sd; ++i) multiply(config_.m);
  z_len_ = std::max<std::size_t>(config_.p, std::size_t{config_.sp} * config_.m);
  e_len_ = std::max<std::size_t>(config_.q, std::size_t{config_.sq} * config_.m);
  reset();
}

void Snarimax::reset() {
  y_hist_.assign(std::max<std::size_t>(diff_coef_.size() - 1, 1), 0.0);
  z_hist_.assign(z_len_, 0.0);
  e_hist_.assign(e_len_, 0.0);
  y_count_ = 0;
  weights_.assign(n_lag_features(), 0.0);
  intercept_ = 0.0;
  p_.clear();
  n_exo_ = 0;
  x_origin_.clear();
  regressor_.reset();
  exo_fixed_ = false;
  n_seen_ = 0;
  feats_.assign(weights_.size(), 0.0);
}

namespace {
void push(std::vector<double>& hist, double v) {
  if (hist.empty()) return;
  std::copy(hist.begin() + 1, hist.end(), hist.begin());
  hist.back() = v;
}
}  // namespace

void Snarimax::features(const double* z_end, const double* e_end, std::span<const double> x) const {
  double* f = feats_.data();
  for (std::uint32_t i = 1; i <= config_.p; ++i) *f++ = z_end[-static_cast<std::ptrdiff_t>(i)];
  for (std::uint32_t j = 1; j <= config_.q; ++j) *f++ = e_end[-static_cast<std::ptrdiff_t>(j)];
  for (std::uint32_t k = 1; k <= config_.sp; ++k) *f++ = z_end[-static_cast<std::ptrdiff_t>(k * config_.m)];
  for (std::uint32_t k = 1; k <= config_.sq; ++k) *f++ = e_end[-static_cast<std::ptrdiff_t>(k * config_.m)];
  for (std::size_t l = 0; l < n_exo_; ++l) {
    const double v = (l < x.size() ? x[l] : 0.0) - (x_origin_.empty() ? 0.0 : x_origin_[l]);
    *f++ = std::isfinite(v) ? v : 0.0;
  }
}

Status Snarimax::set_factory(const MemberFactory& factory) {
  factory_ = factory;
  if (config_.regressor.empty()) return Status::ok();
  if (factory_.build == nullptr) return Status::invalid_argument("snarimax: regressor needs the catalogue's models");
  // The width is known at the first fitted row; a probe checks the text now.
  auto made = factory_.build(config_.regressor,
                             LearnerContext{Task::kRegression, 0, std::max<std::size_t>(n_lag_features(), 1), 0});
  if (!made) return Status(made.status()).with_context("snarimax regressor");
  if ((*made)->task() != Task::kRegression)
    return Status::invalid_argument("snarimax: regressor '" + config_.regressor + "' is not a regressor");
  return Status::ok();
}

double Snarimax::intercept() const {
  double c = intercept_;
  for (std::size_t l = 0; l < x_origin_.size(); ++l) c -= weights_[n_lag_features() + l] * x_origin_[l];
  return c;
}

double Snarimax::predict_features() const {
  if (!config_.regressor.empty()) return regressor_ ? regressor_->predict_one(feats_) : 0.0;
  double s = intercept_;
  for (std::size_t k = 0; k < weights_.size(); ++k) s += weights_[k] * feats_[k];
  return s;
}

Status Snarimax::learn_one(double y, std::span<const double> x) {
  if (!x.empty()) {
    if (!exo_fixed_) {
      if (regressor_) return Status::invalid_argument("snarimax: exogenous features arrived after the regressor was built without them");
      n_exo_ = x.size();
      exo_fixed_ = true;
      weights_.resize(n_lag_features() + n_exo_, 0.0);
      feats_.assign(weights_.size(), 0.0);
      if (uses_rls())
        for (double v : x) x_origin_.push_back(std::isfinite(v) ? v : 0.0);
    } else if (x.size() != n_exo_) {
      return Status::invalid_argument("snarimax: " + std::to_string(x.size()) + " exogenous features, expected " +
                                      std::to_string(n_exo_));
    }
  }
  const std::size_t D = diff_coef_.size() - 1;
  if (!std::isfinite(y)) {
    if (y_count_ == 0) return Status::ok();  // nothing to coast on yet
    double one = 0.0;
    IRITHYLL_RETURN_IF_ERROR(forecast(x, std::span<double>(&one, 1)));
    y = one;
  } else {
    ++n_seen_;
  }
  if (y_count_ >= D) {
    const double* y_end = y_hist_.data() + y_hist_.size();
    double z = y;
    for (std::size_t k = 1; k <= D; ++k) z += diff_coef_[k] * y_end[-static_cast<std::ptrdiff_t>(k)];
    // Recursive least squares weighs every row it has fitted equally, forever:
    // a row whose AR lags are stand-in zeros (the series has not reached
    // back that far) would bias the weights for good, so the fit starts with
    // the first row whose lags are all real, and the rows before it leave a
    // zero error behind (no prediction was fitted).
    const bool fits = y_count_ - D >= fit_delay();
    if (fits && !config_.regressor.empty() && !regressor_) {  // the width is known now
      if (factory_.build == nullptr) return Status::invalid_argument("snarimax: regressor needs the catalogue's models");
      auto made = factory_.build(config_.regressor, LearnerContext{Task::kRegression, 0, weights_.size(), 0});
      if (!made) return Status(made.status()).with_context("snarimax regressor");
      regressor_ = std::move(made).value();
    }
    features(z_hist_.data() + z_hist_.size(), e_hist_.data() + e_hist_.size(), x);
    const double e = fits ? z - predict_features() : 0.0;
    if (fits && std::isfinite(e) && regressor_) {
      regressor_->learn_one(feats_, z);
    } else if (fits && std::isfinite(e) && config_.rls) {
      rls_update(e);
    } else if (fits && std::isfinite(e)) {
      double step = config_.learning_rate * e;
      if (config_.normalize) {
        double norm = 1.0;
        for (double f : feats_) norm += f * f;
        step /= norm;
      }
      for (std::size_t k = 0; k < weights_.size(); ++k) weights_[k] += step * feats_[k];
      intercept_ += step;
    }
    push(z_hist_, z);
    push(e_hist_, std::isfinite(e) ? e : 0.0);
  }
  push(y_hist_, y);
  ++y_count_;
  return Status::ok();
}

void Snarimax::rls_update(double e) {
  // theta = (weights, intercept), phi = (feats, 1).
  const std::size_t n = weights_.size() + 1;
  if (p_.size() != n * n) {  // first update, or the exogenous width was just fixed
    p_.assign(n * n, 0.0);
    for (std::size_t i = 0; i + 1 < n; ++i) p_[i * n + i] = 1.0;
    p_[n * n - 1] = kInterceptPrior;
  }
  pphi_.resize(n);
  double denom = 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = p_[i * n + n - 1];
    for (std::size_t j = 0; j + 1 < n; ++j) s += p_[i * n + j] * feats_[j];
    pphi_[i] = s;
  }
  for (std::size_t j = 0; j + 1 < n; ++j) denom += feats_[j] * pphi_[j];
  denom += pphi_[n - 1];
  if (!(std::isfinite(denom) && denom > 0.0)) return;  // lost positive definiteness: skip the step
  for (std::size_t j = 0; j + 1 < n; ++j) weights_[j] += pphi_[j] / denom * e;
  intercept_ += pphi_[n - 1] / denom * e;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) p_[i * n + j] -= pphi_[i] / denom * pphi_[j];
}

Status Snarimax::forecast(std::span<const double> xs, std::span<double> out) const {
  if (n_exo_ > 0 && !xs.empty() && xs.size() != out.size() * n_exo_)
    return Status::invalid_argument("snarimax: forecast of " + std::to_string(out.size()) + " steps needs " +
                                    std::to_string(out.size() * n_exo_) + " exogenous values, got " +
                                    std::to_string(xs.size()));
  const std::size_t D = diff_coef_.size() - 1;
  // Until the least-squares fit has started, its zero weights say nothing:
  // the last value stands in.
  const std::size_t ready = D + (uses_rls() ? z_len_ + 1 : 0);
  if (y_count_ == 0 || y_count_ < ready) {
    std::fill(out.begin(), out.end(), y_count_ == 0 ? 0.0 : y_hist_.back());
    return Status::ok();
  }
  fy_.assign(y_hist_.begin(), y_hist_.end());
  fz_.assign(z_hist_.begin(), z_hist_.end());
  fe_.assign(e_hist_.begin(), e_hist_.end());
  for (std::size_t h = 0; h < out.size(); ++h) {
    const std::span<const double> row = xs.empty() || n_exo_ == 0 ? std::span<const double>{} : xs.subspan(h * n_exo_, n_exo_);
    features(fz_.data() + fz_.size(), fe_.data() + fe_.size(), row);
    const double zhat = predict_features();
    double yhat = zhat;
    const double* y_end = fy_.data() + fy_.size();
    for (std::size_t k = 1; k <= D; ++k) yhat -= diff_coef_[k] * y_end[-static_cast<std::ptrdiff_t>(k)];
    out[h] = yhat;
    fy_.push_back(yhat);
    fz_.push_back(zhat);
    fe_.push_back(0.0);
  }
  return Status::ok();
}

std::size_t Snarimax::memory_bytes() const {
  const std::size_t doubles = p_.capacity() + x_origin_.capacity() + pphi_.capacity() + diff_coef_.capacity() + y_hist_.capacity() +
                              z_hist_.capacity() + e_hist_.capacity() +
                              weights_.capacity() + feats_.capacity() + fy_.capacity() + fz_.capacity() +
                              fe_.capacity();
  return sizeof(*this) + doubles * sizeof(double) + config_.regressor.capacity() +
         (regressor_ ? regressor_->memory_bytes() : 0);
}

void Snarimax::encode(ByteWriter& out) const {
  out.u32(kStateVersion);
  encode_config(std::span<const ConfigField<SnarimaxConfig>>(kFields), config_, out, ConfigLengths::kVarint);
  out.f64s(y_hist_);
  out.f64s(z_hist_);
  out.f64s(e_hist_);
  out.u64(y_count_);
  out.f64s(weights_);
  out.f64(intercept_);
  out.u64(n_exo_);
  out.boolean(exo_fixed_);
  out.u64(n_seen_);
  out.f64s(p_);
  out.f64s(x_origin_);
  out.str(regressor_ ? regressor_->name() : std::string_view());
  if (regressor_) {
    ByteWriter inner;
    regressor_->encode(inner);
    out.u64(inner.data().size());
    out.bytes(inner.data());
  }
}

Status Snarimax::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("snarimax version");
  if ((version < 1 || version > kStateVersion) && in.ok())
    return Status::corruption("snarimax: unsupported state version");
  SnarimaxConfig c;
  if (version >= 5) {  // the settings by name
    IRITHYLL_RETURN_IF_ERROR(decode_config("snarimax", std::span<const ConfigField<SnarimaxConfig>>(kFields), in, c));
  } else {
    for (std::uint32_t* v : {&c.p, &c.d, &c.q, &c.m, &c.sp, &c.sd, &c.sq}) *v = in.u32("order");
    c.learning_rate = in.f64("learning rate");
    c.normalize = in.boolean("normalize");
    // Version 1 had only the gradient step.
    c.rls = version >= 2 ? in.boolean("rls") : false;
    if (version >= 4) c.regressor = in.str("regressor");
  }
  if (!in.ok()) return in.status();
  if (Status s = c.validate(); !s) return Status::corruption("snarimax checkpoint: " + s.message());
  Snarimax m(c);
  m.factory_ = factory_;
  const std::size_t y_len = m.y_hist_.size();
  m.y_hist_ = in.f64s("series history");
  m.z_hist_ = in.f64s("differenced history");
  m.e_hist_ = in.f64s("error history");
  m.y_count_ = in.u64("values pushed");
  m.weights_ = in.f64s("weights");
  m.intercept_ = in.f64("intercept");
  m.n_exo_ = in.u64("exogenous count");
  m.exo_fixed_ = in.boolean("exogenous fixed");
  m.n_seen_ = in.u64("samples seen");
  if (version >= 2) m.p_ = in.f64s("rls matrix");
  // Before version 3 the exogenous features entered unshifted: an empty
  // origin keeps them so.
  if (version >= 3) m.x_origin_ = in.f64s("exogenous origin");
  const std::string kind = version >= 4 ? in.str("regressor kind") : std::string();
  if (!in.ok()) return in.status();
  if (!kind.empty()) {
    if (c.regressor.empty()) return Status::corruption("snarimax checkpoint: a regressor state without the setting");
    if (factory_.blank == nullptr)
      return Status::invalid_argument("snarimax: this instance has no model factory to decode its regressor with");
    const std::size_t size = in.read_count(1, "regressor state");
    if (!in.ok()) return in.status();
    m.regressor_ = factory_.blank(kind);
    if (m.regressor_ == nullptr) return Status::corruption("snarimax checkpoint: unknown regressor kind '" + kind + "'");
    ByteReader inner(in.bytes(size, "regressor state"));
    if (!in.ok()) return in.status();
    IRITHYLL_RETURN_IF_ERROR(m.regressor_->decode(inner).with_context("snarimax regressor '" + kind + "'"));
    if (!inner.at_end()) return Status::corruption("snarimax checkpoint: regressor left bytes unread");
    if (m.regressor_->task() != Task::kRegression) return Status::corruption("snarimax checkpoint: the regressor is a classifier");
  }
  const std::size_t n_theta = m.weights_.size() + 1;
  if (!m.p_.empty() && (!c.rls || m.p_.size() != n_theta * n_theta))
    return Status::corruption("snarimax checkpoint: rls matrix does not match the weights");
  for (const double v : m.p_)
    if (!std::isfinite(v)) return Status::corruption("snarimax checkpoint: non-finite rls matrix");
  for (const double v : m.x_origin_)
    if (!std::isfinite(v)) return Status::corruption("snarimax checkpoint: non-finite exogenous origin");
  if (m.y_hist_.size() != y_len || m.z_hist_.size() != m.z_len_ || m.e_hist_.size() != m.e_len_ ||
      m.n_exo_ > (std::size_t{1} << 24) || m.weights_.size() != m.n_lag_features() + m.n_exo_ ||
      (!m.exo_fixed_ && m.n_exo_ != 0) || m.x_origin_.size() != (m.uses_rls() && version >= 3 ? m.n_exo_ : 0) ||
      (m.regressor_ && m.regressor_->n_features() != 0 && m.regressor_->n_features() != m.weights_.size()))
    return Status::corruption("snarimax checkpoint: inconsistent state sizes");
  m.feats_.assign(m.weights_.size(), 0.0);
  *this = std::move(m);
  return Status::ok();
}

}  // namespace irithyll::timeseries
