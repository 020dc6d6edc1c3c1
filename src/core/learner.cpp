#include "irithyll/learner.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace irithyll {

void Learner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  // Default for learners with a single decision: one-hot on predict_one.
  if (proba.empty()) return;
  std::fill(proba.begin(), proba.end(), 0.0);
  const double c = predict_one(x);
  if (c >= 0.0 && c < static_cast<double>(proba.size())) proba[static_cast<std::size_t>(c)] = 1.0;
}

void Learner::predict_batch(std::span<const double> rows, std::size_t n_features, std::span<double> out) const {
  for (std::size_t i = 0; i < out.size() && (i + 1) * n_features <= rows.size(); ++i)
    out[i] = predict_one(rows.subspan(i * n_features, n_features));
}

void Learner::predict_multi(std::span<const double> x, std::span<double> out) const {
  if (!out.empty()) out[0] = predict_one(x);
}

void Learner::learn_multi(std::span<const double> x, std::span<const double> y, double weight) {
  if (!y.empty()) learn_one(x, y[0], weight);
}

void encode_context(const LearnerContext& context, ByteWriter& out) {
  out.u8(static_cast<std::uint8_t>(context.task));
  out.u64(context.n_classes);
  out.u64(context.n_features);
  out.u64(context.seed);
  out.u64(context.n_targets);
  out.u64(context.feature_names.size());
  for (const auto& n : context.feature_names) out.str(n);
}

Status decode_context(ByteReader& in, LearnerContext& context) {
  constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 24;
  LearnerContext c;
  const std::uint8_t task = in.u8("context task");
  const std::uint64_t n_classes = in.u64("context classes");
  const std::uint64_t n_features = in.u64("context features");
  c.seed = in.u64("context seed");
  const std::uint64_t n_targets = in.u64("context targets");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("context: unknown task " + std::to_string(task));
  c.task = static_cast<Task>(task);
  if (n_classes > kMaxCount || n_features > kMaxCount || n_targets == 0 || n_targets > kMaxCount)
    return Status::corruption("context: class, feature or target count out of range");
  if (c.task == Task::kClassification && n_classes < 2)
    return Status::corruption("context: classification with fewer than 2 classes");
  c.n_classes = n_classes;
  c.n_features = n_features;
  c.n_targets = n_targets;
  const std::size_t n_names = in.read_count(8, "context feature names");
  if (!in.ok()) return in.status();
  if (n_names != 0 && n_names != n_features)
    return Status::corruption("context: " + std::to_string(n_names) + " feature names for " +
                              std::to_string(n_features) + " features");
  c.feature_names.reserve(n_names);
  for (std::size_t i = 0; i < n_names && in.ok(); ++i) c.feature_names.push_back(in.str("context feature name"));
  if (!in.ok()) return in.status();
  context = std::move(c);
  return Status::ok();
}

Status Learner::check_sample(std::span<const double> x, double y, double weight) const {
  // The three parts of sample_admissible, each with its own message. A zero
  // weight is accepted here: the row is well formed, it just teaches nothing.
  const std::size_t d = n_features();
  if (!width_admissible(x, d)) {
    if (x.empty()) return Status::invalid_argument(std::string(name()) + ": a sample needs at least one feature");
    return Status::invalid_argument(std::string(name()) + ": expected " + std::to_string(d) + " features, got " +
                                    std::to_string(x.size()));
  }
  if (weight != 0.0 && !weight_admissible(weight))
    return Status::invalid_argument(std::string(name()) + ": sample weight must be finite and >= 0, got " +
                                    std::to_string(weight));
  if (!target_admissible(y, task(), n_classes())) {
    if (!std::isfinite(y)) return Status::invalid_argument(std::string(name()) + ": target is not a finite number");
    return Status::invalid_argument(std::string(name()) + ": class index " + std::to_string(y) +
                                    " is not one of 0.." + std::to_string(n_classes() - 1));
  }
  return Status::ok();
}

}  // namespace irithyll
