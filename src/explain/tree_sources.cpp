// Where a learner's trees come from for explanation. A TreeModel (sgbt,
// hoeffding_tree, arf) shows its own. Wrappers whose raw output is still a
// sum of constant-leaf trees are assembled here from their members:
//   adaptive_sgbt      its SGBT (the schedule only changes how it learns);
//   multi_target_sgbt  one output per target, each its member's trees;
//   bagged_sgbt        regression: the bags' mean, so every tree at 1/n;
//   distributional_sgbt  the location mu(x) (predict_one), its location SGBT;
//   srp, leveraging_bagging  their members' Hoeffding trees as the vote
//                      combines them (their own tree_ensemble()).
// Every other learner is refused with the reason its output is not such a
// sum, naming it.
#include <string>

#include "irithyll/ensemble/adaptive_sgbt.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "irithyll/ensemble/srp.hpp"
#include "irithyll/explain/tree_shap.hpp"

namespace irithyll {

namespace {

constexpr const char* kSupported =
    "TreeSHAP explains sgbt, adaptive_sgbt, multi_target_sgbt, bagged_sgbt (regression), distributional_sgbt (its "
    "location), hoeffding_tree, arf, srp and leveraging_bagging";

// Why a known learner that holds trees cannot be explained as a sum of them.
std::string reason(const std::string& name) {
  if (name == "quantile_sgbt")
    return "its quantiles add a per-level offset and pass through a monotone rearrangement (PAVA), not a sum of trees";
  if (name == "moe_sgbt" || name == "moe_distributional_sgbt")
    return "a gate weights its experts by x (soft routing), so its output is not a sum of trees; weighting each "
           "expert's contributions by the gate at x would add up to the prediction but credit nothing to the "
           "features the gate reads, so they would not be Shapley values";
  if (name == "stacked" || name == "pipeline" || name == "auto" || name == "conformal")
    return "it combines or transforms other models' outputs, which TreeSHAP cannot see through";
  return {};
}

}  // namespace

Result<TreeEnsembleView> TreeExplainer::trees_of(const Learner& learner) {
  const std::string name(learner.name());
  if (const auto* trees = dynamic_cast<const TreeModel*>(&learner)) return trees->tree_ensemble();
  if (const auto* adaptive = dynamic_cast<const AdaptiveSGBT*>(&learner)) return adaptive->inner().tree_ensemble();
  if (const auto* multi = dynamic_cast<const MultiTargetSGBT*>(&learner)) {
    TreeEnsembleView out;
    out.raw_scale = "value";
    for (std::size_t k = 0; k < multi->n_outputs(); ++k) {
      auto member = multi->member(k).tree_ensemble();
      if (!member) return Status(member.status()).with_context(name + ", target " + std::to_string(k));
      if (member->bias.size() != 1) return Status::invalid_argument(name + ": target " + std::to_string(k) + " has more than one output");
      out.n_features = member->n_features;
      out.nonfinite_is_missing = member->nonfinite_is_missing;
      out.bias.push_back(member->bias[0]);
      out.output_names.push_back("target " + std::to_string(k));
      for (TreeView& t : member->trees) {
        t.output = k;
        out.trees.push_back(std::move(t));
      }
    }
    return out;
  }
  if (const auto* dist = dynamic_cast<const DistributionalSGBT*>(&learner)) {
    auto view = dist->location().tree_ensemble();
    if (!view) return Status(view.status()).with_context(name + ", location");
    view->output_names = {"location"};
    return view;
  }
  if (const auto* srp = dynamic_cast<const StreamingRandomPatches*>(&learner)) {
    auto view = srp->tree_ensemble();
    if (!view) return Status(view.status()).with_context("explain: model '" + name + "'");
    return view;
  }
  if (const auto* lb = dynamic_cast<const LeveragingBagging*>(&learner)) {
    auto view = lb->tree_ensemble();
    if (!view) return Status(view.status()).with_context("explain: model '" + name + "'");
    return view;
  }
  if (const auto* bagged = dynamic_cast<const BaggedSGBT*>(&learner)) {
    if (learner.task() != Task::kRegression)
      return Status::not_supported("explain: model '" + name +
                                   "' (classification) averages its bags' class probabilities, which is not a sum of trees; "
                                   "a bagged_sgbt regressor can be explained");
    TreeEnsembleView out;
    out.raw_scale = "value";
    out.bias = {0.0};
    out.output_names = {std::string()};
    const double share = 1.0 / static_cast<double>(bagged->n_bags());
    for (std::size_t b = 0; b < bagged->n_bags(); ++b) {
      auto bag = bagged->bag(b).tree_ensemble();
      if (!bag) return Status(bag.status()).with_context(name + ", bag " + std::to_string(b));
      out.n_features = bag->n_features;
      out.nonfinite_is_missing = bag->nonfinite_is_missing;
      out.bias[0] += share * bag->bias[0];
      for (TreeView& t : bag->trees) {
        t.scale *= share;
        out.trees.push_back(std::move(t));
      }
    }
    return out;
  }
  const std::string why = reason(name);
  if (why.empty()) return Status::not_supported("explain: model '" + name + "' has no trees (" + kSupported + ")");
  return Status::not_supported("explain: model '" + name + "' cannot be explained: " + why + " (" + kSupported + ")");
}

}  // namespace irithyll
