// PageHinkley: the Page-Hinkley test (Page 1954; Hinkley 1971), two-sided.
//
// Two CUSUM-style sums of deviations from the running mean, one per direction:
//   up_t   = up_{t-1}   + (x_t - mean_t - delta)
//   down_t = down_{t-1} + (mean_t - delta - x_t)
// each with its running minimum. The statistic is sum - min (how far the sum
// has climbed since its lowest point); Drift when either exceeds lambda,
// Warning when either exceeds 0.8 lambda. Nothing is signalled during the
// first kMinInstances = 30 values after a (re)start (MOA's and River's
// minimum): the running mean of a few values is too rough to measure
// deviations from. The warning level: under i.i.d. noise the run between
// crossings of h grows like exp(2 delta h / s^2), so at lambda/2 warnings
// came e^(delta lambda / s^2) times as often as drifts (16x on 0/1 errors at
// a 10% error rate: dozens of false warnings per 10k rows); at 0.8 lambda it
// is e^(0.4 delta lambda / s^2), about 3x. On Drift the detector restarts
// completely (sums, minima, count and mean), as River's does: a standalone
// detector signals once per change instead of re-alarming while a mean that
// still remembers the old level catches up (one Bernoulli 0.2 -> 0.5 change
// gave about 21 alarms that way). Records of format version 1 keep that old
// partial restart, so they continue as written.
//
// delta is the magnitude of change to ignore (per sample), lambda the alarm
// threshold; both are in the units of the monitored value, so the false-alarm
// rate depends on its scale: for i.i.d. noise of variance s^2 the mean time
// between false alarms is roughly s^2/(2 delta^2) * exp(2 delta lambda / s^2)
// (Siegmund's CUSUM approximation). The SGBT engine feeds |gradient| values.
//
// Cost: O(1) per update, a handful of flops, no allocation. Memory: 80 bytes.
// Thread safety: one owner; no shared state.
#pragma once

#include <cstdint>
#include <limits>

#include "irithyll/drift/drift_detector.hpp"

namespace irithyll {

class PageHinkley final : public DriftDetector {
 public:
  static constexpr std::string_view kName = "pht";
  static constexpr std::uint64_t kMinInstances = 30;  // silent for this many values after a (re)start
  static constexpr double kWarningFraction = 0.8;     // warning at this fraction of lambda

  // REQUIRES: delta > 0, lambda > 0, both finite (make_drift_detector checks).
  explicit PageHinkley(double delta = 0.005, double lambda = 50.0) noexcept;

  std::string_view name() const override { return kName; }
  DriftSignal update(double value) noexcept override;
  void reset() noexcept override;
  std::unique_ptr<DriftDetector> clone_fresh() const override;
  std::unique_ptr<DriftDetector> clone() const override;
  double estimated_mean() const noexcept override;
  std::size_t memory_bytes() const noexcept override { return sizeof(*this); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  double delta() const noexcept { return delta_; }
  double lambda() const noexcept { return lambda_; }
  std::uint64_t count() const noexcept { return count_; }
  // Current statistics (sum - running minimum) for each direction.
  double up_statistic() const noexcept { return up_ - up_min_; }
  double down_statistic() const noexcept { return down_ - down_min_; }

 private:
  // Field order matters for speed: the compiler pairs adjacent doubles into
  // one vector add, and pairing sum_ with up_ would put the division that
  // feeds up_ on sum_'s loop-carried chain (measured 3x slower). up_/down_
  // and their minima pair naturally.
  double delta_;
  double lambda_;
  // The mean is kept as a plain sum: mean = sum / count keeps the division
  // off the loop-carried dependency chain (a Welford update puts it on it).
  double sum_ = 0.0;
  std::uint64_t count_ = 0;
  // Sums start at 0 with minimum 0: the empty prefix counts as a candidate
  // minimum, which is the textbook definition (m_T - min_{0<=t<=T} m_t).
  double up_ = 0.0, down_ = 0.0;
  double up_min_ = 0.0, down_min_ = 0.0;
  // false only for a decoded version-1 record: keep count and mean on Drift.
  bool full_restart_ = true;
};

}  // namespace irithyll
