// Adwin: ADaptive WINdowing, ADWIN2 (Bifet & Gavalda 2007, "Learning from
// Time-Changing Data with Adaptive Windowing", SDM).
//
// Keeps a window W of recent values compressed into an exponential histogram:
// row r holds up to M = 5 buckets of 2^r values each (sum and sum of squared
// deviations per bucket); when a row overflows, its two oldest buckets merge
// into one bucket of the next row. W is cut when some split W = W0 . W1 (W0
// older) at a bucket boundary has means far enough apart:
//     |mu0 - mu1| > sqrt(2/m * var_W * L) + 2/(3m) * L,
//     1/m = 1/n0 + 1/n1,  L = ln(2/delta'),  delta' = delta / ln|W|
// (the variance-aware bound of the paper's Section 4, Bernstein-style). The
// original used the Hoeffding form sqrt(ln(4/delta')/(2m)), which is only
// valid for values in [0, 1]; on wider-ranged values (|gradient|, losses) it
// fires on noise, so we use the bound that scales with the data.
// On a cut, the oldest bucket is dropped and the window re-checked until no
// split qualifies (the paper drops from the tail one element at a time; we
// do it one bucket at a time), and Drift is reported. Warning: no cut, but a
// split passes the same test with 2*delta.
//
// Speed choices (target <= 50 ns per update on a 1e6-sample stream):
//   * the histogram is fixed-capacity arrays (48 rows x 8-slot rings), nothing is
//     allocated after construction; 48 rows hold 5 * 2^48 values (if that is
//     ever exceeded, the oldest bucket is forgotten);
//   * the window's total and variance are updated incrementally (O(1));
//   * cuts are checked only every kClock = 32 updates (as River does) and
//     only once |W| > kMinWindow = 32; a drift is therefore reported up to 31
//     updates after the value that completes it, and Warning holds between
//     checks;
//   * the test is rearranged to multiply-only form per boundary (no division
//     or square root inside the scan).
//
// Cost: amortised O(1) per update plus O(M log|W|) every 32 updates.
// Memory: about 6.3 KB, fixed. Thread safety: one owner; no shared state.
#pragma once

#include <array>
#include <cstdint>

#include "irithyll/drift/drift_detector.hpp"

namespace irithyll {

class Adwin final : public DriftDetector {
 public:
  static constexpr std::string_view kName = "adwin";
  static constexpr int kMaxBuckets = 5;               // M: buckets per row before a merge
  static constexpr int kRows = 48;                    // rows of sizes 1, 2, 4, ..., 2^47
  static constexpr std::uint64_t kMinWindow = 32;     // no check while |W| <= this
  static constexpr std::uint32_t kClock = 32;         // updates between checks
  static constexpr std::uint64_t kMinSubwindow = 5;   // each side of a split holds at least this many
  // Values above this in magnitude are ignored, as non-finite ones are:
  // their squares (in the buckets' variances, summed over up to 5 * 2^48
  // values) could overflow to inf, which no checkpoint may hold.
  static constexpr double kMaxMagnitude = 1e100;

  // REQUIRES: 0 < delta < 1 (make_drift_detector checks).
  explicit Adwin(double delta = kAdwinDefaultDelta) noexcept;

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
  std::uint64_t width() const noexcept { return width_; }
  double variance() const noexcept { return width_ == 0 ? 0.0 : m2_ / static_cast<double>(width_); }
  int n_buckets() const noexcept;
  int bucket_count_in_row(int row) const noexcept { return row_count_[static_cast<std::size_t>(row)]; }

 private:
  // Each row is a ring of 8 slots (a row briefly holds M+1 = 6 before
  // merging): dropping the two oldest moves the head instead of shifting.
  static constexpr int kSlots = 8;
  static_assert(kMaxBuckets + 1 <= kSlots && (kSlots & (kSlots - 1)) == 0);

  enum class Cut { kNone, kWarning, kDrift };
  struct Scan {
    Cut cut = Cut::kNone;
    int drop = 0;  // kDrift: buckets older than the strongest split, oldest first
  };
  Scan scan() const noexcept;          // tests every bucket boundary, oldest first
  void insert(double value) noexcept;  // appends a 1-value bucket and cascades merges
  void drop_oldest() noexcept;         // removes the oldest bucket from W
  // Slot of the i-th oldest bucket of a row.
  std::size_t slot(int row, int i) const noexcept {
    return static_cast<std::size_t>(row * kSlots + ((row_head_[static_cast<std::size_t>(row)] + i) & (kSlots - 1)));
  }

  double delta_;
  std::uint64_t width_ = 0;
  double total_ = 0.0;
  double m2_ = 0.0;  // sum of squared deviations from the window mean
  std::uint32_t tick_ = 0;
  bool warning_ = false;
  int n_rows_ = 0;  // rows in use: row_count_[r] == 0 for r >= n_rows_
  // Layout: the i-th oldest bucket of row r sits at [r * kSlots + (row_head_[r] + i) % kSlots].
  std::array<std::uint8_t, kRows> row_count_{};
  std::array<std::uint8_t, kRows> row_head_{};
  std::array<double, kRows * kSlots> sum_{};
  std::array<double, kRows * kSlots> bucket_m2_{};
};

}  // namespace irithyll
