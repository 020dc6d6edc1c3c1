// SpikeNetLearner: the integer spiking network (spike_net.hpp) behind the
// Learner interface. Features and targets cross into Q1.14 at the boundary,
// x_q = clamp(round(x * input_scale * 16384)) and likewise for the target
// with target_scale, so values should be standardised to about [-2, 2)
// (put a StandardScaler in front, or set the scales). Only the conversions
// and the RLS readout are floating point; the network step is integer-only.
//
// Two readouts (`readout`):
//  - kRls (default): the spiking layer as a reservoir (a liquid state
//    machine, Maass et al. 2002) read by recursive least squares, the usual
//    readout of a liquid state machine. Features
//    [4 z_j (the network's readout-filtered hidden spike traces, rates of
//    ~0.1 brought near unit scale), the delta encoder's current UP/DOWN bits,
//    x, 1]. The encoder bits carry the signal's direction of change, which
//    the hidden layer alone (held near its 0.1 target rate by the astrocyte
//    gate) conveys poorly: without them Mackey-Glass one-step NRMSE is ~0.13,
//    barely better than repeating the last value (0.147); with them 0.060
//    (Lorenz-63 0.013 against persistence's 0.136; bench/timeseries.cpp).
//    The network keeps training by e-prop on its own integer readout, so the
//    integer path stays deployable; the RLS readout adds O(m^2), m = h+3d+1.
//  - kEprop: the network's integer leaky readout (what a microcontroller
//    runs). It tracks slow targets poorly: a delta encoder reports only
//    changes, and the readout sees only hidden spikes (NRMSE 1.6 / 1.4 on
//    Mackey-Glass / Lorenz-63 in bench/timeseries.cpp, worse than the mean).
//    Only this path fits the ~22 KB microcontroller budget; the RLS readout
//    adds (m^2 + 3m) doubles (~37 KB at 64 hidden and one feature).
//
// Regression trains one readout on the target. Classification uses one
// readout per class trained toward 1.0 for the true class and 0 otherwise;
// predict_one is the arg-max and predict_proba_one the readouts clipped to
// [1e-6, 1] and normalised (scores, not calibrated probabilities).
//
// Test-then-train: predict_one runs the forward pass on a copy of the dynamic
// state (membranes, gate, encoder, readouts: well under 1 KB), so it changes
// nothing. NaN features read as 0; a non-finite target or non-positive weight
// runs the forward pass (the network must keep time) without learning; samples
// of the wrong width are ignored. No allocation after the first sample.
// Thread safety: one owner.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/nn/snn/spike_net_config.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

enum class SpikeNetReadout : std::uint8_t { kRls = 0, kEprop = 1 };

// Network defaults for the learner: the delta encoder threshold is 0.02
// rather than the network's 0.05, so slow series such as Mackey-Glass (steps
// of ~0.01-0.05) still produce encoder spikes (NRMSE 0.060 against 0.098).
inline SpikeNetConfig spike_net_learner_defaults() {
  SpikeNetConfig c;
  c.encoder_threshold = 328;
  return c;
}

struct SpikeNetLearnerConfig {
  double input_scale = 1.0;       // x -> x * input_scale before Q14 (finite, > 0)
  double target_scale = 1.0;      // y -> y * target_scale before Q14 (finite, > 0)
  SpikeNetReadout readout = SpikeNetReadout::kRls;
  RlsConfig rls{0.999, 100.0};    // kRls only
  // n_input / n_output are set from the task and features, seed from the context.
  SpikeNetConfig net = spike_net_learner_defaults();
};

class SpikeNetCore;  // internal (src/nn/snn/spike_net_core.hpp): the learner's machinery

class SpikeNetLearner final : public BoxedLearner<SpikeNetCore, SpikeNetLearnerConfig> {
 public:
  using Config = SpikeNetLearnerConfig;
  static constexpr std::string_view kName = "spikenet";
  // The table lists the network's hidden size and learning rates; its other
  // constants (decays, threshold, gate) travel in the network's own record.
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, classification with
  // 2..64 classes, at most 256 features, a valid network.
  static Result<std::unique_ptr<SpikeNetLearner>> make(const Config& config, const LearnerContext& context);
  // make()'s checks after the table's ranges (also run on decoding).
  static Status validate(const Config& config, const LearnerContext& context);

  SpikeNetLearner() = default;
  SpikeNetLearner(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
