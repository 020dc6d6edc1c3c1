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

enum class DriftKind : std::uint8_t { kNone = 0, kPageHinkley = 1, kAdwin = 2, kDdm = 3 };

// One configuration table for every detector; each reads the fields it uses.
struct DriftConfig {
  DriftKind kind = DriftKind::kPageHinkley;
  double delta = 0.005;          // PH: tolerated drift magnitude (>0). ADWIN: confidence in (0,1), default 0.002.
  double lambda = 50.0;          // PH: alarm threshold (>0).
  double warning_level = 2.0;    // DDM: warning at p+s >= p_min + warning_level * s_min.
  double drift_level = 3.0;      // DDM: drift at p+s >= p_min + drift_level * s_min (> warning_level).
  std::uint32_t min_instances = 30;  // DDM: no signal before this many observations.
};

// DriftConfig's `delta` default is Page-Hinkley's; ADWIN's confidence default
// is this. default_drift_config(kind) gives each kind its own defaults.
inline constexpr double kAdwinDefaultDelta = 0.002;
DriftConfig default_drift_config(DriftKind kind);

// Validates the configuration and builds the detector; kNone yields nullptr.
Result<std::unique_ptr<DriftDetector>> make_drift_detector(const DriftConfig& config);
// "adwin" | "pht" | "ddm" | "none" (also "page-hinkley", "page_hinkley").
Result<DriftKind> parse_drift_kind(std::string_view name);
std::string_view drift_kind_name(DriftKind kind);
// Decodes a detector written as str(name) + encode().
Result<std::unique_ptr<DriftDetector>> decode_drift_detector(ByteReader& in);
void encode_drift_detector(const DriftDetector& detector, ByteWriter& out);

}  // namespace irithyll
