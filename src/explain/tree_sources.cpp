// Where a learner's trees come from for explanation. A TreeModel (sgbt,
// hoeffding_tree, arf) shows its own. Wrappers whose raw output is still a
// sum of constant-leaf trees are assembled here from their members:
//   adaptive_sgbt      its SGBT (the schedule only changes how it learns);
//   multi_target_sgbt  one output per target, each its member's trees;
//   bagged_sgbt        regression: the bags' mean, so every tree at 1/n;
//   distributional_sgbt  the location mu(x) (predict_one), its location SGBT;
//   quantile_sgbt      one output per quantile before the outputs are made
//                      non-crossing: its centre's and its member's trees,
//                      both scaled by the target's unit (the two agree
//                      wherever the raw quantiles do not cross);
//   srp, leveraging_bagging  their members' Hoeffding trees as the vote
//                      combines them (their own tree_ensemble()).
// Every other learner is refused with the reason its output is not such a
// sum, naming it.
#include <charconv>
#include <optional>
#include <string>

#include "irithyll/ensemble/adaptive_sgbt.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "irithyll/ensemble/quantile_sgbt.hpp"
#include "irithyll/ensemble/srp.hpp"
#include "irithyll/explain/tree_shap.hpp"

namespace irithyll {

namespace {

constexpr const char* kSupported =
    "TreeSHAP explains sgbt, adaptive_sgbt, multi_target_sgbt, bagged_sgbt (regression), distributional_sgbt (its "
    "location), quantile_sgbt (each quantile before rearrangement), hoeffding_tree, arf, srp and leveraging_bagging";

// "0.05": the shortest text that reads back as tau.
std::string quantile_label(double tau) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, tau).ptr;
  return std::string(buf, end);
}

// Why a known learner that holds trees cannot be explained as a sum of them.
std::string reason(const std::string& name) {
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
  if (const auto* q = dynamic_cast<const QuantileSGBT*>(&learner)) {
    // raw_i = origin + unit (c(x) + f_i(x)) + d_i: every tree of the centre
    // and of member i, at the unit's scale, over a bias that gathers the rest.
    TreeEnsembleView out;
    out.raw_scale = "value";
    std::optional<TreeEnsembleView> centre;
    if (q->centre() != nullptr) {
      auto c = q->centre()->tree_ensemble();
      if (!c) return Status(c.status()).with_context(name + ", centre");
      centre = std::move(c).value();
    }
    const auto& taus = q->config().quantiles;
    for (std::size_t i = 0; i < taus.size(); ++i) {
      auto m = q->member(i).tree_ensemble();
      if (!m) return Status(m.status()).with_context(name + ", quantile " + quantile_label(taus[i]));
      if (m->bias.size() != 1 || (centre && centre->bias.size() != 1))
        return Status::invalid_argument(name + ": a member has more than one output");
      out.n_features = m->n_features;
      out.nonfinite_is_missing = m->nonfinite_is_missing;
      out.bias.push_back(q->origin() + q->unit() * (m->bias[0] + (centre ? centre->bias[0] : 0.0)) + q->offsets()[i]);
      out.output_names.push_back("quantile " + quantile_label(taus[i]));
      auto add = [&](const std::vector<TreeView>& trees) {
        for (TreeView t : trees) {
          t.output = i;
          t.scale *= q->unit();
          out.trees.push_back(std::move(t));
        }
      };
      if (centre) add(centre->trees);
      add(m->trees);
    }
    return out;
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
