// ContinualConfig: the one small switch every neural learner takes to turn a
// continual-learning guard on (default: off, so a learner without it behaves
// and encodes exactly as before). Which strategies a learner accepts depends
// on how it learns:
//  - gradient-trained extractors (loglinear): ewc | mask | regen, applied to
//    the flat vector of trained weights (streaming_ewc.hpp, drift_mask.hpp,
//    neuron_regeneration.hpp);
//  - fixed random extractors with an RLS readout (slstm, mamba v3/bd):
//    regen only, through the model's re-initialisation hook
//    (readout_regeneration.hpp); they have no gradient for ewc or mask.
// The drift detector (adwin | ph | ddm, or none for interval-only
// regeneration) watches the learner's per-sample loss and sends Warning/Drift
// to the strategy: EWC anchors on Drift, the mask freezes on Drift,
// regeneration regenerates on Drift when regen_on_drift is set.
// Thread safety: plain value.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace irithyll::nn {

enum class ContinualKind : std::uint8_t { kNone = 0, kEwc = 1, kMask = 2, kRegen = 3 };

struct ContinualConfig {
  ContinualKind kind = ContinualKind::kNone;
  DriftKind detector = DriftKind::kPageHinkley;  // kNone: no detector (regen on its interval only)
  double ewc_lambda = 1.0;        // ewc: penalty strength >= 0
  double alpha = 0.99;            // EWMA decay of Fisher / importance / utility, in [0, 1)
  double freeze_fraction = 0.3;   // mask: share frozen per Drift, in [0, 1]
  double regen_fraction = 0.01;   // regen: share of groups replaced, in (0, 1]
  std::uint64_t interval = 1000;  // regen: updates between regenerations, >= 1
  bool regen_on_drift = true;     // regen: also regenerate after a Drift
  std::uint64_t seed = 42;        // regen: draws of the new weights

  bool enabled() const noexcept { return kind != ContinualKind::kNone; }
  Status validate() const;
};

// "none" | "ewc" | "mask" | "regen".
Result<ContinualKind> parse_continual_kind(std::string_view name);
std::string_view continual_kind_name(ContinualKind kind);

void encode_continual_config(const ContinualConfig& config, ByteWriter& out);
// Reads what encode_continual_config wrote; validates it.
Result<ContinualConfig> decode_continual_config(ByteReader& in);

// The detector of the configuration (nullptr for DriftKind::kNone), with the
// kind's default thresholds.
Result<std::unique_ptr<DriftDetector>> make_continual_detector(const ContinualConfig& config);

}  // namespace irithyll::nn
