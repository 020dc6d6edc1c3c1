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

}  // namespace irithyll
