#include "irithyll/eval/confusion_matrix.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace irithyll {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

ConfusionMatrix::ConfusionMatrix(std::size_t n_classes)
    : n_(n_classes), counts_(n_classes * n_classes, 0), rows_(n_classes, 0), cols_(n_classes, 0) {}

void ConfusionMatrix::add(std::size_t truth, std::size_t predicted) noexcept {
  assert(truth < n_ && predicted < n_);
  ++counts_[truth * n_ + predicted];
  ++rows_[truth];
  ++cols_[predicted];
  ++total_;
  if (truth == predicted) ++correct_;
}

void ConfusionMatrix::remove(std::size_t truth, std::size_t predicted) noexcept {
  assert(truth < n_ && predicted < n_ && counts_[truth * n_ + predicted] > 0);
  --counts_[truth * n_ + predicted];
  --rows_[truth];
  --cols_[predicted];
  --total_;
  if (truth == predicted) --correct_;
}

void ConfusionMatrix::reset() noexcept {
  std::fill(counts_.begin(), counts_.end(), 0);
  std::fill(rows_.begin(), rows_.end(), 0);
  std::fill(cols_.begin(), cols_.end(), 0);
  total_ = correct_ = 0;
}

double ConfusionMatrix::accuracy() const {
  if (total_ == 0) return kNaN;
  return static_cast<double>(correct_) / static_cast<double>(total_);
}

double ConfusionMatrix::kappa() const {
  if (total_ == 0) return kNaN;
  const double n = static_cast<double>(total_);
  double pe = 0.0;
  for (std::size_t k = 0; k < n_; ++k) pe += static_cast<double>(rows_[k]) * static_cast<double>(cols_[k]);
  pe /= n * n;
  if (pe >= 1.0) return 0.0;
  return (accuracy() - pe) / (1.0 - pe);
}

double ConfusionMatrix::macro_f1() const {
  if (total_ == 0) return kNaN;
  double sum = 0.0;
  std::size_t seen = 0;
  for (std::size_t k = 0; k < n_; ++k) {
    const std::uint64_t support = rows_[k] + cols_[k];
    if (support == 0) continue;
    sum += 2.0 * static_cast<double>(counts_[k * n_ + k]) / static_cast<double>(support);
    ++seen;
  }
  return sum / static_cast<double>(seen);
}

double ConfusionMatrix::balanced_accuracy() const {
  if (total_ == 0) return kNaN;
  double sum = 0.0;
  std::size_t seen = 0;
  for (std::size_t k = 0; k < n_; ++k) {
    if (rows_[k] == 0) continue;
    sum += static_cast<double>(counts_[k * n_ + k]) / static_cast<double>(rows_[k]);
    ++seen;
  }
  return sum / static_cast<double>(seen);
}

}  // namespace irithyll
