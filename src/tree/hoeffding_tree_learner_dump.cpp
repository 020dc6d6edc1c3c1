// HoeffdingTreeLearner's TreeModel face: its one tree.
#include "irithyll/tree/hoeffding_tree_learner.hpp"

namespace irithyll {

std::size_t HoeffdingTreeLearner::n_dump_trees() const { return tree_.has_value() ? 1 : 0; }

std::string HoeffdingTreeLearner::tree_label(std::size_t) const { return "tree"; }

const Vfdt& HoeffdingTreeLearner::vfdt_tree(std::size_t) const { return *tree_; }

}  // namespace irithyll

namespace irithyll {

// Raw outputs: the class probabilities of the leaf's class weights
// (majority-class leaves; a naive Bayes leaf's x-dependent correction is not
// a tree function and is not explained), or the regression leaf mean.
Result<TreeEnsembleView> HoeffdingTreeLearner::tree_ensemble() const {
  if (!tree_.has_value()) return Status::invalid_argument("hoeffding_tree: the model has seen no sample; no tree yet");
  TreeEnsembleView e;
  e.n_features = n_features_;
  e.raw_scale = context_.task == Task::kClassification ? "probability" : "value";
  e.nonfinite_is_missing = false;
  const std::size_t k = context_.task == Task::kClassification ? context_.n_classes : 1;
  e.bias.assign(k, 0.0);
  for (std::size_t c = 0; c < k; ++c) e.output_names.push_back(k > 1 ? "class " + std::to_string(c) : std::string());
  if (Status s = tree_->append_tree_views(e.trees, 1.0); !s) return s;
  return e;
}

}  // namespace irithyll
