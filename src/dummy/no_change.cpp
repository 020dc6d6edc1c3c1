#include <algorithm>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/dummy/baselines.hpp"

namespace irithyll {

std::span<const ConfigField<NoChangeConfig>> NoChangeLearner::config_fields() { return {}; }

Result<std::unique_ptr<NoChangeLearner>> NoChangeLearner::make(const Config& config, const LearnerContext& context) {
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument("no_change: classification needs at least 2 classes");
  auto out = std::make_unique<NoChangeLearner>();
  out->config_ = config;
  out->context_ = context;
  out->width_ = context.n_features;
  return out;
}

void NoChangeLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes)) {
    ++skipped_;
    return;
  }
  if (width_ == 0) width_ = x.size();
  last_ = y;
}

double NoChangeLearner::predict_one(std::span<const double>) const { return last_; }

void NoChangeLearner::predict_proba_one(std::span<const double>, std::span<double> proba) const {
  std::fill(proba.begin(), proba.end(), 0.0);
  const auto c = static_cast<std::size_t>(last_);
  if (c < proba.size()) proba[c] = 1.0;
}

void NoChangeLearner::reset() {
  width_ = context_.n_features;
  last_ = 0.0;
  seen_ = skipped_ = 0;
}

void NoChangeLearner::encode(ByteWriter& out) const {
  out.u8(1);  // record version
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.f64(last_);
  out.u64(seen_);
  out.u64(skipped_);
}

Status NoChangeLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("no_change version");
  if (in.ok() && version != 1) return Status::corruption("no_change: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  const std::uint64_t width = in.u64("no_change width");
  const double last = in.f64("no_change last");
  const std::uint64_t seen = in.u64("no_change seen");
  const std::uint64_t skipped = in.u64("no_change skipped");
  if (!in.ok()) return in.status();
  const bool bad_last = context.task == Task::kClassification
                            ? !(last >= 0.0 && last < static_cast<double>(context.n_classes))
                            : !(last - last == 0.0);
  if (bad_last || (context.n_features != 0 && width != context.n_features) || width > (1u << 24))
    return Status::corruption("no_change: state out of range");
  config_ = config;
  context_ = std::move(context);
  width_ = width, last_ = last, seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
