// MgradeLearner ("mgrade"): mGRADE (minimal gated recurrence with delay
// embeddings, 2025) as a streaming learner: x -> DelayConv1d (K taps per
// channel) -> MinGruCell, fixed random weights, with an RLS readout
// (readout/rls_head.hpp) in place of backpropagation.
//
// Features for sample t: [h_t (d_hidden), conv_t (d_in), x_t, 1]. predict_one
// uses the read-only forward_predict of both stages. Bad input: non-finite
// features imputed as 0; non-finite target or weight <= 0 advance the state but
// skip the readout; wrong width is ignored; the first `warmup` samples only
// fill the state. Cost per sample O(d_in K + d_h (2 d_in + d_h)) plus the RLS
// O(K F^2). No allocation after the first sample. Thread safety: one owner.
//
// Continual learning (config.continual, default off): regen re-initialises
// the least useful hidden units through MinGruCell::reinitialize_unit and
// resets their readout inputs (nn/continual/readout_regeneration.hpp); one
// group per unit. ewc and mask need a gradient and are rejected.
#pragma once

#include "irithyll/nn/continual/readout_learner_fields.hpp"
#include "irithyll/nn/continual/unit_regen_learner.hpp"
#include "irithyll/nn/rnn/delay_conv.hpp"
#include "irithyll/nn/rnn/mingru.hpp"

namespace irithyll::nn {

struct MgradeLearnerConfig {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification: 2..1024
  std::size_t n_features = 0;  // 0 = from the first sample
  std::size_t d_hidden = 32;
  std::size_t taps = 4;  // delay-convolution taps per channel (1..256)
  RlsConfig rls{0.998, 100.0};
  std::size_t warmup = 10;
  std::uint64_t seed = 42;
  ContinualConfig continual;  // regen only
};

class MgradeLearner final : public UnitRegenLearner<MgradeLearner, MgradeLearnerConfig> {
 public:
  static constexpr std::string_view kName = "mgrade";
  static constexpr bool kProbaNeedsClassCount = false;

  MgradeLearner() = default;
  explicit MgradeLearner(const MgradeLearnerConfig& config);
  static Status validate(const MgradeLearnerConfig& config);

  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const MinGruCell& cell() const noexcept { return cell_; }
  const DelayConv1d& conv() const noexcept { return conv_; }

 private:
  friend RlsReadoutLearner<MgradeLearner, MgradeLearnerConfig>;
  friend UnitRegenLearner<MgradeLearner, MgradeLearnerConfig>;

  Status build(std::size_t n_features);
  template <bool kLearn>
  void featurize(std::span<const double> x) const;
  std::size_t extractor_memory_bytes() const;
  void encode_extractor(ByteWriter& out) const;
  Status decode_extractor(ByteReader& in);
  void reinitialize_unit(std::size_t j, Xorshift64& rng) { cell_.reinitialize_unit(j, rng); }

  DelayConv1d conv_;
  MinGruCell cell_;
};

}  // namespace irithyll::nn
