// AttentionLearner ("attention"): a streaming learner built from an input
// projection, one MultiHeadAttention layer (any mode) used as a fixed random
// recurrent feature extractor, and an RLS readout (one per class with one-hot
// targets for classification, see readout/rls_head.hpp) -- the echo-state
// recipe (Jaeger 2001) with a linear-attention memory instead of a reservoir.
//
// Per sample x_t: z = clamp(standardise(x_t), +-5) (Welford, updated only by
// learn_one), u = W_in [z, 1] (W_in ~ N(0, 1/(n_features+1)), with a bias column), o_t = layer(u) read
// after the update (the layer's own semantics), tanh(o_t) for the modes whose
// output is not already tanh-bounded. Readout features: [z, o_t, 1].
// predict_one runs the same step on a scratch copy of the state (peek), so
// prediction never changes the model and is exactly what learn_one trains on.
//
// Bad input: non-finite features are imputed as 0 (the standardiser skips
// them); a non-finite target or weight <= 0 still advances the memory but
// skips the readout; other weights count as 1 (RLS has no per-sample weight);
// a sample of the wrong width is ignored. Cost per sample: two layer steps
// (predict + learn) and O(K F^2) RLS for F = n_features + d_model + 1.
// No allocation per sample. One owner.
#pragma once

#include <vector>

#include "irithyll/nn/attention/multi_head.hpp"
#include "irithyll/nn/primitives.hpp"
#include "irithyll/readout/readout_learner.hpp"

namespace irithyll::nn {

struct AttentionLearnerConfig {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification: >= 2
  std::size_t n_features = 0;  // 0 = taken from the first sample
  // Layer shape and mode; attention.init_scale <= 0 means 1/sqrt(d_model),
  // which keeps projections O(1) for standardised inputs.
  AttentionConfig attention{32, 4, 8, 8, AttentionMode{AttentionKind::kGLA}, 42, 0.0};
  // Forgetting 0.9999: at 0.998 the readout's P winds up along the slowly
  // varying directions of real streams (elec: accuracy 0.59 at 0.998, 0.78 at 0.9999).
  RlsConfig rls{0.9999, 100.0};
};

class AttentionLearner final : public RlsReadoutLearner<AttentionLearner, AttentionLearnerConfig> {
 public:
  static constexpr std::string_view kName = "attention";
  static constexpr bool kProbaNeedsClassCount = true;
  static constexpr double kInputClamp = 5.0;

  AttentionLearner() = default;
  explicit AttentionLearner(const AttentionLearnerConfig& config);  // throws std::invalid_argument
  static Status validate(const AttentionLearnerConfig& config);

  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const MultiHeadAttention& layer() const noexcept { return layer_; }

 private:
  friend RlsReadoutLearner<AttentionLearner, AttentionLearnerConfig>;

  void build(std::size_t n_features);
  // Fills features_ for x (built, right width); commits the layer step when learn is true.
  void featurize(std::span<const double> x, bool learn) const;
  bool try_build(std::size_t n_features);
  void advance(std::span<const double> x, double y, double weight);
  void peek_features(std::span<const double> x) const { featurize(x, false); }
  void restart();
  std::size_t extractor_memory_bytes() const;

  std::vector<double> w_in_;
  WelfordNormalizer scaler_;
  mutable MultiHeadAttention layer_;  // mutated only by learn_one (featurize with learn = true)
  mutable std::vector<double> z_, u_;
};

}  // namespace irithyll::nn
