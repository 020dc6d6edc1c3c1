// TttLearner ("ttt"): streaming test-time training. A fast-weight layer
// (TTT-Linear, Sun et al. 2024, "Learning to (Learn at Test Time)") whose
// d x d matrix W takes one gradient step per sample, with Titans-style
// weight decay and momentum (Behrouz et al. 2025), feeding an RLS readout
// (readout/rls_head.hpp).
//
// Per sample x (m features): x^ = x / max(|x|, 1); k, v, q = W_K x^, W_V x^,
// W_Q x^ (k and q unit length); representation z = q + LN(GELU(q + W q));
// readout features [z, x, 1]: z alone has lost |x| (q is unit length), so
// the readout also sees x itself and a constant, a linear skip path around
// the layer. Learning, in this order:
//   1. the readout's prediction p for this x (the one predict_one returns)
//      and its error e = y - p, once the readout has trained;
//   2. W steps on the residual r = -e q / d (prediction-directed), or on the
//      reconstruction residual W k - (v - k) while e is unknown, with the
//      step size eta scaled by the ratio of the readout's current to its
//      long-run residual RMS (in [0.5, 2]); W is cleared when a short-run
//      error RMS first rises above 1.5x the long-run one (a surge; once per
//      surge, not on every sample of it);
//   3. the readout trains on the new z, its forgetting factor lowered (down
//      to 0.95) while the residuals run above their long-run level;
//   4. W_K, W_V, W_Q take one clipped gradient step with a Robbins-Monro
//      rate eta / 10 / (1 + t / (d m)).
// predict_one(x) computes z for x and changes nothing.
//
// Bad input: non-finite features read as 0; a non-finite target still
// steps W on the reconstruction residual but trains nothing else; a weight
// that is not finite and > 0 or a wrong width: the sample is not seen at
// all. The first `warmup` samples train no readout. Cost per sample
// O(d m + d^2) plus the RLS O(K (d+m+1)^2) for K heads (1 for regression,
// one per class). No allocation after the first sample. Thread safety: one
// owner.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

struct TttLearnerConfig {
  std::size_t d_model = 32;    // width d of the fast-weight layer
  double eta = 0.01;           // fast-weight step size (before noise scaling)
  double alpha = 0.005;        // fast-weight decay per step: W <- (1 - alpha) W - ...
  double momentum = 0.0;       // Titans momentum on the fast-weight step; 0 = plain SGD
  std::size_t batch_size = 16; // gradients averaged over this many samples; 1 = a step per sample
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;     // samples before the readout trains
};

class TttCore;  // internal (src/nn/ttt/ttt_core.hpp): the learner's machinery

class TttLearner final : public BoxedLearner<TttCore, TttLearnerConfig> {
 public:
  using Config = TttLearnerConfig;
  static constexpr std::string_view kName = "ttt";
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, then validate().
  static Result<std::unique_ptr<TttLearner>> make(const Config& config, const LearnerContext& context);
  // The cross-field rules (also run on decoding and for the first sample's width).
  static Status validate(const Config& config, const LearnerContext& context);

  TttLearner() = default;
  TttLearner(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
