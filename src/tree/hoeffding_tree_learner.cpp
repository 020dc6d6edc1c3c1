#include "irithyll/tree/hoeffding_tree_learner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace irithyll {

namespace {
constexpr std::uint32_t kFormatVersion = 1;
}

HoeffdingTreeLearner::HoeffdingTreeLearner() = default;

HoeffdingTreeLearner::HoeffdingTreeLearner(const HoeffdingTreeConfig& config, Task task, std::size_t n_classes,
                                           std::size_t n_features, std::uint64_t seed)
    : config_(config), task_(task), n_classes_(task == Task::kClassification ? n_classes : 0), n_features_(n_features), seed_(seed) {
  reset();
}

Result<std::unique_ptr<HoeffdingTreeLearner>> HoeffdingTreeLearner::make(const HoeffdingTreeConfig& config, Task task,
                                                                         std::size_t n_classes, std::size_t n_features,
                                                                         std::uint64_t seed) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  const bool cls = task == Task::kClassification;
  if (cls && (n_classes < 2 || n_classes > 65536))
    return Status::invalid_argument("hoeffding_tree: classification needs 2..65536 classes, got " + std::to_string(n_classes));
  if (cls && (config.leaf_model == LeafModel::kMean || config.leaf_model == LeafModel::kLinear))
    return Status::invalid_argument("hoeffding_tree: leaf-model " + std::string(leaf_model_name(config.leaf_model)) +
                                    " is for regression (classification: mc|nb|nba)");
  if (n_features > (1u << 20)) return Status::invalid_argument("hoeffding_tree: too many features");
  return std::make_unique<HoeffdingTreeLearner>(config, task, n_classes, n_features, seed);
}

void HoeffdingTreeLearner::reset() {
  tree_.reset();
  if (n_features_ > 0) tree_.emplace(config_, task_, n_classes_, n_features_, 0, seed_);
  samples_seen_ = skipped_ = 0;
}

std::span<const double> HoeffdingTreeLearner::fit(std::span<const double> x) const {
  if (x.size() == n_features_) return x;
  padded_.assign(n_features_, std::numeric_limits<double>::quiet_NaN());
  std::copy_n(x.begin(), std::min(x.size(), n_features_), padded_.begin());
  return padded_;
}

void HoeffdingTreeLearner::learn_one(std::span<const double> x, double y, double weight) {
  const bool cls = task_ == Task::kClassification;
  const bool bad_y = !std::isfinite(y) || (cls && (y < 0.0 || y >= static_cast<double>(n_classes_) || y != std::floor(y)));
  if (bad_y || !(weight > 0.0) || !std::isfinite(weight) || x.empty() || (n_features_ > 0 && x.size() != n_features_)) {
    ++skipped_;
    return;
  }
  if (!tree_.has_value()) {
    n_features_ = x.size();
    tree_.emplace(config_, task_, n_classes_, n_features_, 0, seed_);
  }
  tree_->learn_one(x, y, weight);
  ++samples_seen_;
}

double HoeffdingTreeLearner::predict_one(std::span<const double> x) const {
  if (!tree_.has_value()) return 0.0;
  return tree_->predict_one(fit(x));
}

void HoeffdingTreeLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (task_ != Task::kClassification || proba.size() != n_classes_) return;
  if (!tree_.has_value()) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(n_classes_));
    return;
  }
  tree_->predict_proba(fit(x), proba);
}

std::size_t HoeffdingTreeLearner::memory_bytes() const {
  return sizeof(*this) + padded_.capacity() * sizeof(double) + (tree_.has_value() ? tree_->memory_bytes() - sizeof(Vfdt) : 0);
}

void HoeffdingTreeLearner::encode(ByteWriter& out) const {
  out.u32(kFormatVersion);
  config_.encode(out);
  out.u8(static_cast<std::uint8_t>(task_));
  out.u64(n_classes_);
  out.u64(n_features_);
  out.u64(seed_);
  out.u64(samples_seen_);
  out.u64(skipped_);
  out.boolean(tree_.has_value());
  if (tree_.has_value()) tree_->encode(out);
}

Status HoeffdingTreeLearner::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("hoeffding_tree version");
  if (!in.ok()) return in.status();
  if (version != kFormatVersion) return Status::corruption("hoeffding_tree: unknown record version " + std::to_string(version));
  HoeffdingTreeLearner t;
  IRITHYLL_RETURN_IF_ERROR(t.config_.decode(in));
  const std::uint8_t task = in.u8("task");
  const std::uint64_t k = in.u64("n_classes"), d = in.u64("n_features");
  t.seed_ = in.u64("seed");
  t.samples_seen_ = in.u64("samples_seen");
  t.skipped_ = in.u64("skipped");
  const bool has_tree = in.boolean("has_tree");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("hoeffding_tree: bad task");
  t.task_ = static_cast<Task>(task);
  t.n_classes_ = k;
  t.n_features_ = d;
  if (has_tree != (d > 0)) return Status::corruption("hoeffding_tree: tree presence does not match n_features");
  if (has_tree) {
    Vfdt tree;
    IRITHYLL_RETURN_IF_ERROR(tree.decode(in));
    if (tree.task() != t.task_ || tree.n_classes() != k || tree.n_features() != d || tree.subspace() != d)
      return Status::corruption("hoeffding_tree: tree shape does not match the learner");
    t.tree_.emplace(std::move(tree));
  } else if (t.task_ == Task::kClassification ? (k < 2 || k > 65536) : k != 0) {
    return Status::corruption("hoeffding_tree: bad class count");
  }
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
