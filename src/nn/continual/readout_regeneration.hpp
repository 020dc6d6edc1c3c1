// ReadoutRegenerator: neuron regeneration (continual backprop, Dohare et al.
// 2024, Nature) for learners made of a fixed random feature extractor and an
// RLS readout (slstm, mamba v3/bd). Such an extractor has no gradient, so a
// unit's usefulness is Dohare's contribution utility: the mean over the
// readout features the unit produces of |activation| x sum_k |w_k| (w_k the
// readout weight of that feature in head k), EWMA'd by NeuronRegeneration.
// Every `interval` readout updates (and after a Drift of the loss watch when
// regen_on_drift) the least useful units are re-initialised through the
// model's own hook (reinitialize_unit / _group / _block / _head), and the
// readout forgets the features behind them (w = 0, P row and column back to
// delta e_i, RecursiveLeastSquares::reset_input) so it relearns them.
//
// The loss fed to the detector is the readout's prequential loss on the
// sample, taken before it learns: |y - y_hat| for regression, 0/1 error for
// classification.
//
// Cost per readout update O(K F) for the utilities (F features, K heads) on
// top of the readout's O(K F^2); a regeneration adds O(groups) selection and
// O(F) per regenerated group. No allocation after make(). One owner.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "nn/continual/loss_watch.hpp"
#include "nn/continual/neuron_regeneration.hpp"
#include "readout/rls_head.hpp"

namespace irithyll::nn {

class ReadoutRegenerator {
 public:
  static constexpr std::int32_t kNoGroup = -1;

  ReadoutRegenerator() = default;
  // feature_group[i]: the unit/group behind readout feature i, or kNoGroup
  // (raw inputs, bias). REQUIRES of the config: kind regen.
  static Result<ReadoutRegenerator> make(const ContinualConfig& config, std::size_t n_groups,
                                         std::vector<std::int32_t> feature_group);

  // Call with the features of the sample before the readout learns y.
  // Readout: RlsHead (readout/rls_head.hpp).
  template <class Readout>
  void observe(const Readout& head, std::span<const double> features, double y, Task task) noexcept {
    if (watch_.has_detector()) observe_prediction(head.predict(features), y, task);
  }
  // Call after the readout learned: scores the units, counts the update and,
  // when a regeneration is due, calls reinit(group, rng) for each picked
  // group and resets the readout inputs behind it. Returns how many groups
  // were regenerated.
  template <class Readout, class Reinit>
  std::size_t after_update(Readout& head, std::span<const double> features, Reinit&& reinit) noexcept {
    std::fill(score_.begin(), score_.end(), 0.0);
    for (std::size_t k = 0; k < head.n_heads(); ++k) add_scores(head.head(k).weights(), features);
    if (!finish_step()) return 0;
    for (const std::uint32_t g : regen_.last_regenerated()) {
      reinit(static_cast<std::size_t>(g), regen_.rng());
      for (std::size_t i = 0; i < feature_group_.size(); ++i)
        if (feature_group_[i] == static_cast<std::int32_t>(g)) head.reset_input(i);
    }
    return regen_.last_regenerated().size();
  }

  const NeuronRegeneration& regeneration() const noexcept { return regen_; }
  const LossWatch& watch() const noexcept { return watch_; }
  std::size_t memory_bytes() const noexcept;

  // State of the regeneration and the detector (the configuration is the owner's).
  void encode_state(ByteWriter& out) const;
  Status decode_state(ByteReader& in);

 private:
  void observe_prediction(double y_hat, double y, Task task) noexcept;
  // score_[g] += |w_i| |f_i| over the features i of group g, for one readout.
  void add_scores(std::span<const double> weights, std::span<const double> features) noexcept;
  // Averages the scores per group, feeds them to the regeneration, counts the update.
  bool finish_step() noexcept;

  NeuronRegeneration regen_{0};
  LossWatch watch_;
  std::vector<std::int32_t> feature_group_;
  std::vector<double> score_, inv_count_;
};

// One readout update, regenerating when `regen` holds a regenerator: the
// order (observe before learning, score after) is what after_update assumes.
template <class Readout, class Reinit>
void update_readout_with(std::optional<ReadoutRegenerator>& regen, Readout& head, std::span<const double> features,
                         double y, Task task, Reinit&& reinit) noexcept {
  if (regen) regen->observe(head, features, y, task);
  head.update(features, y);
  if (regen) regen->after_update(head, features, reinit);
}

// A learner's (re)build of its guard: `regen` becomes the regenerator of
// `feature_group` (see make) when the configuration asks for continual
// learning, and is left empty otherwise or when make refuses (its error is
// returned).
Status reset_regenerator(std::optional<ReadoutRegenerator>& regen, const ContinualConfig& config, std::size_t n_groups,
                         std::vector<std::int32_t> feature_group);

// For readouts whose features start with one entry per hidden unit (slstm,
// mgrade): unit j owns feature j, the rest (raw inputs, bias) belong to none.
Status reset_unit_regenerator(std::optional<ReadoutRegenerator>& regen, const ContinualConfig& config,
                              std::size_t n_features, std::size_t n_units);

}  // namespace irithyll::nn
