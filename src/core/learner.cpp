#include "irithyll/learner.hpp"

#include <algorithm>

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

}  // namespace irithyll
