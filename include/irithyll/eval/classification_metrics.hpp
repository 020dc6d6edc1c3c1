// Prequential classification metrics: accuracy, Cohen's kappa, macro-F1 and
// log-loss and balanced accuracy, over the whole stream (ClassificationMetrics)
// or over the last W samples (RollingClassificationMetrics). The whole-stream
// version also keeps kappa_t and kappa_m with their no-change and majority
// baselines (stream_metrics.hpp), which need the labels' order.
//
// Log-loss is the mean of -ln(p) where p is the probability the model gave
// the true class, clipped to [1e-15, 1 - 1e-15] so that one confident miss
// costs at most ~34.5 nats; a NaN probability counts as 1e-15.
//
// Cost per update: O(1) (the rolling log-loss sum is re-added from its ring
// once every W updates to stop rounding drift: O(1) amortized). Reading
// values(): O(K). Memory: K^2 counters, plus W entries for the rolling
// version. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/eval/confusion_matrix.hpp"
#include "irithyll/eval/metric_values.hpp"
#include "irithyll/eval/stream_metrics.hpp"

namespace irithyll {

inline constexpr double kLogLossClip = 1e-15;

// -ln(p) with the clipping above.
double clipped_log_loss(double p_true) noexcept;

// Index of the largest probability; ties go to the lowest index. NaN entries
// never win. Empty span: 0.
std::size_t argmax_class(std::span<const double> proba) noexcept;

class ClassificationMetrics {
 public:
  explicit ClassificationMetrics(std::size_t n_classes);

  // REQUIRES: truth, predicted < n_classes().
  void update(std::size_t truth, std::size_t predicted, double p_truth) noexcept;
  // Predicted class = argmax_class(proba); REQUIRES proba.size() == n_classes().
  void update_proba(std::size_t truth, std::span<const double> proba) noexcept;
  void reset() noexcept;

  std::size_t n_classes() const { return cm_.n_classes(); }
  std::uint64_t count() const { return cm_.total(); }
  const ConfusionMatrix& confusion() const { return cm_; }
  double log_loss() const;
  MetricValues values() const;

 private:
  ConfusionMatrix cm_;
  BaselineKappa baselines_;
  double loss_sum_ = 0.0;
};

class RollingClassificationMetrics {
 public:
  // REQUIRES: window >= 1.
  RollingClassificationMetrics(std::size_t n_classes, std::size_t window);

  void update(std::size_t truth, std::size_t predicted, double p_truth) noexcept;
  void update_proba(std::size_t truth, std::span<const double> proba) noexcept;
  void reset() noexcept;

  std::size_t window() const { return ring_.size(); }
  std::uint64_t count() const { return cm_.total(); }  // min(samples seen, window)
  const ConfusionMatrix& confusion() const { return cm_; }
  double log_loss() const;
  MetricValues values() const;

 private:
  struct Entry {
    std::uint32_t truth;
    std::uint32_t predicted;
    double loss;
  };
  ConfusionMatrix cm_;
  std::vector<Entry> ring_;  // allocated once; the oldest entry is at head_ once full
  std::size_t head_ = 0;
  double loss_sum_ = 0.0;
};

}  // namespace irithyll
