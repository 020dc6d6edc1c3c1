#include "irithyll/eval/target_guard.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {

TargetGuard::TargetGuard(std::size_t window, std::size_t warmup, double k, std::size_t refresh)
    : ring_(window), scratch_(window), window_(window), warmup_(warmup), refresh_(refresh), k_(k) {}

void TargetGuard::refresh_band() {
  const std::size_t n = filled_;
  std::copy(ring_.begin(), ring_.begin() + static_cast<std::ptrdiff_t>(n), scratch_.begin());
  auto mid = scratch_.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(scratch_.begin(), mid, scratch_.begin() + static_cast<std::ptrdiff_t>(n));
  median_ = *mid;
  double mean_abs = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    scratch_[i] = std::fabs(ring_[i] - median_);
    mean_abs += scratch_[i] / static_cast<double>(n);
  }
  std::nth_element(scratch_.begin(), mid, scratch_.begin() + static_cast<std::ptrdiff_t>(n));
  // A window of mostly equal targets has MAD 0; the mean absolute deviation
  // (not robust, but > 0 when anything varies) keeps the band from
  // collapsing onto the median. A constant window gives no band (scale 0).
  scale_ = *mid > 0.0 ? 1.4826 * *mid : mean_abs;
  if (!std::isfinite(scale_)) scale_ = 0.0;
}

double TargetGuard::admit(double y) {
  double learned = y;
  if (filled_ >= warmup_ && scale_ > 0.0) {
    const double lo = median_ - k_ * scale_, hi = median_ + k_ * scale_;
    if (y < lo || y > hi) {
      learned = y < lo ? lo : hi;
      ++clipped_;
    }
  }
  ring_[head_] = y;
  head_ = head_ + 1 == window_ ? 0 : head_ + 1;
  if (filled_ < window_) ++filled_;
  if (++since_refresh_ >= refresh_ || filled_ == warmup_) {
    since_refresh_ = 0;
    if (filled_ >= warmup_) refresh_band();
  }
  return learned;
}

}  // namespace irithyll
