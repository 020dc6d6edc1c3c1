// KolmogorovArnoldNetwork ("kan"): a streaming Kolmogorov-Arnold network
// (Liu et al. 2024, "KAN: Kolmogorov-Arnold Networks"). Every edge i -> j of a layer
// carries its own learnable univariate function
//   phi_ji(x) = w_b * SiLU(x) + w_s * sum_b c_b B_b(x),
// a SiLU base plus a clamped uniform B-spline of order k with g intervals on
// [-1, 1] (g + k coefficients), and a node sums its incoming edges. The
// network is [n_features, hidden x hidden_layers, outputs], trained one sample
// at a time by momentum SGD: for regression one output and the squared error
// of the standardised target, for classification one logit per class and the
// softmax cross-entropy. Only the k + 1 coefficients whose basis functions are
// non-zero at the input move per edge and step.
//
// Per sample:
//   - inputs are standardised by running Welford statistics and mapped into
//     the grid by tanh(z / 2) (a non-finite feature is missing: it reads as
//     its running mean, 0 after standardising, and leaves the statistics
//     alone);
//   - regression: the target is standardised by its own Welford statistics;
//     the prediction is the network output mapped back to the target's scale;
//   - classification: probabilities are the softmax of the outputs, and the
//     output gradient is p - onehot(y);
//   - the step is lr * weight, scaled by clamp(e^2 / rolling e^2, 0.5, 2)
//     after 500 trained samples (large surprises learn faster; e^2 is the
//     squared error in regression, |p - onehot(y)|^2 in classification);
//   - optional coefficient decay after 2000 samples, and a guard that zeroes
//     non-finite coefficients and halves the others when one exceeds 1e6.
// The first sample only seeds the statistics (standardising needs two
// samples), so the network never trains on a placeholder input; until a
// sample is trained on, regression predicts the target mean and
// classification uniform probabilities.
//
// Settings: KanConfig, through its field table (config_fields()); task,
// classes, width and seed come from the LearnerContext. The width is fixed
// by the context or by the first sample; other widths are refused.
//
// Cost per sample O(E * k) for E edges (forward and backward touch k + 1
// coefficients per edge), plus O(P) for the decay when it is on. Nothing is
// allocated after the width is known. Thread safety: one owner.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/boxed_learner.hpp"

namespace irithyll::nn {

struct KanConfig {
  std::size_t hidden = 5;             // nodes per hidden layer
  std::size_t hidden_layers = 1;      // number of hidden layers
  std::size_t spline_order = 3;       // k (3 = cubic)
  std::size_t grid_size = 8;          // g intervals on [-1, 1]
  double lr = 0.1;                    // SGD step
  double momentum = 0.0;              // heavy-ball momentum of the coefficients
  double coefficient_decay = 0.0;     // shrinkage of all coefficients per sample (0 = off)
};

class KanCore;  // internal (src/nn/kan/kan_core.hpp): the learner's machinery

class KolmogorovArnoldNetwork final : public BoxedLearner<KanCore, KanConfig> {
 public:
  using Config = KanConfig;
  static constexpr std::string_view kName = "kan";
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, 2..1024 classes for
  // classification, at most kMaxEdges edges for a known width.
  static Result<std::unique_ptr<KolmogorovArnoldNetwork>> make(const Config& config, const LearnerContext& context);
  // make()'s checks after the table's ranges (also run on decoding).
  static Status validate(const Config& config, const LearnerContext& context);
  // Edges of the network for n_features inputs and n_outputs outputs (0
  // while the width is unknown).
  static std::size_t n_edges(const Config& config, std::size_t n_features, std::size_t n_outputs) noexcept;
  // Outputs for a task: 1 for regression, one logit per class otherwise.
  static std::size_t n_outputs(const LearnerContext& context) noexcept;
  static constexpr std::size_t kMaxEdges = std::size_t{1} << 20;

  KolmogorovArnoldNetwork() = default;
  KolmogorovArnoldNetwork(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
