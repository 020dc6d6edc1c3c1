#include "irithyll/eval/stream_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "eval/score_sort.hpp"

namespace irithyll {
namespace {
double kappa(double acc, double base) { return base >= 1.0 ? 0.0 : (acc - base) / (1.0 - base); }
double stream_metrics_ratio(std::uint64_t a, std::uint64_t n) { return n == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(n); }
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

double BaselineKappa::accuracy() const noexcept { return stream_metrics_ratio(correct_, n_); }
double BaselineKappa::no_change_accuracy() const noexcept { return stream_metrics_ratio(nc_correct_, n_); }
double BaselineKappa::majority_accuracy() const noexcept { return stream_metrics_ratio(maj_correct_, n_); }
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
    sum += stream_metrics_ratio(hits_[c], support_[c]);
    ++classes;
  }
  return classes == 0 ? 0.0 : sum / static_cast<double>(classes);
}

void BalancedAccuracy::reset() noexcept { *this = BalancedAccuracy(); }

namespace {
// Below this many buffered scores a merge is not worth its pass over the run.
constexpr std::size_t kMinMerge = 4096;
}  // namespace

void RocAuc::update(bool positive, double score) {
  if (!std::isfinite(score)) return;
  if (score == 0.0) score = 0.0;  // -0 and +0 are one threshold
  if (positive) {
    pos_buffer_.push_back(score);
    ++pos_;
  } else {
    neg_buffer_.push_back(score);
    ++neg_;
  }
  if (pos_buffer_.size() + neg_buffer_.size() >= std::max(kMinMerge, run_.size())) merge();
}

template <typename Emit>
void RocAuc::walk(Emit&& emit) const noexcept {
  eval_detail::sort_scores(pos_buffer_, sort_scratch_);
  eval_detail::sort_scores(neg_buffer_, sort_scratch_);
  constexpr double kEnd = std::numeric_limits<double>::infinity();  // scores are finite
  std::size_t r = 0, p = 0, n = 0;
  for (;;) {
    const double rs = r < run_.size() ? run_[r].score : kEnd;
    const double ps = p < pos_buffer_.size() ? pos_buffer_[p] : kEnd;
    const double ns = n < neg_buffer_.size() ? neg_buffer_[n] : kEnd;
    const double s = std::min(rs, std::min(ps, ns));
    if (s == kEnd) return;
    std::uint64_t pos = 0, neg = 0;
    if (rs == s) pos += run_[r].pos, neg += run_[r].neg, ++r;
    for (; p < pos_buffer_.size() && pos_buffer_[p] == s; ++p) ++pos;
    for (; n < neg_buffer_.size() && neg_buffer_[n] == s; ++n) ++neg;
    emit(s, pos, neg);
  }
}

void RocAuc::merge() {
  spare_.clear();
  walk([&](double score, std::uint64_t pos, std::uint64_t neg) { spare_.push_back({score, pos, neg}); });
  run_.swap(spare_);
  pos_buffer_.clear();
  neg_buffer_.clear();
}

std::size_t RocAuc::distinct_scores() const noexcept {
  std::size_t k = 0;
  walk([&](double, std::uint64_t, std::uint64_t) { ++k; });
  return k;
}

double RocAuc::auc() const noexcept {
  if (pos_ == 0 || neg_ == 0) return 0.5;
  // Mann-Whitney U: for each positive, the negatives scored below it count 1
  // and those tied with it 1/2. Walk scores upward keeping the negatives below.
  double u = 0.0;
  double neg_below = 0.0;
  walk([&](double, std::uint64_t pos, std::uint64_t neg) {
    const double p = static_cast<double>(pos), n = static_cast<double>(neg);
    u += p * (neg_below + 0.5 * n);
    neg_below += n;
  });
  return u / (static_cast<double>(pos_) * static_cast<double>(neg_));
}

void RocAuc::reset() noexcept {
  run_.clear();
  sort_scratch_.clear();
  spare_.clear();
  pos_buffer_.clear();
  neg_buffer_.clear();
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
