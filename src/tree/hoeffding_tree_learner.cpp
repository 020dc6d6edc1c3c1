#include "irithyll/tree/hoeffding_tree_learner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "irithyll/core/config_codec.hpp"

namespace irithyll {

namespace {
// 1: settings as a fixed binary record, then task, classes, features, seed.
// 2: settings by name from the field table, then the learner context.
// 3: as 2, but the tree record leaves out its binary config (the tree's
//    settings are the learner's), so a new setting changes no layout.
constexpr std::uint32_t kFormatV1 = 1;
constexpr std::uint32_t kHoeffdingTreeLearnerFormatVersion = 3;

Status check_task(const HoeffdingTreeConfig& config, Task task, std::size_t n_classes) {
  const bool cls = task == Task::kClassification;
  if (cls && (n_classes < 2 || n_classes > 65536))
    return Status::invalid_argument("hoeffding_tree: classification needs 2..65536 classes, got " +
                                    std::to_string(n_classes));
  if (cls && (config.leaf_model == LeafModel::kMean || config.leaf_model == LeafModel::kLinear))
    return Status::invalid_argument("hoeffding_tree: leaf-model " + std::string(leaf_model_name(config.leaf_model)) +
                                    " is for regression (classification: mc|nb|nba|adaptive)");
  return Status::ok();
}
}  // namespace

HoeffdingTreeLearner::HoeffdingTreeLearner() = default;

HoeffdingTreeLearner::HoeffdingTreeLearner(const Config& config, const LearnerContext& context)
    : config_(config), context_(context), n_features_(context.n_features) {
  if (context_.task != Task::kClassification) context_.n_classes = 0;
  reset();
}

Result<std::unique_ptr<HoeffdingTreeLearner>> HoeffdingTreeLearner::make(const Config& config,
                                                                         const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  IRITHYLL_RETURN_IF_ERROR(check_task(config, context.task, context.n_classes));
  if (context.n_features > (1u << 20)) return Status::invalid_argument("hoeffding_tree: too many features");
  LearnerContext c = context;
  c.n_targets = 1;
  if (c.feature_names.size() != c.n_features) c.feature_names.clear();  // names only for a known width
  return std::make_unique<HoeffdingTreeLearner>(config, c);
}

void HoeffdingTreeLearner::reset() {
  tree_.reset();
  if (n_features_ > 0) tree_.emplace(config_, context_.task, context_.n_classes, n_features_, 0, context_.seed);
  samples_seen_ = skipped_ = 0;
}

std::span<const double> HoeffdingTreeLearner::fit(std::span<const double> x) const {
  if (x.size() == n_features_) return x;
  padded_.assign(n_features_, std::numeric_limits<double>::quiet_NaN());
  std::copy_n(x.begin(), std::min(x.size(), n_features_), padded_.begin());
  return padded_;
}

void HoeffdingTreeLearner::learn_one(std::span<const double> x, double y, double weight) {
  if (!sample_admissible(x, y, weight, n_features_, context_.task, context_.n_classes)) {
    ++skipped_;
    return;
  }
  if (!tree_.has_value()) {
    n_features_ = x.size();
    tree_.emplace(config_, context_.task, context_.n_classes, n_features_, 0, context_.seed);
  }
  tree_->learn_one(x, y, weight);
  ++samples_seen_;
}

double HoeffdingTreeLearner::predict_one(std::span<const double> x) const {
  if (!tree_.has_value()) return 0.0;
  return tree_->predict_one(fit(x));
}

void HoeffdingTreeLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != context_.n_classes) return;
  if (!tree_.has_value()) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(context_.n_classes));
    return;
  }
  tree_->predict_proba(fit(x), proba);
}

std::size_t HoeffdingTreeLearner::memory_bytes() const {
  return sizeof(*this) + padded_.capacity() * sizeof(double) + (tree_.has_value() ? tree_->memory_bytes() - sizeof(Vfdt) : 0);
}

void HoeffdingTreeLearner::encode(ByteWriter& out) const {
  out.u32(kHoeffdingTreeLearnerFormatVersion);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(n_features_);
  out.u64(samples_seen_);
  out.u64(skipped_);
  out.boolean(tree_.has_value());
  if (tree_.has_value()) tree_->encode(out);
}

namespace {
// The state after the settings and the context, shared by every record
// version. `config` is the tree's: versions 1 and 2 carried it again in the
// tree record (nullptr), version 3 derives it from the learner's settings.
Status decode_state(ByteReader& in, const LearnerContext& context, std::size_t d, const HoeffdingTreeConfig* config,
                    std::uint64_t& seen, std::uint64_t& skipped, std::optional<Vfdt>& tree) {
  seen = in.u64("samples_seen");
  skipped = in.u64("skipped");
  const bool has_tree = in.boolean("has_tree");
  if (!in.ok()) return in.status();
  if (d > (1u << 20)) return Status::corruption("hoeffding_tree: feature count out of range");
  if (has_tree != (d > 0)) return Status::corruption("hoeffding_tree: tree presence does not match n_features");
  const std::size_t k = context.n_classes;
  if (has_tree) {
    Vfdt t;
    IRITHYLL_RETURN_IF_ERROR(config != nullptr ? t.decode(in, *config) : t.decode_with_config(in));
    if (t.task() != context.task || t.n_classes() != k || t.n_features() != d || t.subspace() != d)
      return Status::corruption("hoeffding_tree: tree shape does not match the learner");
    tree.emplace(std::move(t));
  } else if (context.task == Task::kClassification ? (k < 2 || k > 65536) : k != 0) {
    return Status::corruption("hoeffding_tree: bad class count");
  }
  return Status::ok();
}
}  // namespace

Status HoeffdingTreeLearner::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("hoeffding_tree version");
  if (!in.ok()) return in.status();
  if (version == kFormatV1) return decode_v1(in);
  if (version != 2 && version != kHoeffdingTreeLearnerFormatVersion)
    return Status::corruption("hoeffding_tree: unknown record version " + std::to_string(version));
  HoeffdingTreeLearner t;
  // A record without the nominal-penalty or nominal-nb-prior setting was
  // written before they existed, when nominal splits were scored by the
  // plain merit and naive Bayes used add-one estimates: it keeps those.
  t.config_.nominal_penalty = 0.0;
  t.config_.nominal_nb_prior = 0.0;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, t.config_));
  IRITHYLL_RETURN_IF_ERROR(t.config_.validate());
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, t.context_));
  if (t.context_.task == Task::kClassification)
    IRITHYLL_RETURN_IF_ERROR(check_task(t.config_, t.context_.task, t.context_.n_classes));
  else if (t.context_.n_classes != 0)
    return Status::corruption("hoeffding_tree: a regressor with classes");
  const std::uint64_t d = in.u64("n_features");
  if (!in.ok()) return in.status();
  if (t.context_.n_features != 0 && d != t.context_.n_features)
    return Status::corruption("hoeffding_tree: feature count does not match the context");
  t.n_features_ = d;
  IRITHYLL_RETURN_IF_ERROR(decode_state(in, t.context_, d, version == 2 ? nullptr : &t.config_, t.samples_seen_,
                                        t.skipped_, t.tree_));
  *this = std::move(t);
  return Status::ok();
}

Status HoeffdingTreeLearner::decode_v1(ByteReader& in) {
  HoeffdingTreeLearner t;
  IRITHYLL_RETURN_IF_ERROR(t.config_.decode(in));
  const std::uint8_t task = in.u8("task");
  const std::uint64_t k = in.u64("n_classes"), d = in.u64("n_features");
  const std::uint64_t seed = in.u64("seed");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("hoeffding_tree: bad task");
  if (k > 65536) return Status::corruption("hoeffding_tree: bad class count");
  t.context_ = LearnerContext{static_cast<Task>(task), static_cast<std::size_t>(k), static_cast<std::size_t>(d), seed};
  t.n_features_ = d;
  IRITHYLL_RETURN_IF_ERROR(decode_state(in, t.context_, d, nullptr, t.samples_seen_, t.skipped_, t.tree_));
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
