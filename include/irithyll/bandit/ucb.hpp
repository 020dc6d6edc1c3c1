// UCB: optimism in the face of uncertainty (Auer, Cesa-Bianchi & Fischer
// 2002, "Finite-time analysis of the multiarmed bandit problem").
//
// Every arm is pulled once first (in index order); then the arm with the
// largest index, ties to the lowest arm:
//   ucb1:  Q_a + c sqrt(2 ln t / N_a)                                 (UCB1)
//   tuned: Q_a + c sqrt((ln t / N_a) min(1/4, V_a)),                  (UCB-Tuned)
//          V_a = mean(r^2) - Q_a^2 + sqrt(2 ln t / N_a)
// t = total pulls, N_a = pulls of arm a. UCB1's regret is O(sum_a ln T /
// gap_a) for rewards in [0, 1]; c scales the bonus for rewards on another
// scale (c = sigma for sigma-sub-Gaussian rewards). UCB-Tuned's 1/4 cap
// assumes rewards in [0, 1]. Deterministic: no random generator.
//
// Cost: O(n_arms) per select (one log, n_arms square roots), O(1) per update.
// Memory: 24 bytes per arm. Thread safety: one owner.
#pragma once

#include <span>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"

namespace irithyll {

struct UcbConfig {
  bool tuned = false;  // variant: ucb1 (false) or tuned (true)
  double c = 1.0;      // bonus scale, > 0 (1 for rewards in [0, 1])
  static std::span<const ConfigField<UcbConfig>> fields();
};

class Ucb final : public BanditPolicy {
 public:
  static constexpr std::string_view kName = "ucb";
  Ucb(std::size_t n_arms, const UcbConfig& config);

  std::string_view name() const noexcept override { return kName; }
  void reset() noexcept override;
  ModelSettings settings() const override;
  const UcbConfig& config() const noexcept { return config_; }
  // The index of arm a now (+infinity for an arm never pulled).
  double arm_index(std::size_t arm) const noexcept;

 private:
  std::size_t select_checked(std::span<const double> context) noexcept override;
  void update_checked(std::size_t arm, double reward, std::span<const double>) noexcept override;
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in, const ModelSettings& settings) override;

  UcbConfig config_;
  std::vector<double> mean_sq_;  // running mean of r^2 per arm (UCB-Tuned)
};

}  // namespace irithyll
