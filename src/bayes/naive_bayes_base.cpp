#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "irithyll/bayes/naive_bayes.hpp"

namespace irithyll {

Status NaiveBayesBase::setup(const LearnerContext& context) {
  if (context.task != Task::kClassification || context.n_classes < 2)
    return Status::invalid_argument(std::string(name()) + ": a classifier (at least 2 classes)");
  context_ = context;
  width_ = 0;
  class_weight_.assign(context.n_classes, 0.0);
  table_.clear();
  total_ = 0.0;
  seen_ = skipped_ = 0;
  jll_.assign(context.n_classes, 0.0);
  width_ = context.n_features;  // the tables come with the first admitted sample
  return Status::ok();
}

void NaiveBayesBase::allocate(std::size_t width) {
  width_ = width;
  table_.assign(tables() * context_.n_classes * width, 0.0);
  refresh();
}

void NaiveBayesBase::reset() {
  const LearnerContext context = context_;
  (void)setup(context);
}

void NaiveBayesBase::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, Task::kClassification, context_.n_classes)) {
    ++skipped_;
    return;
  }
  if (table_.empty()) allocate(width_ == 0 ? x.size() : width_);
  const auto c = static_cast<std::size_t>(y);
  class_weight_[c] += weight;
  total_ += weight;
  learn_features(x, c, weight);
}

void NaiveBayesBase::joint_log_likelihood(std::span<const double> x, std::span<double> out) const {
  const double minus_inf = -std::numeric_limits<double>::infinity();
  const double log_total = total_ > 0.0 ? std::log(total_) : 0.0;
  for (std::size_t c = 0; c < out.size(); ++c)
    out[c] = class_weight_[c] > 0.0 ? std::log(class_weight_[c]) - log_total : minus_inf;
  if (total_ > 0.0 && !table_.empty() && x.size() == width_) add_likelihood(x, out);
  for (double& v : out)
    if (std::isnan(v)) v = minus_inf;
}

double NaiveBayesBase::predict_one(std::span<const double> x) const {
  joint_log_likelihood(x, jll_);
  return static_cast<double>(std::max_element(jll_.begin(), jll_.end()) - jll_.begin());
}

void NaiveBayesBase::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (proba.size() != context_.n_classes) return;
  joint_log_likelihood(x, jll_);
  const double top = *std::max_element(jll_.begin(), jll_.end());
  if (!std::isfinite(top)) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(proba.size()));
    return;
  }
  double total = 0.0;
  for (std::size_t c = 0; c < proba.size(); ++c) total += proba[c] = std::exp(jll_[c] - top);
  for (double& p : proba) p /= total;
}

std::size_t NaiveBayesBase::memory_bytes() const {
  return sizeof(*this) + (class_weight_.capacity() + table_.capacity() + jll_.capacity()) * sizeof(double);
}

void NaiveBayesBase::encode_base(ByteWriter& out) const {
  encode_context(context_, out);
  out.u64(width_);
  out.f64s(class_weight_);
  out.f64(total_);
  out.f64s(table_);
  out.u64(seen_);
  out.u64(skipped_);
}

Status NaiveBayesBase::decode_base(ByteReader& in) {
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  const std::uint64_t width = in.u64("nb width");
  auto class_weight = in.f64s("nb class weights");
  const double total = in.f64("nb total weight");
  if (!in.ok()) return in.status();
  if (context.task != Task::kClassification || width > (1u << 24) ||
      (context.n_features != 0 && width != context.n_features) || class_weight.size() != context.n_classes ||
      !(total >= 0.0) || !std::isfinite(total))
    return Status::corruption(std::string(name()) + ": sizes out of range");
  for (double w : class_weight)
    if (!(w >= 0.0) || !std::isfinite(w)) return Status::corruption(std::string(name()) + ": bad class weight");
  auto table = in.f64s("nb tables");
  const std::uint64_t seen = in.u64("nb seen");
  const std::uint64_t skipped = in.u64("nb skipped");
  if (!in.ok()) return in.status();
  // Tables (a sample learned) bound the width by the record's own length.
  if ((!table.empty() && (width == 0 || table.size() != tables() * context.n_classes * width)) || skipped > seen)
    return Status::corruption(std::string(name()) + ": tables do not match the classes and features");
  for (double v : table)
    if (!std::isfinite(v)) return Status::corruption(std::string(name()) + ": non-finite statistic");
  IRITHYLL_RETURN_IF_ERROR(setup(context));
  width_ = width;
  table_ = std::move(table);
  class_weight_ = std::move(class_weight);
  total_ = total;
  seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
