// Kswin: Kolmogorov-Smirnov WINdowing (Raab, Heusinger, Schleif 2020,
// "Reactive Soft Prototype Computing for Concept Drift Streams",
// Neurocomputing 416).
//
// Keeps the last window_size values. Once the window is full, every update
// compares the newest stat_size values R with stat_size values drawn without
// replacement (seeded) from the older window_size - stat_size, by the
// two-sample Kolmogorov-Smirnov test; Drift when its p-value is <= alpha and
// the statistic D exceeds 0.1 (River's guard against tiny, significant-only-
// by-ties differences). On Drift the window keeps only R. With both samples
// of size n the exact null distribution of D is the lattice-path count
//   P(D >= k/n) = 2 sum_{j>=1} (-1)^(j+1) C(2n, n - jk) / C(2n, n)
// (Gnedenko-Korolyuk), computed here in closed form; with ties (0/1 errors)
// this p-value is conservative, as scipy's is. There is no warning zone.
// The constructor's defaults: window 100, stat size 30, alpha 0.005 (the
// paper's and River's). make_drift_detector's (default_drift_config) are
// window 300, stat size 100, alpha 1e-5: at River's, one test per row at
// alpha 0.005 alarms about every 200 rows on a stationary stream.
//
// Cost: O(stat_size log stat_size) per update once full (two sorts of 30
// values). Memory: window_size + 3 stat_size doubles, allocated at
// construction; update allocates nothing. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace irithyll {

class Kswin final : public DriftDetector {
 public:
  static constexpr std::string_view kName = "kswin";
  static constexpr std::uint32_t kMaxWindow = 1u << 20;
  static constexpr double kMinStatistic = 0.1;

  // REQUIRES: 0 < alpha < 1, 1 <= stat_size, 2 stat_size <= window_size <= kMaxWindow
  // (make_drift_detector checks).
  explicit Kswin(std::uint32_t window_size = 100, std::uint32_t stat_size = 30, double alpha = 0.005,
                 std::uint64_t seed = 42);

  std::string_view name() const override { return kName; }
  DriftSignal update(double value) noexcept override;
  void reset() noexcept override;
  std::unique_ptr<DriftDetector> clone_fresh() const override;
  std::unique_ptr<DriftDetector> clone() const override;
  // Mean of the values in the window.
  double estimated_mean() const noexcept override;
  std::size_t memory_bytes() const noexcept override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  std::uint32_t size() const noexcept { return size_; }
  double last_p_value() const noexcept { return p_value_; }
  // Exact P(D_{n,n} >= k/n) for two samples of size n without ties.
  static double ks_p_value(std::uint32_t n, std::uint32_t k) noexcept;

 private:
  double at(std::uint32_t i) const noexcept {  // i-th oldest value of the window
    return ring_[(head_ + i) % window_size_];
  }

  std::uint32_t window_size_, stat_size_;
  double alpha_;
  std::uint64_t seed_;
  Xorshift64 rng_;
  std::uint32_t head_ = 0, size_ = 0;  // ring of window_size_ values, oldest at head_
  double p_value_ = 1.0;
  std::vector<double> ring_;
  // Scratch for one test (not state): the two samples and the draw indices.
  std::vector<double> recent_, drawn_;
  std::vector<std::uint32_t> pick_;
};

}  // namespace irithyll
