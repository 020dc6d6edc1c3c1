// ROC AUC and average precision (irithyll/anomaly/ranking.hpp).
#include "irithyll/anomaly/ranking.hpp"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace irithyll {

namespace {

// (score, label) sorted by score, high first.
std::vector<std::pair<double, std::uint8_t>> sorted_pairs(std::span<const double> scores,
                                                          std::span<const std::uint8_t> labels) {
  std::vector<std::pair<double, std::uint8_t>> pairs(std::min(scores.size(), labels.size()));
  for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i] = {scores[i], labels[i] != 0 ? 1 : 0};
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  return pairs;
}

}  // namespace

double roc_auc(std::span<const double> scores, std::span<const std::uint8_t> labels) {
  const auto pairs = sorted_pairs(scores, labels);
  double pos = 0.0, neg = 0.0, area = 0.0;
  for (std::size_t i = 0; i < pairs.size();) {
    // One group of equal scores: its positives beat every negative below and
    // tie (one half) with the negatives of the group.
    double gp = 0.0, gn = 0.0;
    std::size_t j = i;
    for (; j < pairs.size() && pairs[j].first == pairs[i].first; ++j) (pairs[j].second ? gp : gn) += 1.0;
    area += gn * pos + 0.5 * gn * gp;  // negatives of the group, below every earlier positive
    pos += gp, neg += gn;
    i = j;
  }
  if (pos == 0.0 || neg == 0.0) return std::numeric_limits<double>::quiet_NaN();
  return area / (pos * neg);
}

double average_precision(std::span<const double> scores, std::span<const std::uint8_t> labels) {
  const auto pairs = sorted_pairs(scores, labels);
  double total_pos = 0.0;
  for (const auto& p : pairs) total_pos += p.second;
  if (total_pos == 0.0 || total_pos == static_cast<double>(pairs.size()))
    return std::numeric_limits<double>::quiet_NaN();
  double tp = 0.0, seen = 0.0, ap = 0.0, prev_recall = 0.0;
  for (std::size_t i = 0; i < pairs.size();) {
    std::size_t j = i;
    for (; j < pairs.size() && pairs[j].first == pairs[i].first; ++j) {
      tp += pairs[j].second;
      seen += 1.0;
    }
    const double recall = tp / total_pos;
    ap += (recall - prev_recall) * (tp / seen);
    prev_recall = recall;
    i = j;
  }
  return ap;
}

}  // namespace irithyll
