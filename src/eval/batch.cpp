#include "irithyll/eval/batch.hpp"

#include <string>

namespace irithyll {

Status learn_batch(Learner& learner, std::span<const double> rows, std::size_t n_features, std::span<const double> y,
                   std::span<const double> weights, std::size_t every,
                   const std::function<void(std::size_t)>& progress) {
  if (n_features == 0) return Status::invalid_argument("learn_batch: n_features must be >= 1");
  if (rows.size() != y.size() * n_features)
    return Status::invalid_argument("learn_batch: " + std::to_string(rows.size()) + " values are not " +
                                    std::to_string(y.size()) + " rows of " + std::to_string(n_features));
  if (!weights.empty() && weights.size() != y.size())
    return Status::invalid_argument("learn_batch: " + std::to_string(weights.size()) + " weights for " +
                                    std::to_string(y.size()) + " rows");
  const bool calls = every > 0 && progress;
  for (std::size_t i = 0; i < y.size(); ++i) {
    learner.learn_one(rows.subspan(i * n_features, n_features), y[i], weights.empty() ? 1.0 : weights[i]);
    if (calls && (i + 1) % every == 0) progress(i + 1);
  }
  if (calls && y.size() % every != 0) progress(y.size());
  return Status::ok();
}

}  // namespace irithyll
