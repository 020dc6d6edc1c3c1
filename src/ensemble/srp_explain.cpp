// StreamingRandomPatches' trees for explanation: the live members' Hoeffding
// trees, each over its own feature subspace, mapped back to the full row and
// weighted as predict_proba_one / predict_one combine them.
#include "irithyll/ensemble/srp.hpp"

namespace irithyll {

Result<TreeEnsembleView> StreamingRandomPatches::tree_ensemble() const {
  if (members_.empty()) return Status::invalid_argument("srp: the model has seen no sample; no trees yet");
  TreeEnsembleView e;
  e.n_features = width_;
  const bool cls = context_.task == Task::kClassification;
  e.raw_scale = cls ? "probability" : "value";
  e.nonfinite_is_missing = false;  // members route +-inf as numbers, as predict does
  const std::size_t k = cls ? context_.n_classes : 1;
  e.bias.assign(k, 0.0);
  for (std::size_t c = 0; c < k; ++c) e.output_names.push_back(k > 1 ? "class " + std::to_string(c) : std::string());
  // The weights predict_proba_one uses: accuracy since the member started
  // (weighted vote), or one unit each when none has any (and under majority,
  // whose arg-max count is not additive: the plain average is explained).
  std::vector<double> w(members_.size(), 1.0);
  if (cls && config_.vote != ARFVote::kMajority)
    for (std::size_t i = 0; i < members_.size(); ++i)
      w[i] = members_[i].seen > 0.0 ? members_[i].correct / members_[i].seen : 0.0;
  double total = 0.0;
  for (double v : w) total += v;
  if (!(total > 0.0)) {
    w.assign(members_.size(), 1.0);
    total = static_cast<double>(members_.size());
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (!(w[i] > 0.0)) continue;
    const Member& m = members_[i];
    const std::span<const std::uint32_t> map =
        m.features.size() == width_ ? std::span<const std::uint32_t>{} : std::span<const std::uint32_t>(m.features);
    if (Status s = m.tree.append_tree_views(e.trees, w[i] / total, map); !s)
      return Status(s).with_context("srp, member " + std::to_string(i));
  }
  return e;
}

}  // namespace irithyll
