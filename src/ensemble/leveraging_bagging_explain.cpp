// LeveragingBagging's trees for explanation: without output codes the vote
// is the members' class probabilities summed and divided by their total,
// which is the member count (each member's probabilities sum to 1), so every
// tree enters at 1 / n_members.
#include "irithyll/ensemble/leveraging_bagging.hpp"

namespace irithyll {

Result<TreeEnsembleView> LeveragingBagging::tree_ensemble() const {
  if (!config_.base_model.empty())
    return Status::not_supported("leveraging_bagging: the members are '" + config_.base_model + "', not trees");
  if (members_.empty()) return Status::invalid_argument("leveraging_bagging: the model has seen no sample; no trees yet");
  if (coded_)
    return Status::not_supported(
        "leveraging_bagging: with output codes a class's vote is a member's code-bit probability, and the votes are "
        "normalised by their x-dependent total, which is not a sum of trees");
  TreeEnsembleView e;
  e.n_features = width_;
  e.raw_scale = "probability";
  e.nonfinite_is_missing = false;  // members route +-inf as numbers, as predict does
  const std::size_t k = context_.n_classes;
  e.bias.assign(k, 0.0);
  for (std::size_t c = 0; c < k; ++c) e.output_names.push_back(k > 1 ? "class " + std::to_string(c) : std::string());
  const double share = 1.0 / static_cast<double>(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i)
    if (Status s = members_[i].tree.append_tree_views(e.trees, share); !s)
      return Status(s).with_context("leveraging_bagging, member " + std::to_string(i));
  return e;
}

}  // namespace irithyll
