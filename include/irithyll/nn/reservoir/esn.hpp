// EchoStateNetwork: the streaming learner built on a cycle reservoir
// (cycle_reservoir.hpp) with recursive-least-squares readouts
// (readout_bank.hpp). Each sample advances the reservoir with x, then the
// readout learns y from [state, x (optional), 1].
//
// Test-then-train: predict_one(x) computes the state x would lead to without
// committing it and caches it; learn_one(x, .) with the same x reuses it, so
// the pair costs one reservoir step. Non-finite features are read as 0 (the
// state must keep stepping with the stream); a non-finite target or a
// non-positive weight advances the state but skips the readout; samples of the
// wrong width are ignored. The first `washout` samples only drive the state.
//
// Settings: EsnConfig, through its field table (config_fields()); task,
// classes, width and seed come from the LearnerContext (irithyll/learner.hpp).
//
// Cost per sample O(n*d) (reservoir) + O(c*m^2) (readout, m = n + d + 1).
// No allocation after the first sample. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

struct EsnConfig {
  std::size_t n_neurons = 100;    // reservoir size
  double spectral_radius = 0.9;   // ring weight magnitude, (0, inf)
  double input_scaling = 0.5;     // input weights U[-s, s]
  double leak = 0.3;              // (0, 1]
  double bias_scaling = 0.1;      // bias U[-b, b]; 0 = none
  bool include_input = true;      // readout also sees x
  std::uint64_t washout = 0;      // samples that only drive the state
  RlsConfig rls{0.999, 100.0};
};

// The learning flow is ReadoutBankCore's (readout_bank_core.hpp).
class EsnCore;  // internal (src/nn/reservoir/esn_core.hpp): the learner's machinery

class EchoStateNetwork final : public BoxedLearner<EsnCore, EsnConfig> {
 public:
  using Config = EsnConfig;
  static constexpr std::string_view kName = "esn";
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, classification with
  // 2..1024 classes, n_neurons + n_features + 1 <= 4096 readout inputs.
  static Result<std::unique_ptr<EchoStateNetwork>> make(const Config& config, const LearnerContext& context);
  // make()'s checks after the table's ranges (also run on decoding).
  static Status validate(const Config& config, const LearnerContext& context);

  EchoStateNetwork() = default;
  EchoStateNetwork(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
