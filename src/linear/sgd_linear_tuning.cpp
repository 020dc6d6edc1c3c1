// SgdLinear's Tunable hooks: the settings a tuner may move while the model
// learns (both learning rates and l2), and the signals it reads first.
#include <algorithm>
#include <cmath>
#include <string>

#include "irithyll/linear/sgd_linear.hpp"

namespace irithyll {

ConfigDiagnostics SgdLinear::config_diagnostics() const {
  ConfigDiagnostics d;
  const double curvature = loss_ == Loss::kSquared ? 2.0 : 0.25;
  d.regularization_sensitivity = config_.l2 / (config_.l2 + curvature);
  // coefficients(k) ends with output k's intercept, which L1 never touches.
  std::size_t zeros = 0, total = 0;
  for (std::size_t k = 0; k < n_outputs_linear(); ++k) {
    const std::span<const double> w = coefficients(k);
    for (std::size_t j = 0; j < w.size(); ++j) {
      d.effective_dof += w[j] != 0.0;
      if (j + 1 == w.size()) continue;
      zeros += w[j] == 0.0;
      ++total;
    }
  }
  if (config_.l1 > 0.0 && total > 0)
    d.regularization_sensitivity =
        std::max(d.regularization_sensitivity, static_cast<double>(zeros) / static_cast<double>(total));
  d.uncertainty = 1.0 / (1.0 + static_cast<double>(n_samples_seen()));
  return d;
}

Status SgdLinear::adjust_config(double lr_multiplier, double lambda_delta) {
  IRITHYLL_RETURN_IF_ERROR(check_adjustment(name(), lr_multiplier, lambda_delta));
  // The settings' ranges: learning rates in (0, 100], l2 in [0, 100]. An
  // intercept rate of 0 (a frozen intercept) stays 0.
  config_.learning_rate = std::clamp(config_.learning_rate * lr_multiplier, 1e-12, 100.0);
  config_.intercept_lr = std::min(config_.intercept_lr * lr_multiplier, 100.0);
  config_.l2 = std::clamp(config_.l2 + lambda_delta, 0.0, 100.0);
  return Status::ok();
}

Status SgdLinear::apply_structural_change(int depth_delta, int steps_delta) {
  if (depth_delta == 0 && steps_delta == 0) return Status::ok();
  return Status::invalid_argument(std::string(name()) +
                                  ": a linear model has no depth or steps to change (adjust its learning rate or l2)");
}

Status SgdLinear::set_prune_half_life(double half_life) {
  IRITHYLL_RETURN_IF_ERROR(check_prune_half_life(name(), half_life));
  if (half_life == 0.0) return Status::ok();
  return Status::invalid_argument(std::string(name()) + ": a linear model has no parts to prune");
}

Result<bool> SgdLinear::check_proactive_prune() { return false; }

}  // namespace irithyll
