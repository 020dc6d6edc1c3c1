#include "irithyll/eval/stream_metrics.hpp"

#include <cmath>

namespace irithyll {
namespace {
double kappa(double acc, double base) { return base >= 1.0 ? 0.0 : (acc - base) / (1.0 - base); }
double ratio(std::uint64_t a, std::uint64_t n) { return n == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(n); }
}  // namespace

void BaselineKappa::update(std::size_t truth, std::size_t predicted) {
  // Baselines predict from what was seen before this sample.
  if (has_previous_) {
    if (previous_ == truth) ++nc_correct_;
    if (majority_ == truth) ++maj_correct_;
  }
  if (truth == predicted) ++correct_;
  ++n_;
  if (truth >= class_counts_.size()) class_counts_.resize(truth + 1, 0);
  ++class_counts_[truth];
  const std::uint64_t c = class_counts_[truth], m = class_counts_[majority_];
  if (!has_previous_ || c > m || (c == m && truth < majority_)) majority_ = truth;
  previous_ = truth;
  has_previous_ = true;
}

double BaselineKappa::accuracy() const noexcept { return ratio(correct_, n_); }
double BaselineKappa::no_change_accuracy() const noexcept { return ratio(nc_correct_, n_); }
double BaselineKappa::majority_accuracy() const noexcept { return ratio(maj_correct_, n_); }
double BaselineKappa::kappa_t() const noexcept { return n_ == 0 ? 0.0 : kappa(accuracy(), no_change_accuracy()); }
double BaselineKappa::kappa_m() const noexcept { return n_ == 0 ? 0.0 : kappa(accuracy(), majority_accuracy()); }
void BaselineKappa::reset() noexcept { *this = BaselineKappa(); }

void BalancedAccuracy::update(std::size_t truth, std::size_t predicted) {
  if (truth >= support_.size()) {
    support_.resize(truth + 1, 0);
    hits_.resize(truth + 1, 0);
  }
  ++support_[truth];
  if (truth == predicted) ++hits_[truth];
  ++n_;
}

double BalancedAccuracy::value() const noexcept {
  double sum = 0.0;
  std::size_t classes = 0;
  for (std::size_t c = 0; c < support_.size(); ++c) {
    if (support_[c] == 0) continue;
    sum += ratio(hits_[c], support_[c]);
    ++classes;
  }
  return classes == 0 ? 0.0 : sum / static_cast<double>(classes);
}

void BalancedAccuracy::reset() noexcept { *this = BalancedAccuracy(); }

void RocAuc::update(bool positive, double score) {
  if (!std::isfinite(score)) return;
  if (score == 0.0) score = 0.0;  // -0 and +0 are one threshold
  auto& cell = by_score_[score];
  if (positive) {
    ++cell.first;
    ++pos_;
  } else {
    ++cell.second;
    ++neg_;
  }
}

double RocAuc::auc() const noexcept {
  if (pos_ == 0 || neg_ == 0) return 0.5;
  // Mann-Whitney U: for each positive, the negatives scored below it count 1
  // and those tied with it 1/2. Walk scores upward keeping the negatives below.
  double u = 0.0;
  double neg_below = 0.0;
  for (const auto& [score, cell] : by_score_) {
    const double p = static_cast<double>(cell.first), n = static_cast<double>(cell.second);
    u += p * (neg_below + 0.5 * n);
    neg_below += n;
  }
  return u / (static_cast<double>(pos_) * static_cast<double>(neg_));
}

void RocAuc::reset() noexcept {
  by_score_.clear();
  pos_ = neg_ = 0;
}

void Mape::update(double y, double prediction) noexcept {
  if (!std::isfinite(y) || !std::isfinite(prediction) || y == 0.0) {
    ++skipped_;
    return;
  }
  sum_ += std::fabs(y - prediction) / std::fabs(y);
  ++n_;
}

void Smape::update(double y, double prediction) noexcept {
  if (!std::isfinite(y) || !std::isfinite(prediction)) return;
  const double denom = std::fabs(y) + std::fabs(prediction);
  sum_ += denom == 0.0 ? 0.0 : 2.0 * std::fabs(y - prediction) / denom;
  ++n_;
}

}  // namespace irithyll
