#include "irithyll/bandit/offline_eval.hpp"

#include <cmath>
#include <string>

namespace irithyll {

Status ReplayEvaluator::add(BanditPolicy& policy, std::size_t logged_arm, double reward, double propensity,
                            std::span<const double> context) {
  if (logged_arm >= policy.n_arms())
    return Status::invalid_argument("logged arm " + std::to_string(logged_arm) + " is out of range (" +
                                    std::to_string(policy.n_arms()) + " arms)");
  if (!std::isfinite(reward)) return Status::invalid_argument("logged reward is not finite");
  if (!(propensity > 0.0 && propensity <= 1.0))
    return Status::invalid_argument("propensity " + std::to_string(propensity) + " is outside (0, 1]");
  auto chosen = policy.select(context);
  if (!chosen) return chosen.status();
  if (*chosen == logged_arm) IRITHYLL_RETURN_IF_ERROR(policy.update(logged_arm, reward, context));
  ++events_;
  logged_sum_ += reward;
  if (*chosen == logged_arm) {
    ++matched_;
    reward_sum_ += reward;
    ips_sum_ += reward / propensity;
  }
  return Status::ok();
}

}  // namespace irithyll
