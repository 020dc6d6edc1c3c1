// EpsilonGreedy: explore a uniformly random arm with probability eps_t,
// otherwise pull the arm with the best running mean (ties to the lowest arm).
// Sutton & Barto, Reinforcement Learning (2nd ed.), section 2.2.
//
// eps_t = epsilon * exp(-decay * t), t = pulls so far (River's schedule; a
// decay of 0 keeps epsilon fixed). With a fixed epsilon the regret grows
// linearly, about epsilon * mean gap per step: the price of never stopping
// exploring, which is also what lets it follow a drifting best arm.
//
// Cost: O(n_arms) per select, O(1) per update. Memory: 16 bytes per arm.
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>

#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {

struct EpsilonGreedyConfig {
  double epsilon = 0.1;    // exploration probability at t = 0, [0, 1]
  double decay = 0.0;      // exp decay rate per pull, >= 0 (0 = fixed epsilon)
  std::uint64_t seed = 42; // random generator seed
  static std::span<const ConfigField<EpsilonGreedyConfig>> fields();
};

class EpsilonGreedy final : public BanditPolicy {
 public:
  static constexpr std::string_view kName = "epsilon-greedy";
  // REQUIRES: n_arms >= 1 and a config that passed its field table.
  EpsilonGreedy(std::size_t n_arms, const EpsilonGreedyConfig& config);

  std::string_view name() const noexcept override { return kName; }
  void reset() noexcept override;
  ModelSettings settings() const override;
  const EpsilonGreedyConfig& config() const noexcept { return config_; }
  double current_epsilon() const noexcept;

 private:
  std::size_t select_checked(std::span<const double> context) noexcept override;
  void update_checked(std::size_t, double, std::span<const double>) noexcept override {}
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in, const ModelSettings& settings) override;

  EpsilonGreedyConfig config_;
  Xorshift64 rng_;
};

}  // namespace irithyll
