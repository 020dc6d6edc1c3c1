#include "irithyll/eval/classification_metrics.hpp"

#include <cassert>
#include <cmath>

namespace irithyll {

double clipped_log_loss(double p_true) noexcept {
  double p = p_true;
  if (!(p >= kLogLossClip)) p = kLogLossClip;  // also catches NaN
  if (p > 1.0 - kLogLossClip) p = 1.0 - kLogLossClip;
  return -std::log(p);
}

std::size_t argmax_class(std::span<const double> proba) noexcept {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t best = kNone;
  for (std::size_t k = 0; k < proba.size(); ++k) {
    if (std::isnan(proba[k])) continue;
    if (best == kNone || proba[k] > proba[best]) best = k;
  }
  return best == kNone ? 0 : best;
}

ClassificationMetrics::ClassificationMetrics(std::size_t n_classes) : cm_(n_classes) {
  baselines_.reserve(n_classes);
}

void ClassificationMetrics::update(std::size_t truth, std::size_t predicted, double p_truth) noexcept {
  cm_.add(truth, predicted);
  baselines_.update(truth, predicted);
  loss_sum_ += clipped_log_loss(p_truth);
}

void ClassificationMetrics::update_proba(std::size_t truth, std::span<const double> proba) noexcept {
  assert(proba.size() == n_classes() && truth < proba.size());
  update(truth, argmax_class(proba), proba[truth]);
}

void ClassificationMetrics::reset() noexcept {
  cm_.reset();
  baselines_.reset();
  baselines_.reserve(cm_.n_classes());
  loss_sum_ = 0.0;
}

double ClassificationMetrics::log_loss() const {
  return cm_.total() == 0 ? MetricValues::kNone : loss_sum_ / static_cast<double>(cm_.total());
}

MetricValues ClassificationMetrics::values() const {
  MetricValues v;
  v.accuracy = cm_.accuracy();
  v.kappa = cm_.kappa();
  v.macro_f1 = cm_.macro_f1();
  v.log_loss = log_loss();
  v.balanced_accuracy = cm_.balanced_accuracy();
  if (baselines_.count() > 0) {
    v.kappa_t = baselines_.kappa_t();
    v.kappa_m = baselines_.kappa_m();
    v.no_change_accuracy = baselines_.no_change_accuracy();
    v.majority_accuracy = baselines_.majority_accuracy();
  }
  return v;
}

RollingClassificationMetrics::RollingClassificationMetrics(std::size_t n_classes, std::size_t window)
    : cm_(n_classes), ring_(window == 0 ? 1 : window) {}

void RollingClassificationMetrics::update(std::size_t truth, std::size_t predicted, double p_truth) noexcept {
  Entry& slot = ring_[head_];
  if (cm_.total() == ring_.size()) {  // full: the oldest sample leaves
    cm_.remove(slot.truth, slot.predicted);
    loss_sum_ -= slot.loss;
  }
  slot = Entry{static_cast<std::uint32_t>(truth), static_cast<std::uint32_t>(predicted), clipped_log_loss(p_truth)};
  cm_.add(truth, predicted);
  loss_sum_ += slot.loss;
  if (++head_ == ring_.size()) {
    head_ = 0;
    // Add-then-subtract leaves rounding residue; start the sum afresh from the
    // ring once per lap (O(W) every W updates).
    loss_sum_ = 0.0;
    for (std::size_t i = 0; i < cm_.total(); ++i) loss_sum_ += ring_[i].loss;
  }
}

void RollingClassificationMetrics::update_proba(std::size_t truth, std::span<const double> proba) noexcept {
  assert(proba.size() == cm_.n_classes() && truth < proba.size());
  update(truth, argmax_class(proba), proba[truth]);
}

void RollingClassificationMetrics::reset() noexcept {
  cm_.reset();
  head_ = 0;
  loss_sum_ = 0.0;
}

double RollingClassificationMetrics::log_loss() const {
  return cm_.total() == 0 ? MetricValues::kNone : loss_sum_ / static_cast<double>(cm_.total());
}

MetricValues RollingClassificationMetrics::values() const {
  MetricValues v;
  v.accuracy = cm_.accuracy();
  v.kappa = cm_.kappa();
  v.macro_f1 = cm_.macro_f1();
  v.log_loss = log_loss();
  v.balanced_accuracy = cm_.balanced_accuracy();
  return v;
}

}  // namespace irithyll
