// GradientContinual: a ContinualStrategy (ewc | mask | regen) wired around
// the SGD step of a gradient-trained extractor, plus the loss watch that
// sends Warning/Drift to it. The owner gathers its trained weights into
// params(), the step's dense gradient into grads(), then
//
//   pre_update()                 EWC adds lambda F (theta - theta*), the mask zeroes frozen entries
//   params() -= lr * grads()     the owner's SGD step
//   post_update()                regeneration redraws the least useful groups at its interval
//   observe_loss(loss)           detector -> on_drift(params()): EWC anchors, the mask freezes
//
// and scatters params() back. Keeping the strategy in a variant makes the
// whole guard a copyable value. Cost per update O(n) on top of the
// strategy's own O(n); memory 2n doubles of scratch. No allocation after
// make(). Thread safety: one owner.
#pragma once

#include <variant>
#include <vector>

#include "irithyll/nn/continual/continual_config.hpp"
#include "nn/continual/drift_mask.hpp"
#include "nn/continual/loss_watch.hpp"
#include "nn/continual/neuron_regeneration.hpp"
#include "nn/continual/streaming_ewc.hpp"

namespace irithyll::nn {

class GradientContinual {
 public:
  GradientContinual() = default;
  // group_size: parameters per regeneration group (a neuron's fan-in).
  static Result<GradientContinual> make(const ContinualConfig& config, std::size_t n_params, std::size_t group_size);

  std::span<double> params() noexcept { return params_; }
  std::span<double> grads() noexcept { return grads_; }
  void pre_update() noexcept { strategy().pre_update(params_, grads_); }
  // The owner's SGD step size, so EWC's penalty can never overshoot its
  // anchor (streaming_ewc.hpp); other strategies ignore it.
  void set_step_size(double lr) noexcept {
    if (auto* ewc = std::get_if<StreamingEwc>(&strategy_)) ewc->set_step_size(lr);
  }
  void post_update() noexcept { strategy().post_update(params_); }
  // Feeds the loss to the detector; a Warning or Drift goes to the strategy
  // with params() as the current weights.
  DriftSignal observe_loss(double loss) noexcept;

  ContinualStrategy& strategy() noexcept;
  const ContinualStrategy& strategy() const noexcept;
  const LossWatch& watch() const noexcept { return watch_; }
  std::size_t memory_bytes() const noexcept;

  // State of the strategy and the detector (the configuration is the owner's).
  void encode_state(ByteWriter& out) const;
  Status decode_state(ByteReader& in);

 private:
  std::variant<std::monostate, StreamingEwc, DriftMask, NeuronRegeneration> strategy_;
  LossWatch watch_;
  std::vector<double> params_, grads_;
};

}  // namespace irithyll::nn
