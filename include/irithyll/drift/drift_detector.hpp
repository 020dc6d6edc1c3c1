// DriftDetector: the one small interface behind ADWIN, Page-Hinkley and DDM.
// A detector watches a stream of scalar errors (0/1 misclassifications or
// continuous losses) and reports Stable, Warning or Drift per update. Used on
// its own (`irithyll drift`) and by each SGBT tree slot to replace stale trees.
//
// Thread safety: one owner; no shared state between instances.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

enum class DriftSignal : std::uint8_t { kStable = 0, kWarning = 1, kDrift = 2 };

class DriftDetector {
 public:
  virtual ~DriftDetector() = default;
  virtual std::string_view name() const = 0;
  // Feeds one observation. Non-finite values are ignored (return kStable).
  virtual DriftSignal update(double value) noexcept = 0;
  virtual void reset() noexcept = 0;
  // Same configuration, no state.
  virtual std::unique_ptr<DriftDetector> clone_fresh() const = 0;
  // Deep copy, state included.
  virtual std::unique_ptr<DriftDetector> clone() const = 0;
  // The detector's current estimate of the monitored mean.
  virtual double estimated_mean() const noexcept = 0;
  virtual std::size_t memory_bytes() const noexcept = 0;
  // Complete state, configuration included.
  virtual void encode(ByteWriter& out) const = 0;
  virtual Status decode(ByteReader& in) = 0;
};

// The first four are the ones model settings offer (their checkpoints store
// the kind in a byte they range-check); the rest are for standalone use
// (`irithyll drift`, Python irithyll.drift): EDDM and HDDM read 0/1 errors or
// values in [0, 1], which a model's |gradient| is not.
enum class DriftKind : std::uint8_t {
  kNone = 0,
  kPageHinkley = 1,
  kAdwin = 2,
  kDdm = 3,
  kEddm = 4,
  kHddmA = 5,
  kHddmW = 6,
  kKswin = 7,
};

// One configuration table for every detector; each reads the fields it uses.
struct DriftConfig {
  DriftKind kind = DriftKind::kPageHinkley;
  double delta = 0.005;          // PH: tolerated drift magnitude (>0). ADWIN: confidence in (0,1), default 0.002.
  double lambda = 50.0;          // PH: alarm threshold (>0).
  double warning_level = 2.0;    // DDM: warning at p+s >= p_min + warning_level * s_min.
  double drift_level = 3.0;      // DDM: drift at p+s >= p_min + drift_level * s_min (> warning_level).
  std::uint32_t min_instances = 30;  // DDM: no signal before this many observations. EDDM: errors.
  double eddm_warning = 0.95;        // EDDM: warning when (p'+2s')/max < this.
  double eddm_drift = 0.90;          // EDDM: drift when (p'+2s')/max < this (< eddm_warning),
  std::uint32_t eddm_confirm_window = 50;  // and the newest this many error distances (0: no confirmation,
  double eddm_confirm_z = 4.0;             // the paper's rule; at most 200) average this many standard errors below p'.
  double drift_confidence = 0.001;   // HDDM_A/W: confidence of the drift test, in (0, 1).
  double warning_confidence = 0.005; // HDDM_A/W: confidence of the warning test (> drift_confidence).
  double ewma_lambda = 0.05;         // HDDM_W: weight of the newest value, in (0, 1).
  bool two_sided = false;            // HDDM_A/W: also detect decreases.
  std::uint32_t window_size = 100;   // KSWIN: values kept (>= 2 stat_size).
  std::uint32_t stat_size = 30;      // KSWIN: newest values tested, and values drawn from the rest.
  double alpha = 0.005;              // KSWIN: p-value at or below which the test signals, in (0, 1).
  std::uint64_t seed = 42;           // KSWIN: sampling seed.
};

// DriftConfig's `delta` default is Page-Hinkley's; ADWIN's confidence default
// is this. default_drift_config(kind) gives each kind its own defaults.
inline constexpr double kAdwinDefaultDelta = 0.002;
// HDDM_W's defaults (MOA and River use confidences 0.001 and 0.005 and
// lambda 0.05): at those the W-test re-fires on a stationary error rate
// near 0.5 (a second drift within 1000 rows after a 0.1 -> 0.4 change on
// 38% of streams). Ten times stricter confidences with a longer average
// (lambda 0.02, so each EWMA is less noisy and the bound tighter): 4%, with
// none found late and a mean delay of 65 rows instead of 51 (300 seeds).
inline constexpr double kHddmWDefaultDriftConfidence = 1e-4;
inline constexpr double kHddmWDefaultWarningConfidence = 5e-4;
inline constexpr double kHddmWDefaultLambda = 0.02;
DriftConfig default_drift_config(DriftKind kind);

// Validates the configuration and builds the detector; kNone yields nullptr.
Result<std::unique_ptr<DriftDetector>> make_drift_detector(const DriftConfig& config);
// "adwin" | "pht" | "ddm" | "eddm" | "hddm_a" | "hddm_w" | "kswin" | "none"
// (also "page-hinkley", "page_hinkley", "hddm-a", "hddm-w").
Result<DriftKind> parse_drift_kind(std::string_view name);
std::string_view drift_kind_name(DriftKind kind);
// Decodes a detector written as str(name) + encode().
Result<std::unique_ptr<DriftDetector>> decode_drift_detector(ByteReader& in);
void encode_drift_detector(const DriftDetector& detector, ByteWriter& out);

}  // namespace irithyll
