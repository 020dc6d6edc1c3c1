// Simulated arms for bandit policies: Bernoulli or unit-variance Gaussian
// arms with fixed means, and a run that reports the cumulative reward and
// the cumulative (pseudo-)regret, sum_t (mu* - mu_{a_t}), which depends only
// on the arms pulled, not on the reward noise.
//
// Spec text: "bernoulli:0.1,0.2,0.5" (means in [0, 1]) or
// "gaussian:0,0.5,1" (any finite means; noise N(0, 1)).
//
// Cost: one select and one update per step. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {

struct SimulatedArms {
  bool gaussian = false;
  std::vector<double> means;
  double best_mean() const;
  // One reward of arm a.
  double draw(std::size_t arm, Xorshift64& rng) const;
};

Result<SimulatedArms> parse_simulated_arms(std::string_view spec);

struct SimulationResult {
  double cumulative_reward = 0.0;
  double cumulative_regret = 0.0;
  std::vector<std::uint64_t> pulls;  // per arm
  // Cumulative regret after step t (1-based) for every t that is a multiple
  // of record_every (and the last step); empty when record_every is 0.
  std::vector<std::uint64_t> curve_steps;
  std::vector<double> curve_regret;
};

// Runs `steps` rounds of select/update; rewards drawn from a generator seeded
// `seed` (independent of the policy's own seed).
Result<SimulationResult> simulate_bandit(BanditPolicy& policy, const SimulatedArms& arms, std::uint64_t steps,
                                         std::uint64_t seed, std::uint64_t record_every = 0);

}  // namespace irithyll
