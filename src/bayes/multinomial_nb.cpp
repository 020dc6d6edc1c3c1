#include <algorithm>
#include <cmath>
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/bayes/naive_bayes.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {

std::span<const ConfigField<MultinomialNbConfig>> MultinomialNbLearner::config_fields() {
  using C = MultinomialNbConfig;
  static const ConfigField<C> rows[] = {
      {FieldInfo::real("alpha", "1", "additive (Laplace/Lidstone) smoothing of the counts").in(0, 1e6, true),
       IRITHYLL_FIELD_REAL(C, alpha)},
  };
  return rows;
}

Result<std::unique_ptr<MultinomialNbLearner>> MultinomialNbLearner::make(const Config& config,
                                                                         const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  auto out = std::make_unique<MultinomialNbLearner>();
  out->config_ = config;
  out->class_total_.assign(context.n_classes, 0.0);
  IRITHYLL_RETURN_IF_ERROR(out->setup(context));
  return out;
}

void MultinomialNbLearner::reset() {
  NaiveBayesBase::reset();
  class_total_.assign(context_.n_classes, 0.0);
}

void MultinomialNbLearner::refresh() {
  class_total_.resize(context_.n_classes, 0.0);
  const std::size_t block = context_.n_classes * width_;
  for (std::size_t i = 0; i < block; ++i) table_[block + i] = std::log(table_[i] + config_.alpha);
}

void MultinomialNbLearner::learn_features(std::span<const double> x, std::size_t c, double weight) {
  const std::size_t block = context_.n_classes * width_;
  for (std::size_t j = 0; j < width_; ++j) {
    const double v = x[j];
    if (!(v > 0.0) || !(v - v == 0.0)) continue;  // zero, negative (clipped to 0) or missing: no count
    const std::size_t i = cell(c, j);
    const double next = table_[i] + weight * v;
    if (!std::isfinite(next)) continue;
    table_[i] = next;
    table_[block + i] = std::log(next + config_.alpha);
    class_total_[c] += weight * v;
  }
}

void MultinomialNbLearner::add_likelihood(std::span<const double> x, std::span<double> out) const {
  const std::size_t block = context_.n_classes * width_;
  const double* log_count = table_.data() + block;
  const double d_alpha = config_.alpha * static_cast<double>(width_);
  double mass = 0.0;
  for (std::size_t j = 0; j < width_; ++j)
    if (x[j] > 0.0 && x[j] - x[j] == 0.0) mass += x[j];
  for (std::size_t c = 0; c < context_.n_classes; ++c) {
    if (!(class_weight_[c] > 0.0)) continue;
    double s = 0.0;
    for (std::size_t j = 0; j < width_; ++j)
      if (x[j] > 0.0 && x[j] - x[j] == 0.0) s += x[j] * log_count[cell(c, j)];
    out[c] += s - mass * std::log(class_total_[c] + d_alpha);
  }
}

void MultinomialNbLearner::encode(ByteWriter& out) const {
  out.u8(1);
  encode_config(config_fields(), config_, out);
  encode_base(out);
  out.f64s(class_total_);
}

Status MultinomialNbLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("multinomial_nb version");
  if (in.ok() && version != 1)
    return Status::corruption("multinomial_nb: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  config_ = config;
  IRITHYLL_RETURN_IF_ERROR(decode_base(in));
  auto totals = in.f64s("multinomial_nb class totals");
  if (!in.ok()) return in.status();
  if (totals.size() != context_.n_classes) return Status::corruption("multinomial_nb: class totals size");
  for (double t : totals)
    if (!(t >= 0.0) || !std::isfinite(t)) return Status::corruption("multinomial_nb: bad class total");
  for (std::size_t i = 0; i < table_.size() / 2; ++i)
    if (table_[i] < 0.0) return Status::corruption("multinomial_nb: negative count");
  class_total_ = std::move(totals);
  if (!table_.empty()) refresh();
  return Status::ok();
}

}  // namespace irithyll
