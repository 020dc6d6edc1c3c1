#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/bayes/naive_bayes.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {

std::span<const ConfigField<GaussianNbConfig>> GaussianNbLearner::config_fields() {
  using C = GaussianNbConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::real("var-smoothing", "1e-09",
                       "added to every variance, times the largest feature variance seen (at least 1e-12)")
           .in(0, 1, true),
       IRITHYLL_FIELD_REAL(C, var_smoothing)},
  };
  return rows;
}

Result<std::unique_ptr<GaussianNbLearner>> GaussianNbLearner::make(const Config& config,
                                                                   const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  auto out = std::make_unique<GaussianNbLearner>();
  out->config_ = config;
  IRITHYLL_RETURN_IF_ERROR(out->setup(context));
  return out;
}

void GaussianNbLearner::learn_features(std::span<const double> x, std::size_t c, double weight) {
  const std::size_t block = context_.n_classes * width_;
  double* cw = &table_[cell(c, 0)];
  double* mean = cw + block;
  double* m2 = mean + block;
  for (std::size_t j = 0; j < width_; ++j) {
    const double v = x[j];
    if (!(v - v == 0.0)) continue;  // missing: left out of this feature's statistics
    // Weighted Welford update (West 1979).
    const double w = cw[j] + weight;
    const double delta = v - mean[j];
    const double next_mean = mean[j] + delta * (weight / w);
    const double next_m2 = m2[j] + weight * delta * (v - next_mean);
    if (!std::isfinite(next_mean) || !std::isfinite(next_m2)) continue;  // values near the double range
    cw[j] = w, mean[j] = next_mean, m2[j] = next_m2;
  }
}

void GaussianNbLearner::add_likelihood(std::span<const double> x, std::span<double> out) const {
  const std::size_t k = context_.n_classes, block = k * width_;
  const double* cw = table_.data();
  const double* mean = cw + block;
  const double* m2 = mean + block;
  // epsilon from the pooled variance of each feature (all classes together):
  // W = sum w_c, mu = sum w_c mu_c / W, M2 = sum (M2_c + w_c (mu_c - mu)^2).
  double max_var = 0.0;
  for (std::size_t j = 0; j < width_; ++j) {
    double w = 0.0, s = 0.0;
    for (std::size_t c = 0; c < k; ++c) w += cw[cell(c, j)], s += cw[cell(c, j)] * mean[cell(c, j)];
    if (!(w > 0.0)) continue;
    const double mu = s / w;
    double ss = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
      const double d = mean[cell(c, j)] - mu;
      ss += m2[cell(c, j)] + cw[cell(c, j)] * d * d;
    }
    max_var = std::max(max_var, ss / w);
  }
  const double eps = config_.var_smoothing * std::max(max_var, 1e-12);
  const double log_two_pi = std::log(2.0 * std::numbers::pi);
  for (std::size_t c = 0; c < k; ++c) {
    if (!(class_weight_[c] > 0.0)) continue;
    // sum_j log(var_j) as the log of a running product, renormalised before
    // it can leave the double range: one log per ~30 features, not one each.
    double quad = 0.0, product = 1.0, log_sum = 0.0, n = 0.0;
    for (std::size_t j = 0; j < width_; ++j) {
      const std::size_t i = cell(c, j);
      if (!(cw[i] > 0.0) || !(x[j] - x[j] == 0.0)) continue;
      const double var = m2[i] / cw[i] + eps;
      const double d = x[j] - mean[i];
      quad += d * d / var;
      product *= var;
      n += 1.0;
      if (product > 1e150 || product < 1e-150) log_sum += std::log(product), product = 1.0;
    }
    log_sum += std::log(product);
    out[c] += -0.5 * (n * log_two_pi + log_sum) - 0.5 * quad;
  }
}

void GaussianNbLearner::encode(ByteWriter& out) const {
  out.u8(1);
  encode_config(config_fields(), config_, out);
  encode_base(out);
}

Status GaussianNbLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("gaussian_nb version");
  if (in.ok() && version != 1)
    return Status::corruption("gaussian_nb: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  IRITHYLL_RETURN_IF_ERROR(decode_base(in));
  for (std::size_t i = 0; i < table_.size(); ++i)
    if (table_[i] < 0.0 && (i < context_.n_classes * width_ || i >= 2 * context_.n_classes * width_))
      return Status::corruption("gaussian_nb: negative weight or variance sum");
  return Status::ok();
}

}  // namespace irithyll
