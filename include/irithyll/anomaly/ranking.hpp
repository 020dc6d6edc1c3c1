// Ranking quality of anomaly scores against 0/1 labels (1 = anomaly).
//   roc_auc            area under the ROC curve: the probability that a random
//                      anomaly scores above a random normal sample, ties
//                      counting one half (Mann-Whitney U / (n1 * n0)).
//   average_precision  PR AUC as the step sum  sum_k (R_k - R_{k-1}) P_k  over
//                      the distinct score thresholds, high to low (samples
//                      with equal scores enter together); scikit-learn's
//                      average_precision_score.
// Both return NaN when the labels hold only one class. O(n log n); they
// copy and sort the pairs.
#pragma once

#include <cstdint>
#include <span>

namespace irithyll {

double roc_auc(std::span<const double> scores, std::span<const std::uint8_t> labels);
double average_precision(std::span<const double> scores, std::span<const std::uint8_t> labels);

}  // namespace irithyll
