// SGBTLearner's Tunable hooks: every committee takes the same settings, and
// the learner's config (which its checkpoint writes by name) follows them.
#include <algorithm>
#include <cmath>
#include <string>

#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {

ConfigDiagnostics SGBTLearner::config_diagnostics() const {
  ConfigDiagnostics sum;
  for (const SGBT& c : committees_) {
    const ConfigDiagnostics d = c.config_diagnostics();
    sum.residual_alignment += d.residual_alignment;
    sum.regularization_sensitivity += d.regularization_sensitivity;
    sum.depth_sufficiency += d.depth_sufficiency;
    sum.effective_dof += d.effective_dof;
    sum.uncertainty += d.uncertainty;
  }
  const double k = committees_.empty() ? 1.0 : static_cast<double>(committees_.size());
  sum.residual_alignment /= k;
  sum.regularization_sensitivity /= k;
  sum.depth_sufficiency /= k;
  sum.uncertainty /= k;
  return sum;
}

Status SGBTLearner::adjust_config(double lr_multiplier, double lambda_delta) {
  IRITHYLL_RETURN_IF_ERROR(check_adjustment(kName, lr_multiplier, lambda_delta));
  // The learning rate stays in its setting's range (0, 1]; lambda never goes
  // below 0 (a negative L2 term would reward large leaf weights).
  const double lr = std::clamp(config_.learning_rate * lr_multiplier, 1e-12, 1.0);
  const double lambda = std::max(0.0, config_.tree.lambda + lambda_delta);
  set_learning_rate(lr);
  config_.tree.lambda = lambda;
  for (SGBT& c : committees_) c.set_tree_limits(lambda, config_.tree.max_depth);
  return Status::ok();
}

Status SGBTLearner::apply_structural_change(int depth_delta, int steps_delta) {
  const long long depth = std::clamp<long long>(static_cast<long long>(config_.tree.max_depth) + depth_delta, 1,
                                                GradientTreeConfig::kMaxDepth);
  const long long steps = std::clamp<long long>(static_cast<long long>(config_.n_steps) + steps_delta, 1, 10000);
  config_.tree.max_depth = static_cast<std::uint32_t>(depth);
  config_.n_steps = static_cast<std::uint32_t>(steps);
  for (SGBT& c : committees_) {
    c.set_tree_limits(config_.tree.lambda, config_.tree.max_depth);
    c.set_n_steps(config_.n_steps);
  }
  return Status::ok();
}

Status SGBTLearner::set_prune_half_life(double half_life) {
  IRITHYLL_RETURN_IF_ERROR(check_prune_half_life(kName, half_life));
  config_.prune_half_life = half_life;
  for (SGBT& c : committees_) c.set_prune_half_life(half_life);
  return Status::ok();
}

Result<bool> SGBTLearner::check_proactive_prune() {
  bool any = false;
  for (SGBT& c : committees_) any = c.check_proactive_prune() || any;
  return any;
}

}  // namespace irithyll
