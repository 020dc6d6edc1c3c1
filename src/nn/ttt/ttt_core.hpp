// TttCore: the whole of TttLearner, which holds it by pointer
// (include/irithyll/nn/ttt/ttt_learner.hpp describes the model). Internal:
// src/, tests and benches use it.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/nn/ttt/ttt_learner.hpp"
#include "nn/ttt/fast_weights.hpp"
#include "readout/readout_core.hpp"

namespace irithyll::nn {

class TttCore final : public RlsReadoutCore<TttCore, TttLearnerConfig> {
 public:
  static constexpr std::string_view kName = TttLearner::kName;
  static constexpr bool kProbaNeedsClassCount = false;
  static constexpr std::uint32_t kRecordVersion = 1;
  // The short-run error RMS above this multiple of the long-run residual RMS clears W.
  static constexpr double kSurgeRatio = 1.5;

  TttCore() = default;
  TttCore(const TttLearnerConfig& config, const LearnerContext& context);

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const FastWeightLayer& layer() const noexcept { return layer_; }
  const RlsHead& readout() const noexcept { return head_; }
  // The current projection learning rate and the number of surges that cleared W.
  double projection_lr() const noexcept { return proj_lr_; }
  std::uint64_t n_surge_resets() const noexcept { return n_surges_; }

 private:
  friend RlsReadoutCore<TttCore, TttLearnerConfig>;

  Status build(std::size_t n_features);
  void advance(std::span<const double> x, double y, double weight);
  void peek_features(std::span<const double> x) const;
  void update_readout(double y);
  void encode_extractor(ByteWriter& out) const;
  Status decode_extractor(ByteReader& in);
  std::size_t extractor_memory_bytes() const;
  // No continual-learning guard: the hook after the readout's decode checks
  // the decoded readout instead (check_readout).
  void encode_continual(ByteWriter&) const {}
  Status decode_continual(ByteReader&) { return check_readout(); }
  // A decoded readout must be one learning could have produced: finite
  // weights of sane size, P's diagonal in [0, n delta] (its trace is capped
  // at n delta), a finite residual variance >= 0. Hostile values (weights of
  // 1e214) would otherwise turn the next update into inf - inf = NaN.
  Status check_readout() const;

  // Error of the readout on the current features for target y (regression:
  // y - prediction; classification: 1 - the true class's score) and that
  // head's weights.
  double readout_error(double y, std::span<const double>& weights) const noexcept;
  // Mean residual variance over the readout's heads.
  double readout_noise() const noexcept;

  FastWeightLayer layer_;
  std::vector<double> xin_;   // sanitised input
  double noise_avg_ = 0.0;    // long-run residual RMS (EWMA 0.001 of sqrt(noise variance))
  double surge_ms_ = 0.0;     // short-run mean squared error (EWMA 0.1)
  double proj_lr_ = 0.0;      // current projection learning rate
  double tau_ = 1.0;          // Robbins-Monro horizon d * m
  std::uint64_t proj_steps_ = 0;
  std::uint64_t n_surges_ = 0;
  bool in_surge_ = false;  // the short-run error is above the surge threshold
};

}  // namespace irithyll::nn
