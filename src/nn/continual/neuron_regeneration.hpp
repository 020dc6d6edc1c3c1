// NeuronRegeneration: continual backprop in the style of Dohare et al. 2024
// ("Loss of plasticity in deep continual learning", Nature): parameters come
// in groups (a neuron's fan-in, an SSM group, an attention head); a group's
// utility is an EWMA of a per-group usefulness score, and every `interval`
// updates the ceil(fraction * groups) (at least 1) least useful groups are
// re-initialised and their utility reset to the mean utility, so they get a
// fair chance before being judged again.
//
// Two ways to drive it:
//  - as a ContinualStrategy on a flat parameter vector: the score is the
//    group's mean |gradient| (pre_update) and post_update redraws the chosen
//    groups' parameters from U(-0.01, 0.01);
//  - through a model's own re-initialisation hook (sLSTM unit, Mamba-3 group,
//    BD block, attention head): the owner feeds scores directly with
//    observe_utility (Dohare's contribution utility |readout weight| x
//    |activation|), calls step() once per update, and when it returns true
//    re-initialises the groups in last_regenerated() with rng().
// With `on_drift`, a Drift signal also triggers a regeneration at the next
// update (on_drift itself cannot touch the parameters).
//
// Selection is std::nth_element on a preallocated index array, O(groups)
// expected, where the Rust library sorted (13 ms per regeneration at 10,000).
// Cost O(n) per update; memory n/group_size doubles + indices. No allocation
// after construction. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/continual/continual_strategy.hpp"

namespace irithyll::nn {

struct NeuronRegenerationConfig {
  std::size_t group_size = 1;     // parameters per group (>= 1; a last partial group is allowed)
  double fraction = 0.01;         // share of groups replaced per regeneration, in (0, 1]
  std::uint64_t interval = 1000;  // updates between regenerations (>= 1)
  double utility_alpha = 0.99;    // EWMA decay in [0, 1)
  std::uint64_t seed = 42;
  bool on_drift = false;          // also regenerate at the update after a Drift signal
};

class NeuronRegeneration final : public ContinualStrategy {
 public:
  NeuronRegeneration(std::size_t n_params, NeuronRegenerationConfig config = {});

  std::string_view name() const override { return "regeneration"; }
  std::size_t n_params() const noexcept override { return n_params_; }
  void pre_update(std::span<const double> params, std::span<double> grads) noexcept override;
  // Counts the update; at each interval re-initialises the least useful groups.
  void post_update(std::span<double> params) noexcept override;
  void on_drift(std::span<const double>, DriftSignal signal) noexcept override;
  void reset() noexcept override;
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in) override;

  // EWMA-updates every group's utility with score[g]. A non-finite score counts as 0.
  // REQUIRES: score.size() == n_groups().
  void observe_utility(std::span<const double> score) noexcept;
  // Counts one update; at the interval (or after a Drift with on_drift) picks
  // the least useful groups, marks them and resets their utility to the mean,
  // without touching any parameter. Returns whether it picked.
  bool step() noexcept;
  // Regenerates now, regardless of the interval.
  void force_regenerate(std::span<double> params) noexcept;

  bool was_regenerated(std::size_t group) const noexcept { return regenerated_[group] != 0; }
  // The groups picked by the last regeneration (in no particular order).
  std::span<const std::uint32_t> last_regenerated() const noexcept {
    return std::span<const std::uint32_t>(order_).first(n_last_);
  }
  std::size_t n_groups() const noexcept { return utility_.size(); }
  std::span<const double> utility() const noexcept { return utility_; }
  std::uint64_t n_updates() const noexcept { return updates_; }
  std::uint64_t n_regenerations() const noexcept { return n_regenerations_; }
  // The generator new weights are drawn from (also by model hooks), so that a
  // checkpoint resumes the same draws.
  Xorshift64& rng() noexcept { return rng_; }
  const NeuronRegenerationConfig& config() const noexcept { return config_; }

 private:
  void select() noexcept;

  NeuronRegenerationConfig config_;
  std::size_t n_params_;
  std::vector<double> utility_;
  std::vector<std::uint8_t> regenerated_;
  std::vector<std::uint32_t> order_;  // selection scratch; its first n_last_ entries are the last picks
  std::size_t n_last_ = 0;
  std::uint64_t updates_ = 0, n_regenerations_ = 0;
  bool drift_pending_ = false;
  Xorshift64 rng_;
};

}  // namespace irithyll::nn
