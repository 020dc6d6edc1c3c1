// DiscountedThompson: Beta-Bernoulli Thompson sampling that forgets, for
// drifting reward rates (Raj & Kalyani 2017, "Taming non-stationary bandits:
// a Bayesian approach", Algorithm 2, discounted Thompson sampling).
//
// On every update all arms' discounted counts shrink by gamma, then the
// pulled arm's grow by the reward:
//   S_i <- gamma S_i, F_i <- gamma F_i for every arm i;
//   S_a += r, F_a += 1 - r;
// and select draws theta_i ~ Beta(alpha + S_i, beta + F_i). The effective
// memory is about 1/(1 - gamma) pulls; gamma = 1 is plain Thompson sampling.
// Rewards must lie in [0, 1] (refused outside, not clamped).
//
// Cost: O(n_arms) per select (two gamma draws per arm) and per update.
// Memory: 24 bytes per arm. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {

struct DiscountedThompsonConfig {
  double discount = 0.99;   // gamma in (0, 1]; memory about 1/(1-gamma) pulls
  double alpha = 1.0;       // Beta prior successes, > 0
  double beta = 1.0;        // Beta prior failures, > 0
  std::uint64_t seed = 42;  // random generator seed
  static std::span<const ConfigField<DiscountedThompsonConfig>> fields();
};

class DiscountedThompson final : public BanditPolicy {
 public:
  static constexpr std::string_view kName = "discounted-thompson";
  DiscountedThompson(std::size_t n_arms, const DiscountedThompsonConfig& config);

  std::string_view name() const noexcept override { return kName; }
  void reset() noexcept override;
  ModelSettings settings() const override;
  const DiscountedThompsonConfig& config() const noexcept { return config_; }
  double arm_alpha(std::size_t a) const noexcept { return config_.alpha + success_[a]; }
  double arm_beta(std::size_t a) const noexcept { return config_.beta + failure_[a]; }

 private:
  std::size_t select_checked(std::span<const double> context) noexcept override;
  void update_checked(std::size_t arm, double reward, std::span<const double>) noexcept override;
  Status check_reward(double reward) const override;
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in, const ModelSettings& settings) override;

  DiscountedThompsonConfig config_;
  std::vector<double> success_, failure_;  // discounted S_i, F_i
  Xorshift64 rng_;
};

}  // namespace irithyll
