#include <algorithm>
#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/bayes/naive_bayes.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {

std::span<const ConfigField<BernoulliNbConfig>> BernoulliNbLearner::config_fields() {
  using C = BernoulliNbConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::real("alpha", "1", "additive smoothing of the presence counts").in(0, 1e6, true),
       IRITHYLL_FIELD_REAL(C, alpha)},
      {FieldInfo::real("binarize", "0", "a feature is present when its value is above this").in(-1e300, 1e300),
       IRITHYLL_FIELD_REAL(C, binarize)},
  };
  return rows;
}

Result<std::unique_ptr<BernoulliNbLearner>> BernoulliNbLearner::make(const Config& config,
                                                                     const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  auto out = std::make_unique<BernoulliNbLearner>();
  out->config_ = config;
  IRITHYLL_RETURN_IF_ERROR(out->setup(context));
  return out;
}

void BernoulliNbLearner::learn_features(std::span<const double> x, std::size_t c, double weight) {
  const std::size_t block = context_.n_classes * width_;
  for (std::size_t j = 0; j < width_; ++j) {
    const double v = x[j];
    if (!(v - v == 0.0)) continue;  // missing
    const std::size_t i = cell(c, j);
    if (v > config_.binarize) table_[i] += weight;
    table_[block + i] += weight;
  }
}

void BernoulliNbLearner::add_likelihood(std::span<const double> x, std::span<double> out) const {
  const std::size_t block = context_.n_classes * width_;
  const double* present = table_.data();
  const double* observed = present + block;
  const double two_alpha = 2.0 * config_.alpha;
  for (std::size_t c = 0; c < context_.n_classes; ++c) {
    if (!(class_weight_[c] > 0.0)) continue;
    // The log of a product of probabilities, renormalised before underflow:
    // one log per ~150 features rather than one each.
    double product = 1.0, log_sum = 0.0;
    for (std::size_t j = 0; j < width_; ++j) {
      if (!(x[j] - x[j] == 0.0)) continue;
      const std::size_t i = cell(c, j);
      const double num = x[j] > config_.binarize ? present[i] + config_.alpha : observed[i] - present[i] + config_.alpha;
      product *= num / (observed[i] + two_alpha);
      if (product < 1e-150) log_sum += std::log(product), product = 1.0;
    }
    out[c] += log_sum + std::log(product);
  }
}

void BernoulliNbLearner::encode(ByteWriter& out) const {
  out.u8(1);
  encode_config(config_fields(), config_, out);
  encode_base(out);
}

Status BernoulliNbLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("bernoulli_nb version");
  if (in.ok() && version != 1)
    return Status::corruption("bernoulli_nb: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  IRITHYLL_RETURN_IF_ERROR(decode_base(in));
  const std::size_t block = table_.empty() ? 0 : context_.n_classes * width_;
  for (std::size_t i = 0; i < block; ++i)
    if (table_[i] < 0.0 || table_[block + i] < table_[i])
      return Status::corruption("bernoulli_nb: presence count out of range");
  return Status::ok();
}

}  // namespace irithyll
