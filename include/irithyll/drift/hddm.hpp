// HddmA and HddmW: the Hoeffding-bound drift detectors of Frias-Blanco,
// del Campo-Avila, Ramos-Jimenez, Morales-Bueno, Ortiz-Diaz, Caballero-Mota
// 2015, "Online and Non-Parametric Drift Detection Methods Based on
// Hoeffding's Bounds", IEEE TKDE 27(3).
//
// Both watch values in [0, 1] (0/1 errors, or bounded losses); values outside
// [0, 1] and non-finite values are ignored (the bounds assume the range).
//
// HDDM_A (A-test, moving averages). Keeps the running total (n, sum) and a cut
// point: the prefix whose mean + eps(n) was smallest, eps(n) =
// sqrt(ln(1/conf) / (2n)) at the drift confidence. The values after the cut
// are compared with the prefix by Hoeffding's inequality for a difference of
// means (the paper's Corollary 1):
//   mean(all) - mean(prefix) >= sqrt((1/n_cut - 1/n) / 2 * ln(2/conf))
// tested at the drift confidence (Drift: everything restarts) and then at the
// warning confidence (Warning). Two-sided: a second cut point (largest
// mean - eps) tests decreases the same way.
//
// HDDM_W (W-test, weighted averages). The same scheme on exponentially
// weighted moving averages (weight lambda for the newest value): the total's
// EWMA and its bound term sum_i w_i^2 (McDiarmid's inequality); the cut
// point is where EWMA + sqrt(sum w^2 ln(1/conf) / 2) was smallest, the
// window after it is a second EWMA, and Drift/Warning when
//   ewma(after) - ewma(cut) > sqrt((sum w^2 (cut) + sum w^2 (after)) ln(1/conf) / 2).
//
// The constructors' defaults are MOA's and River's: drift confidence 0.001,
// warning 0.005, one-sided (increases of the error), lambda 0.05. For HDDM_W
// make_drift_detector's defaults (default_drift_config) are stricter, 1e-4,
// 5e-4 and lambda 0.02: at MOA's the W-test re-fires on a stationary error
// rate near 0.5 (drift_detector.hpp gives the measurements).
//
// Cost: O(1) per update (a few square roots), no allocation. Memory: under
// 200 bytes. Thread safety: one owner; no shared state.
#pragma once

#include <cstdint>

#include "irithyll/drift/drift_detector.hpp"

namespace irithyll {

class HddmA final : public DriftDetector {
 public:
  static constexpr std::string_view kName = "hddm_a";

  // REQUIRES: 0 < drift_confidence < warning_confidence < 1 (make_drift_detector checks).
  explicit HddmA(double drift_confidence = 0.001, double warning_confidence = 0.005, bool two_sided = false) noexcept;

  std::string_view name() const override { return kName; }
  DriftSignal update(double value) noexcept override;
  void reset() noexcept override;
  std::unique_ptr<DriftDetector> clone_fresh() const override;
  std::unique_ptr<DriftDetector> clone() const override;
  double estimated_mean() const noexcept override;
  std::size_t memory_bytes() const noexcept override { return sizeof(*this); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  std::uint64_t count() const noexcept { return n_; }

 private:
  // Hoeffding test: has the mean after the prefix (n_cut, c_cut) risen (sign
  // +1) or fallen (-1) at confidence conf?
  bool shifted(double c_cut, std::uint64_t n_cut, double conf, double sign) const noexcept;

  double drift_conf_, warning_conf_;
  bool two_sided_;
  std::uint64_t n_ = 0;
  double c_ = 0.0;
  std::uint64_t n_min_ = 0, n_max_ = 0;  // cut points (0: none yet)
  double c_min_ = 0.0, c_max_ = 0.0;
};

class HddmW final : public DriftDetector {
 public:
  static constexpr std::string_view kName = "hddm_w";

  // REQUIRES: 0 < drift_confidence < warning_confidence < 1, 0 < lambda < 1.
  explicit HddmW(double drift_confidence = 0.001, double warning_confidence = 0.005, double lambda = 0.05,
                 bool two_sided = false) noexcept;

  std::string_view name() const override { return kName; }
  DriftSignal update(double value) noexcept override;
  void reset() noexcept override;
  std::unique_ptr<DriftDetector> clone_fresh() const override;
  std::unique_ptr<DriftDetector> clone() const override;
  double estimated_mean() const noexcept override;
  std::size_t memory_bytes() const noexcept override { return sizeof(*this); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  // An EWMA with the sum of its squared weights (McDiarmid's bound term).
  struct Ewma {
    bool empty = true;
    double mean = 0.0;
    double w2 = 0.0;
    void add(double value, double lambda) noexcept;
  };
  // One direction's cut point and the window after it.
  struct Side {
    bool has_cut = false;
    double cut_bound = 0.0;  // EWMA + bound (increase) or EWMA - bound (decrease) at the cut
    Ewma at_cut, after;
  };
  void update_side(Side& side, double value, double sign) noexcept;
  bool shifted(const Side& side, double conf, double sign) const noexcept;

  double drift_conf_, warning_conf_, lambda_;
  bool two_sided_;
  Ewma total_;
  Side up_, down_;
};

}  // namespace irithyll
