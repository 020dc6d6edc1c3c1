// AdaptiveRandomForest's TreeModel face: the members' live trees.
#include "irithyll/ensemble/arf.hpp"

namespace irithyll {

std::size_t AdaptiveRandomForest::n_dump_trees() const { return members_.size(); }

std::string AdaptiveRandomForest::tree_label(std::size_t i) const { return "member " + std::to_string(i); }

const Vfdt& AdaptiveRandomForest::vfdt_tree(std::size_t i) const { return members_[i].tree; }

}  // namespace irithyll

namespace irithyll {

// Raw outputs: the members' leaf class probabilities (majority-class
// leaves) weighted as the vote weights them (accuracy since the member
// started, or one unit each when no member has any), normalised to sum 1;
// a majority vote (arg-max counting) is not additive, so its explanation is
// the members' plain average. Regression: the members' average.
Result<TreeEnsembleView> AdaptiveRandomForest::tree_ensemble() const {
  if (members_.empty()) return Status::invalid_argument("arf: the model has seen no sample; no trees yet");
  TreeEnsembleView e;
  e.n_features = n_features_;
  const bool cls = task_ == Task::kClassification;
  e.raw_scale = cls ? "probability" : "value";
  e.nonfinite_is_missing = false;
  const std::size_t k = cls ? n_classes_ : 1;
  e.bias.assign(k, 0.0);
  for (std::size_t c = 0; c < k; ++c) e.output_names.push_back(k > 1 ? "class " + std::to_string(c) : std::string());
  std::vector<double> w(members_.size(), 1.0);
  double total = 0.0;
  if (cls && config_.vote != ARFVote::kMajority)
    for (std::size_t i = 0; i < members_.size(); ++i)
      w[i] = members_[i].seen > 0.0 ? members_[i].correct / members_[i].seen : 0.0;
  for (double v : w) total += v;
  if (!(total > 0.0)) {
    w.assign(members_.size(), 1.0);
    total = static_cast<double>(members_.size());
  }
  for (std::size_t i = 0; i < members_.size(); ++i)
    if (w[i] > 0.0)
      if (Status s = members_[i].tree.append_tree_views(e.trees, w[i] / total); !s) return s;
  return e;
}

}  // namespace irithyll
