// TargetGuard: a robust guard on the regression targets a learner is taught.
// One mistyped target (1e6 in a column of values near 10, or 1e308) moves a
// squared-loss learner's leaf means, gradient sums or weights so far that it
// stays wrong for tens of thousands of samples, or overflows to NaN for good.
// The guard keeps the last `window` raw targets and, once `warmup` have been
// seen, clips the target that is learned to median +- k * s, where s is the
// normal-consistent MAD (1.4826 * median |y - median|; Hampel 1974) of that
// window. The raw target still enters the window, so a real shift in level
// moves the median within window / 2 samples and stops being clipped; the
// metrics are always scored against the raw target.
//
// Cost: O(window) every `refresh` samples (nth_element on a preallocated
// copy); no allocation after construction. Deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irithyll {

class TargetGuard {
 public:
  // REQUIRES: window >= 8, 0 < warmup <= window, k > 0, refresh >= 1.
  explicit TargetGuard(std::size_t window = 512, std::size_t warmup = 64, double k = 8.0, std::size_t refresh = 16);

  // The target to learn for the raw target y (finite): y itself, or y clipped
  // to the band. Records y.
  double admit(double y);

  std::uint64_t n_clipped() const { return clipped_; }
  double median() const { return median_; }
  double scale() const { return scale_; }

 private:
  void refresh_band();

  std::vector<double> ring_, scratch_;
  std::size_t window_, warmup_, refresh_, head_ = 0, filled_ = 0, since_refresh_ = 0;
  double k_, median_ = 0.0, scale_ = 0.0;
  std::uint64_t clipped_ = 0;
};

}  // namespace irithyll
