// SGBTDiagnostics: a snapshot of an SGBT committee's structure and state, for
// `irithyll inspect` / `eval --json` and for users watching a stream: per
// tree its depth, leaves, samples, leaf weight statistics and replacements.
// Computed on demand in O(nodes); nothing is tracked per sample for it.
//
// Diagnosable is the capability a learner offers to show them: front ends
// ask a Learner for this interface (as for TreeModel and Exportable) and
// never name the concrete model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace irithyll {

struct SGBTTreeDiagnostics {
  std::uint32_t depth = 0;             // of the active tree
  std::size_t n_leaves = 0;
  std::uint64_t n_samples = 0;         // samples the active tree has learned
  std::uint64_t replacements = 0;      // drift / age / prune replacements of this slot
  std::uint64_t warnings = 0;          // drift warnings that started an alternate
  bool has_alternate = false;
  std::uint64_t alternate_samples = 0;
  std::uint32_t handoff_left = 0;      // samples until a retiring tree leaves (0 = none)
  double leaf_min = 0.0, leaf_max = 0.0;  // active tree's leaf values (before the learning rate)
  // The tree's contribution lr * leaf over the samples it has routed (leaves
  // weighted by their sample counts; unweighted before any sample): mean,
  // sd and mean absolute value.
  double contribution_mean = 0.0, contribution_sd = 0.0, contribution_abs = 0.0;
};

struct SGBTDiagnostics {
  std::uint64_t n_samples = 0;
  std::size_t n_steps = 0, n_trees = 0, n_leaves = 0;  // n_trees: active + alternates
  double mean_depth = 0.0;
  std::uint32_t max_depth = 0;
  std::uint64_t replacements = 0, warnings = 0;
  std::size_t alternates = 0, handoffs = 0;  // alternates growing, handoffs running
  double base_prediction = 0.0;
  double mean_abs_contribution = 0.0;  // mean over trees of contribution_abs
  std::vector<double> soft_bandwidths;  // per feature (empty without soft routing)
  std::vector<SGBTTreeDiagnostics> trees;  // one per step
};

class Diagnosable {
 public:
  virtual ~Diagnosable() = default;
  // Boosted ensembles the learner holds: 1, or one per class of a softmax model.
  virtual std::size_t n_diagnosed_ensembles() const = 0;
  // REQUIRES: k < n_diagnosed_ensembles().
  virtual SGBTDiagnostics ensemble_diagnostics(std::size_t k) const = 0;
  // Trees replaced so far (drift, age, pruning), over every ensemble: the
  // events a learning-curve plot marks.
  virtual std::uint64_t n_tree_replacements() const = 0;
};

}  // namespace irithyll
