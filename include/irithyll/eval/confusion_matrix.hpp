// ConfusionMatrix: K x K counts (row = true class, column = predicted) with
// running row and column sums, so that samples can be added and removed in
// O(1) (the rolling metrics remove the sample leaving their window) and
// accuracy, Cohen's kappa and macro-F1 cost O(K) to read.
//
//   accuracy = trace / n
//   kappa    = (p_o - p_e) / (1 - p_e), p_e = sum_k row_k col_k / n^2
//              (Cohen 1960); defined as 0 when p_e = 1 (one class only in
//              both truth and prediction, where the ratio is 0/0)
//   macro-F1 = mean over classes seen (row_k + col_k > 0) of
//              2 TP_k / (row_k + col_k)
//   balanced accuracy = mean over classes with row_k > 0 of TP_k / row_k
//              (mean recall over the true classes seen; scikit-learn's
//              balanced_accuracy_score)
// Every value is NaN while the matrix is empty.
//
// Memory: K^2 + 2K counters. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irithyll {

class ConfusionMatrix {
 public:
  explicit ConfusionMatrix(std::size_t n_classes = 0);

  // REQUIRES: truth, predicted < n_classes().
  void add(std::size_t truth, std::size_t predicted) noexcept;
  // REQUIRES: that pair was added and not yet removed.
  void remove(std::size_t truth, std::size_t predicted) noexcept;
  void reset() noexcept;

  std::size_t n_classes() const { return n_; }
  std::uint64_t total() const { return total_; }
  std::uint64_t at(std::size_t truth, std::size_t predicted) const { return counts_[truth * n_ + predicted]; }
  std::uint64_t row_sum(std::size_t truth) const { return rows_[truth]; }
  std::uint64_t col_sum(std::size_t predicted) const { return cols_[predicted]; }

  double accuracy() const;
  double kappa() const;
  double macro_f1() const;
  double balanced_accuracy() const;

 private:
  std::size_t n_;
  std::uint64_t total_ = 0;
  std::uint64_t correct_ = 0;
  std::vector<std::uint64_t> counts_;  // row-major, truth * n + predicted
  std::vector<std::uint64_t> rows_;
  std::vector<std::uint64_t> cols_;
};

}  // namespace irithyll
