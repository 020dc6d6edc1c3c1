// ContinualStrategy: guards that keep an online model plastic without letting
// it forget everything at once. A strategy sees the parameter vector and its
// gradient around each update and hears about drift:
//
//   pre_update(params, grads)   may rewrite the gradient (penalty, masking)
//   post_update(params)         may rewrite parameters (regeneration)
//   on_drift(params, signal)    reacts to a drift detector's verdict
//
// observe_loss() wires any DriftDetector (ADWIN, Page-Hinkley, DDM; see
// include/irithyll/drift/drift_detector.hpp, the detectors the tree engine
// uses) to a strategy: feed it the per-sample loss and it forwards Warning and
// Drift. Implementations: StreamingEwc, DriftMask, NeuronRegeneration.
// encode_state / decode_state carry the learned state (not the configuration,
// which the owning learner writes): decode_state expects a strategy built with
// the same configuration and size and rejects bytes of any other shape.
// Thread safety: one owner.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace irithyll::nn {

class ContinualStrategy {
 public:
  virtual ~ContinualStrategy() = default;
  virtual std::string_view name() const = 0;
  virtual std::size_t n_params() const noexcept = 0;
  // REQUIRES: params.size() == grads.size() == n_params().
  virtual void pre_update(std::span<const double> params, std::span<double> grads) noexcept = 0;
  virtual void post_update(std::span<double> params) noexcept = 0;
  virtual void on_drift(std::span<const double> params, DriftSignal signal) noexcept = 0;
  virtual void reset() noexcept = 0;
  virtual void encode_state(ByteWriter& out) const = 0;
  // Leaves the strategy unchanged when the bytes are rejected.
  virtual Status decode_state(ByteReader& in) = 0;
};

// Feeds `loss` to the detector and forwards a Warning or Drift to the strategy.
inline DriftSignal observe_loss(DriftDetector& detector, ContinualStrategy& strategy, std::span<const double> params,
                                double loss) noexcept {
  const DriftSignal s = detector.update(loss);
  if (s != DriftSignal::kStable) strategy.on_drift(params, s);
  return s;
}

}  // namespace irithyll::nn
