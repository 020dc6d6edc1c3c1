// SGBT settings changed while the committee learns, and the five tuning
// signals read from its trees (tunable.hpp). Nothing here is tracked per
// sample: the signals are computed on demand from the leaves' sample counts,
// hessian sums and values.
#include <algorithm>
#include <cmath>

#include "irithyll/ensemble/sgbt.hpp"
#include "ensemble/tree_slot.hpp"

namespace irithyll {

void SGBT::set_tree_limits(double lambda, std::uint32_t max_depth) {
  sync();
  config_.tree.lambda = lambda;
  config_.tree.max_depth = max_depth;
  for (TreeSlot& slot : slots_) slot.set_limits(lambda, max_depth);
}

void SGBT::set_n_steps(std::uint32_t n_steps) {
  // The pipeline's stages split the steps by count, so it restarts on the
  // new list at the next sample (as after set_threads).
  pipeline_.reset();
  skip_counts_.clear();
  sequential_run_ = 0;
  config_.n_steps = n_steps;
  if (n_steps < slots_.size()) {
    slots_.erase(slots_.begin() + n_steps, slots_.end());
  } else {
    slots_.reserve(n_steps);
    while (slots_.size() < n_steps) add_slot();
  }
  if (config_.prunes()) {
    // A new step starts as a fresh one does: no contribution, no idle run.
    contrib_ewma_.resize(n_steps, 0.0);
    idle_run_.resize(n_steps, 0);
    contrib_.resize(n_steps, 0.0);
    prune_scratch_.reserve(n_steps);
  }
}

void SGBT::set_prune_half_life(double half_life) {
  sync();
  const bool tracked = config_.prunes();
  config_.prune_half_life = half_life;
  if (config_.prunes() != tracked) track_contributions(config_.prunes());
  plain_ = !config_.per_sample_options();
}

bool SGBT::check_proactive_prune() {
  if (!config_.prunes()) return false;
  sync();
  const std::uint64_t interval = config_.proactive_prune_interval;
  const double time_constant = std::ceil(1.0 / config_.prune_alpha());
  return prune_weakest(interval > 0 ? interval / 2 : static_cast<std::uint64_t>(time_constant));
}

ConfigDiagnostics SGBT::config_diagnostics() const {
  sync();
  ConfigDiagnostics d;
  const double lr = config_.learning_rate;
  double evidence = 0.0, shrink = 0.0, at_limit = 0.0, variance = 0.0;
  // Per step, the leaves' contribution lr * v weighted by their sample counts.
  std::vector<double> mean_contribution;
  mean_contribution.reserve(slots_.size());
  for (const TreeSlot& slot : slots_) {
    const GradientTree& t = slot.active();
    const double lambda = t.config().lambda;
    const std::uint32_t ceiling = t.config().depth_ceiling();
    double n_tree = 0.0, contribution = 0.0, tree_variance = 0.0;
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n) {
      if (!t.is_leaf(n)) continue;
      d.effective_dof += 1.0;
      const double count = static_cast<double>(t.node_count(n));
      if (count <= 0.0) continue;
      const double h = std::max(t.node_hessian(n), 0.0);
      const double denominator = h + lambda;
      n_tree += count;
      contribution += count * lr * t.node_value(n);
      if (denominator > 0.0) {
        shrink += count * lambda / denominator;
        tree_variance += count * lr * lr / denominator;
      }
      if (t.node_depth(n) >= ceiling) at_limit += count;
    }
    if (n_tree > 0.0) {
      evidence += n_tree;
      variance += tree_variance / n_tree;
      mean_contribution.push_back(contribution / n_tree);
    }
  }
  if (evidence > 0.0) {
    d.regularization_sensitivity = shrink / evidence;
    d.depth_sufficiency = at_limit / evidence;
    d.uncertainty = std::sqrt(variance);
  }
  // Lag-1 correlation of the steps' mean contributions along the committee:
  // with a small learning rate each step leaves most of the residual to the
  // next, which fits it again in the same direction (positive); steps that
  // overshoot correct each other (negative).
  double lagged = 0.0, power = 0.0;
  for (std::size_t s = 0; s + 1 < mean_contribution.size(); ++s) {
    lagged += mean_contribution[s] * mean_contribution[s + 1];
    power += mean_contribution[s] * mean_contribution[s];
  }
  if (power > 0.0 && std::isfinite(lagged / power)) d.residual_alignment = std::clamp(lagged / power, -1.0, 1.0);
  return d;
}

}  // namespace irithyll
