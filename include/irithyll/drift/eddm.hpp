// Eddm: the Early Drift Detection Method (Baena-Garcia, del Campo-Avila,
// Fidalgo, Bifet, Gavalda, Morales-Bueno 2006, "Early Drift Detection
// Method", ECML PKDD workshop on knowledge discovery from data streams).
//
// Watches the distance (in values) between consecutive errors instead of the
// error rate. With p' and s' the running mean and standard deviation of those
// distances, it keeps the largest p' + 2 s' seen once min_errors errors have
// arrived, and on each later error signals
//   Warning when (p' + 2 s') / max < warning   (paper: 0.95)
//   Drift   when (p' + 2 s') / max < drift     (paper: 0.90)
// As errors crowd together the distances shrink and so does the ratio. On
// Drift every statistic restarts. A value counts as an error when it is >= 0.5
// (so 0/1 errors and booleans work); the signal only changes on an error and
// is held between errors.
//
// Cost: O(1) per update, no allocation. Memory: under 100 bytes.
// Thread safety: one owner; no shared state.
#pragma once

#include <cstdint>

#include "irithyll/drift/drift_detector.hpp"

namespace irithyll {

class Eddm final : public DriftDetector {
 public:
  static constexpr std::string_view kName = "eddm";

  // REQUIRES: 0 < drift < warning < 1, min_errors > 0 (make_drift_detector checks).
  explicit Eddm(double warning = 0.95, double drift = 0.90, std::uint32_t min_errors = 30) noexcept;

  std::string_view name() const override { return kName; }
  DriftSignal update(double value) noexcept override;
  void reset() noexcept override;
  std::unique_ptr<DriftDetector> clone_fresh() const override;
  std::unique_ptr<DriftDetector> clone() const override;
  // The error rate since the last restart.
  double estimated_mean() const noexcept override;
  std::size_t memory_bytes() const noexcept override { return sizeof(*this); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  std::uint64_t errors() const noexcept { return errors_; }
  double mean_distance() const noexcept { return mean_; }

 private:
  double warning_;
  double drift_;
  std::uint32_t min_errors_;
  std::uint64_t count_ = 0;       // values since the last restart
  std::uint64_t errors_ = 0;      // errors since the last restart
  std::uint64_t last_error_ = 0;  // count_ at the last error (0: none yet)
  double mean_ = 0.0;             // mean distance between errors
  double m2_ = 0.0;               // sum of squared deviations of the distances (Welford)
  double max_ = 0.0;              // largest mean + 2 sd once min_errors_ errors were seen
  DriftSignal held_ = DriftSignal::kStable;
};

}  // namespace irithyll
