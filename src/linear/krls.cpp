#include "irithyll/linear/krls.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll {

std::span<const ConfigField<KrlsConfig>> KrlsLearner::config_fields() {
  using C = KrlsConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::real("gamma", "0", "RBF kernel exp(-gamma |a-b|^2) on standardised features (0: 1/n_features)")
           .in(0, 1e6, true)
           .or_off(),
       IRITHYLL_FIELD_REAL(C, gamma)},
      {FieldInfo::real("ald-threshold", "0.01", "nu: a sample joins the dictionary when its ALD residual exceeds it")
           .in(0, 1, true),
       IRITHYLL_FIELD_REAL(C, ald_threshold)},
      {FieldInfo::integer("budget", "200", "largest dictionary").in(1, 4096), IRITHYLL_FIELD_UINT(C, budget)},
      {FieldInfo::real("forgetting-factor", "1", "lambda of the coefficient updates; 1 never forgets")
           .in(kMinForgettingFactor, 1),
       IRITHYLL_FIELD_REAL(C, forgetting_factor)},
      {FieldInfo::boolean("standardize", "on", "standardise features with a running mean and variance"),
       IRITHYLL_FIELD_BOOL(C, standardize)},
  };
  return rows;
}

Status KrlsLearner::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  context_ = context;
  width_ = 0;
  m_ = 0;
  dict_.clear(), kinv_.clear(), p_.clear(), alpha_.clear(), z_.clear();
  scaler_.resize(0, config.standardize);
  offset_ = true;
  y_weight_ = y_mean_ = 0.0;
  seen_ = skipped_ = 0;
  width_ = context.n_features;  // the arrays come with the first admitted sample
  return Status::ok();
}

void KrlsLearner::allocate(std::size_t width) {
  width_ = width;
  gamma_ = config_.gamma > 0.0 ? config_.gamma : 1.0 / static_cast<double>(width);
  const std::size_t b = config_.budget;
  dict_.assign(b * width, 0.0);
  kinv_.assign(b * b, 0.0);
  p_.assign(b * b, 0.0);
  alpha_.assign(b, 0.0);
  z_.assign(width, 0.0);
  k_.assign(b, 0.0), a_.assign(b, 0.0), pa_.assign(b, 0.0), q_.assign(b, 0.0);
  scaler_.resize(width, config_.standardize);
}

Result<std::unique_ptr<KrlsLearner>> KrlsLearner::make(const Config& config, const LearnerContext& context) {
  if (context.task != Task::kRegression) return Status::invalid_argument("krls: a regressor");
  auto out = std::make_unique<KrlsLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

void KrlsLearner::kernel_vector(std::span<const double> z) const {
  for (std::size_t i = 0; i < m_; ++i) {
    const double* d = &dict_[i * width_];
    double s = 0.0;
    for (std::size_t j = 0; j < width_; ++j) {
      const double t = d[j] - z[j];
      s += t * t;
    }
    k_[i] = std::exp(-gamma_ * s);
  }
}

void KrlsLearner::learn_one(std::span<const double> x, double target, double weight) {
  ++seen_;
  if (!sample_admissible(x, target, weight, width_, Task::kRegression, 0)) {
    ++skipped_;
    return;
  }
  if (dict_.empty()) allocate(width_ == 0 ? x.size() : width_);
  double y = target;
  if (offset_) {
    y_weight_ += weight;
    const double mean = y_mean_ + (weight / y_weight_) * (target - y_mean_);
    if (std::isfinite(mean)) y_mean_ = mean;  // targets near the double limit could overflow the step
    y -= y_mean_;
  }
  scaler_.learn(x, weight);
  scaler_.transform(x, z_);
  const std::size_t b = config_.budget;
  const double kxx = 1.0;  // RBF: k(x, x) = 1
  if (m_ == 0) {
    std::copy(z_.begin(), z_.end(), dict_.begin());
    kinv_[0] = 1.0 / kxx;
    p_[0] = 1.0;
    alpha_[0] = y / kxx;
    m_ = 1;
    return;
  }
  kernel_vector(z_);
  double delta = kxx, pred = 0.0;
  for (std::size_t i = 0; i < m_; ++i) {
    const double* row = &kinv_[i * b];
    double s = 0.0;
    for (std::size_t j = 0; j < m_; ++j) s += row[j] * k_[j];
    a_[i] = s;
    delta -= k_[i] * s;
    pred += alpha_[i] * k_[i];
  }
  const double e = y - pred;
  if (delta > config_.ald_threshold && m_ < b) {
    // Grow K^-1 by one row and column (Engel et al. 2004, eq. 3.14).
    const double inv = 1.0 / delta;
    for (std::size_t i = 0; i < m_; ++i) {
      double* row = &kinv_[i * b];
      for (std::size_t j = 0; j < m_; ++j) row[j] += a_[i] * a_[j] * inv;
      row[m_] = -a_[i] * inv;
      kinv_[m_ * b + i] = -a_[i] * inv;
      p_[i * b + m_] = p_[m_ * b + i] = 0.0;
      alpha_[i] -= a_[i] * e * inv;
    }
    kinv_[m_ * b + m_] = inv;
    p_[m_ * b + m_] = 1.0;
    alpha_[m_] = e * inv;
    std::copy(z_.begin(), z_.end(), dict_.begin() + static_cast<std::ptrdiff_t>(m_ * width_));
    ++m_;
    return;
  }
  // Coefficients only (Table 1, ALD test failed).
  const double lambda = config_.forgetting_factor;
  double apa = 0.0;
  for (std::size_t i = 0; i < m_; ++i) {
    const double* row = &p_[i * b];
    double s = 0.0;
    for (std::size_t j = 0; j < m_; ++j) s += row[j] * a_[j];
    pa_[i] = s;
    apa += a_[i] * s;
  }
  const double den = lambda / weight + apa;
  if (!(den > 0.0) || !std::isfinite(den)) return;
  for (std::size_t i = 0; i < m_; ++i) q_[i] = pa_[i] / den;
  const double inv_lambda = 1.0 / lambda;
  double trace = 0.0;
  for (std::size_t i = 0; i < m_; ++i) {
    double* row = &p_[i * b];
    for (std::size_t j = i; j < m_; ++j) {
      const double v = (row[j] - q_[i] * pa_[j]) * inv_lambda;
      row[j] = v;
      p_[j * b + i] = v;
    }
    trace += row[i];
  }
  if (trace > static_cast<double>(m_)) {
    const double shrink = static_cast<double>(m_) / trace;
    for (std::size_t i = 0; i < m_; ++i)
      for (std::size_t j = 0; j < m_; ++j) p_[i * b + j] *= shrink;
  }
  for (std::size_t i = 0; i < m_; ++i) {
    const double* row = &kinv_[i * b];
    double s = 0.0;
    for (std::size_t j = 0; j < m_; ++j) s += row[j] * q_[j];
    const double next = alpha_[i] + s * e;
    if (std::isfinite(next)) alpha_[i] = next;
  }
}

double KrlsLearner::predict_one(std::span<const double> x) const {
  if (m_ == 0 || x.size() != width_) return offset_ ? y_mean_ : 0.0;
  scaler_.transform(x, z_);
  kernel_vector(z_);
  double s = 0.0;
  for (std::size_t i = 0; i < m_; ++i) s += alpha_[i] * k_[i];
  if (offset_) s += y_mean_;
  return std::isfinite(s) ? s : 0.0;
}

void KrlsLearner::reset() {
  const Config config = config_;
  const LearnerContext context = context_;
  (void)init(config, context);
}

std::size_t KrlsLearner::memory_bytes() const {
  return sizeof(*this) + scaler_.memory_bytes() +
         (dict_.capacity() + kinv_.capacity() + p_.capacity() + alpha_.capacity() + z_.capacity() + k_.capacity() +
          a_.capacity() + pa_.capacity() + q_.capacity()) *
             sizeof(double);
}

void KrlsLearner::encode(ByteWriter& out) const {
  // Version 2 adds the target offset; a model decoded from version 1 has
  // none and writes version 1 again.
  out.u8(offset_ ? 2 : 1);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(m_);
  const std::size_t b = config_.budget;
  out.f64s(std::span<const double>(dict_).first(m_ * width_));
  scaler_.encode(out);
  for (std::size_t i = 0; i < m_; ++i) out.f64s(std::span<const double>(kinv_).subspan(i * b, m_));
  for (std::size_t i = 0; i < m_; ++i) out.f64s(std::span<const double>(p_).subspan(i * b, m_));
  out.f64s(std::span<const double>(alpha_).first(m_));
  out.u64(seen_);
  out.u64(skipped_);
  if (offset_) {
    out.f64(y_weight_);
    out.f64(y_mean_);
  }
}

Status KrlsLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("krls version");
  if (in.ok() && version != 1 && version != 2)
    return Status::corruption("krls: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  if (context.task != Task::kRegression) return Status::corruption("krls: checkpoint is not a regressor");
  const std::uint64_t width = in.u64("krls width");
  const std::uint64_t m = in.u64("krls dictionary size");
  if (!in.ok()) return in.status();
  if (width > (1u << 24) || (context.n_features != 0 && width != context.n_features) || m > config.budget ||
      (width == 0 && m != 0))
    return Status::corruption("krls: sizes out of range");
  // m > 0 (a sample learned): the dictionary read bounds the width.
  auto dict = in.f64s("krls dictionary");
  if (!in.ok()) return in.status();
  if (dict.size() != m * width) return Status::corruption("krls: dictionary size out of range");
  Standardizer scaler;
  IRITHYLL_RETURN_IF_ERROR(scaler.decode(in, m > 0 ? width : 0, config.standardize));
  std::vector<std::vector<double>> kinv(m), p(m);
  for (auto& row : kinv) row = in.f64s("krls K^-1 row");
  for (auto& row : p) row = in.f64s("krls P row");
  auto alpha = in.f64s("krls coefficients");
  const std::uint64_t seen = in.u64("krls seen");
  const std::uint64_t skipped = in.u64("krls skipped");
  double y_weight = 0.0, y_mean = 0.0;
  if (version == 2) {
    y_weight = in.f64("krls target weight");
    y_mean = in.f64("krls target mean");
  }
  if (!in.ok()) return in.status();
  bool ok = dict.size() == m * width && alpha.size() == m && skipped <= seen && y_weight >= 0.0 &&
            std::isfinite(y_weight) && std::isfinite(y_mean);
  for (std::size_t i = 0; i < m && ok; ++i) ok = kinv[i].size() == m && p[i].size() == m;
  const auto finite = [](const std::vector<double>& v) {
    for (double d : v)
      if (!std::isfinite(d)) return false;
    return true;
  };
  ok = ok && finite(dict) && finite(alpha);
  for (std::size_t i = 0; i < m && ok; ++i) ok = finite(kinv[i]) && finite(p[i]);
  if (!ok) return Status::corruption("krls: state sizes or values out of range");
  IRITHYLL_RETURN_IF_ERROR(init(config, context));
  width_ = width;
  if (m > 0) {
    allocate(width);
    const std::size_t b = config.budget;
    std::copy(dict.begin(), dict.end(), dict_.begin());
    for (std::size_t i = 0; i < m; ++i) {
      std::copy(kinv[i].begin(), kinv[i].end(), kinv_.begin() + static_cast<std::ptrdiff_t>(i * b));
      std::copy(p[i].begin(), p[i].end(), p_.begin() + static_cast<std::ptrdiff_t>(i * b));
    }
    std::copy(alpha.begin(), alpha.end(), alpha_.begin());
  }
  m_ = m;
  scaler_ = std::move(scaler);
  offset_ = version == 2;
  y_weight_ = y_weight, y_mean_ = y_mean;
  seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
