// Metrics for drifting streams, beyond accuracy and Cohen's kappa:
//
//   BaselineKappa: kappa_t (Zliobaite, Bifet, Read, Pfahringer & Holmes 2015,
//     "Evaluation methods and decision theory for classification of streaming
//     data with temporal dependence") against the no-change classifier (it
//     predicts the previous true label), and kappa_m (Bifet, de Francisci
//     Morales, Read, Holmes & Pfahringer 2015) against the majority-class
//     classifier, both kappa = (acc - acc_baseline) / (1 - acc_baseline).
//     Both baselines run prequentially like the model: the majority class is
//     the most frequent label seen *before* each sample (ties to the lowest
//     index), not the hindsight majority, and on the first sample both
//     baselines have nothing to predict and count as wrong. All accuracies
//     share the denominator n. kappa is 0 while acc_baseline = 1.
//   BalancedAccuracy: the mean recall over the classes that occurred as true
//     labels (scikit-learn's balanced_accuracy_score).
//   RocAuc: binary ROC AUC, exact over every sample seen (ties count 1/2, as
//     in scikit-learn's roc_auc_score). Scores are appended to a buffer; when
//     the buffer holds as many as the sorted run of (score, positives,
//     negatives) counts (and at least 4096), it is sorted and merged into
//     the run. An update is O(1) plus an amortised O(log n) share of the
//     sorts and merges, all sequential memory (a search tree per score costs
//     a cache miss per level and an allocation per new score). Memory: 24
//     bytes per distinct score in the run, as much again for the merge's
//     copy, 8 per buffered score. auc() sorts the buffer in place and walks
//     the run, O(distinct scores + buffer). 0.5 until both classes have occurred.
//   Mape / Smape: mean absolute percentage error 100 |y - p| / |y| (samples
//     with y = 0 are skipped and counted in skipped()), and the symmetric
//     form 100 * 2 |y - p| / (|y| + |p|) (0 when both are 0), River's
//     definitions.
//
// Per-class precision and recall are in class_report.hpp (ClassificationMetrics).
// Thread safety: one owner each.
#pragma once

#include <cstdint>
#include <vector>

namespace irithyll {

class BaselineKappa {
 public:
  void update(std::size_t truth, std::size_t predicted);
  // Sizes the class counts up front, so update() allocates nothing for
  // labels below n_classes.
  void reserve(std::size_t n_classes) { class_counts_.reserve(n_classes); }
  std::uint64_t count() const noexcept { return n_; }
  double accuracy() const noexcept;
  double no_change_accuracy() const noexcept;  // the no-change classifier's
  double majority_accuracy() const noexcept;   // the prequential majority classifier's
  double kappa_t() const noexcept;
  double kappa_m() const noexcept;
  void reset() noexcept;

 private:
  std::uint64_t n_ = 0, correct_ = 0, nc_correct_ = 0, maj_correct_ = 0;
  bool has_previous_ = false;
  std::size_t previous_ = 0;
  std::size_t majority_ = 0;
  std::vector<std::uint64_t> class_counts_;
};

class BalancedAccuracy {
 public:
  void update(std::size_t truth, std::size_t predicted);
  double value() const noexcept;
  std::uint64_t count() const noexcept { return n_; }
  void reset() noexcept;

 private:
  std::uint64_t n_ = 0;
  std::vector<std::uint64_t> support_, hits_;
};

class RocAuc {
 public:
  // score: the model's score for the positive class (finite); positive: the
  // true label is the positive class. A non-finite score is ignored.
  void update(bool positive, double score);
  double auc() const noexcept;
  std::uint64_t count() const noexcept { return pos_ + neg_; }
  std::size_t distinct_scores() const noexcept;
  void reset() noexcept;

 private:
  struct Run {
    double score;
    std::uint64_t pos, neg;
  };
  // Calls emit(score, positives, negatives) for every distinct score seen,
  // ascending: the run merged with the buffer (sorted here, in place).
  template <typename Emit>
  void walk(Emit&& emit) const noexcept;
  void merge();  // the buffer into the run

  std::vector<Run> run_, spare_;  // spare_: the merge's output, swapped in
  mutable std::vector<double> pos_buffer_, neg_buffer_;
  mutable std::vector<std::uint64_t> sort_scratch_;  // the buffers' sort (src/eval/score_sort.hpp)
  std::uint64_t pos_ = 0, neg_ = 0;
};

class Mape {
 public:
  void update(double y, double prediction) noexcept;
  double value() const noexcept { return n_ == 0 ? 0.0 : 100.0 * sum_ / static_cast<double>(n_); }
  std::uint64_t count() const noexcept { return n_; }
  std::uint64_t skipped() const noexcept { return skipped_; }
  void reset() noexcept { *this = Mape(); }

 private:
  double sum_ = 0.0;
  std::uint64_t n_ = 0, skipped_ = 0;
};

class Smape {
 public:
  void update(double y, double prediction) noexcept;
  double value() const noexcept { return n_ == 0 ? 0.0 : 100.0 * sum_ / static_cast<double>(n_); }
  std::uint64_t count() const noexcept { return n_; }
  void reset() noexcept { *this = Smape(); }

 private:
  double sum_ = 0.0;
  std::uint64_t n_ = 0;
};

}  // namespace irithyll
