#include <algorithm>
#include <cmath>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/dummy/baselines.hpp"

namespace irithyll {

std::span<const ConfigField<PriorConfig>> PriorLearner::config_fields() {
  static const ConfigField<PriorConfig> rows[] = {
      {FieldInfo::real("half-life", "0", "samples after which an old sample counts half (0: never forget)")
           .in(0, 1e12),
       IRITHYLL_FIELD_REAL(PriorConfig, half_life)},
  };
  return rows;
}

Status PriorLearner::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(name(), config_fields(), config));
  config_ = config;
  context_ = context;
  width_ = context.n_features;
  keep_ = config.half_life > 0.0 ? std::exp2(-1.0 / config.half_life) : 1.0;
  mass_.assign(context.task == Task::kClassification ? context.n_classes : 2, 0.0);
  return Status::ok();
}

Result<std::unique_ptr<MajorityLearner>> MajorityLearner::make(const Config& config, const LearnerContext& context) {
  if (context.task != Task::kClassification || context.n_classes < 2)
    return Status::invalid_argument("majority: a classifier (at least 2 classes); for regression use mean");
  auto out = std::make_unique<MajorityLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

Result<std::unique_ptr<MeanLearner>> MeanLearner::make(const Config& config, const LearnerContext& context) {
  if (context.task != Task::kRegression) return Status::invalid_argument("mean: a regressor; for classes use majority");
  auto out = std::make_unique<MeanLearner>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

void PriorLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes)) {
    ++skipped_;
    return;
  }
  if (width_ == 0) width_ = x.size();
  if (keep_ != 1.0)
    for (double& m : mass_) m *= keep_;
  if (context_.task == Task::kClassification) {
    mass_[static_cast<std::size_t>(y)] += weight;
  } else {
    mass_[0] += weight;
    mass_[1] += weight * y;
  }
}

double PriorLearner::predict_one(std::span<const double>) const {
  if (context_.task == Task::kRegression) return mass_[0] > 0.0 ? mass_[1] / mass_[0] : 0.0;
  // Ties go to the lowest class index, so an untrained model predicts class 0.
  return static_cast<double>(std::max_element(mass_.begin(), mass_.end()) - mass_.begin());
}

void PriorLearner::predict_proba_one(std::span<const double>, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != mass_.size()) return;
  double total = 0.0;
  for (double m : mass_) total += m;
  for (std::size_t c = 0; c < proba.size(); ++c)
    proba[c] = total > 0.0 ? mass_[c] / total : 1.0 / static_cast<double>(proba.size());
}

void PriorLearner::reset() {
  width_ = context_.n_features;
  std::fill(mass_.begin(), mass_.end(), 0.0);
  seen_ = skipped_ = 0;
}

void PriorLearner::encode(ByteWriter& out) const {
  out.u8(1);  // record version
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.f64s(mass_);
  out.u64(seen_);
  out.u64(skipped_);
}

Status PriorLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("prior version");
  if (in.ok() && version != 1)
    return Status::corruption(std::string(name()) + ": unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(name(), config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  const std::uint64_t width = in.u64("prior width");
  std::vector<double> mass = in.f64s("prior mass");
  const std::uint64_t seen = in.u64("prior seen");
  const std::uint64_t skipped = in.u64("prior skipped");
  if (!in.ok()) return in.status();
  const bool cls = context.task == Task::kClassification;
  if (cls != (name() == MajorityLearner::kName))
    return Status::corruption(std::string(name()) + ": checkpoint is for the other task");
  bool finite = true;
  for (double m : mass) finite &= m - m == 0.0;
  if (!finite || mass.size() != (cls ? context.n_classes : 2) ||
      (context.n_features != 0 && width != context.n_features) || width > (1u << 24))
    return Status::corruption(std::string(name()) + ": state out of range");
  IRITHYLL_RETURN_IF_ERROR(init(config, context));
  width_ = width;
  mass_ = std::move(mass);
  seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
