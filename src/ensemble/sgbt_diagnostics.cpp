#include <algorithm>
#include <cmath>

#include "irithyll/ensemble/sgbt.hpp"
#include "ensemble/tree_slot.hpp"

namespace irithyll {

SGBTDiagnostics SGBT::diagnostics() const {
  sync();
  SGBTDiagnostics d;
  d.n_samples = samples_seen_;
  d.n_steps = slots_.size();
  d.base_prediction = base_;
  d.soft_bandwidths.assign(bandwidth_.begin(), bandwidth_.end());
  d.trees.reserve(slots_.size());
  const double lr = config_.learning_rate;
  double depth_sum = 0.0, abs_sum = 0.0;
  for (const TreeSlot& slot : slots_) {
    const GradientTree& t = slot.active();
    SGBTTreeDiagnostics td;
    td.depth = t.depth();
    td.n_leaves = t.n_leaves();
    td.n_samples = t.n_samples_seen();
    td.replacements = slot.n_replacements();
    td.warnings = slot.n_warnings();
    td.has_alternate = slot.alternate() != nullptr;
    td.alternate_samples = td.has_alternate ? slot.alternate()->n_samples_seen() : 0;
    td.handoff_left = slot.handoff_left();
    double total = 0.0;
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n)
      if (t.is_leaf(n)) total += static_cast<double>(t.node_count(n));
    bool first = true;
    double wsum = 0.0, mean = 0.0, m2 = 0.0, abs_mean = 0.0;
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n) {
      if (!t.is_leaf(n)) continue;
      const double v = t.node_value(n);
      td.leaf_min = first ? v : std::min(td.leaf_min, v);
      td.leaf_max = first ? v : std::max(td.leaf_max, v);
      first = false;
      // West's weighted incremental mean and variance.
      const double w = total > 0.0 ? static_cast<double>(t.node_count(n)) : 1.0;
      if (w <= 0.0) continue;
      const double c = lr * v;
      wsum += w;
      const double delta = c - mean;
      mean += delta * w / wsum;
      m2 += w * delta * (c - mean);
      abs_mean += w / wsum * (std::abs(c) - abs_mean);
    }
    td.contribution_mean = mean;
    td.contribution_sd = wsum > 0.0 ? std::sqrt(std::max(0.0, m2 / wsum)) : 0.0;
    td.contribution_abs = abs_mean;
    d.n_leaves += td.n_leaves;
    d.n_trees += 1 + td.has_alternate;
    d.max_depth = std::max(d.max_depth, td.depth);
    d.replacements += td.replacements;
    d.warnings += td.warnings;
    d.alternates += td.has_alternate;
    d.handoffs += td.handoff_left > 0;
    depth_sum += td.depth;
    abs_sum += td.contribution_abs;
    d.trees.push_back(td);
  }
  if (!slots_.empty()) {
    d.mean_depth = depth_sum / static_cast<double>(slots_.size());
    d.mean_abs_contribution = abs_sum / static_cast<double>(slots_.size());
  }
  return d;
}

}  // namespace irithyll
