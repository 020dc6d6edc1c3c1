// Off-policy evaluation of a bandit policy on logged data (arm pulled by the
// logging policy, its reward, and the probability the logger gave that arm).
//
// For each logged event the policy picks an arm for the event's context. When
// it agrees with the logged arm the event is "matched": the policy learns
// from it (update), as in the replay method of Li, Chu, Langford & Wang 2011
// ("Unbiased offline evaluation of contextual-bandit-based news article
// recommendation algorithms", Algorithm 3); unmatched events are skipped.
// Two estimates of the policy's mean reward per step are reported:
//   ips    = (1/N) sum_t 1[pi(x_t) = a_t] r_t / p_t        (inverse propensity
//            scoring, Horvitz & Thompson 1952: unbiased for any logger with
//            p_t > 0 wherever the policy can go);
//   replay = sum_t 1[match] r_t / #matches                 (Li et al. 2011:
//            unbiased when the logger chose arms uniformly at random).
// With a uniform logger (p_t = 1/K) the two agree in expectation.
//
// Cost: one select (and, when matched, one update) per event. Thread safety:
// one owner.
#pragma once

#include <cstdint>
#include <span>

#include "irithyll/bandit/bandit_policy.hpp"

namespace irithyll {

class ReplayEvaluator {
 public:
  // Scores one logged event and lets the policy learn it when matched.
  // Refuses an arm out of range, a non-finite reward or a propensity
  // outside (0, 1], leaving the estimates unchanged.
  Status add(BanditPolicy& policy, std::size_t logged_arm, double reward, double propensity,
             std::span<const double> context = {});

  std::uint64_t events() const noexcept { return events_; }
  std::uint64_t matched() const noexcept { return matched_; }
  double ips() const noexcept { return events_ == 0 ? 0.0 : ips_sum_ / static_cast<double>(events_); }
  double replay() const noexcept { return matched_ == 0 ? 0.0 : reward_sum_ / static_cast<double>(matched_); }
  // The logging policy's own mean reward over all events, for comparison.
  double logged_mean() const noexcept { return events_ == 0 ? 0.0 : logged_sum_ / static_cast<double>(events_); }

 private:
  std::uint64_t events_ = 0, matched_ = 0;
  double ips_sum_ = 0.0, reward_sum_ = 0.0, logged_sum_ = 0.0;
};

}  // namespace irithyll
