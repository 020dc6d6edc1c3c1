// Aggregated Mondrian forest (irithyll/mondrian/amf.hpp).
#include "irithyll/mondrian/amf.hpp"

#include <algorithm>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/rng.hpp"
#include "mondrian/mondrian_tree.hpp"

namespace irithyll {

namespace {

detail::MondrianParams params_of(const AmfConfig& c, const LearnerContext& ctx, std::size_t width, bool scaled_extents) {
  detail::MondrianParams p;
  p.task = ctx.task;
  p.n_classes = ctx.task == Task::kClassification ? ctx.n_classes : 0;
  p.width = width;
  p.step = c.step;
  p.dirichlet = c.dirichlet;
  p.use_aggregation = c.use_aggregation;
  p.split_pure = c.split_pure;
  p.max_nodes = amf_max_nodes(c, ctx.task);
  p.scaled_extents = scaled_extents;
  return p;
}

// Features and classes a forest accepts (the context codec's own bound).
constexpr std::size_t kMaxWidth = std::size_t{1} << 24;
// The roots alone (a box of 2 * width doubles and one statistic per class,
// or one for regression, in every tree) stay within 2^23 values (64 MiB), so
// a config or checkpoint cannot ask for memory by the gigabyte before the
// first sample; a forest that large is far past any useful size.
constexpr std::size_t kMaxRootValues = std::size_t{1} << 23;
bool roots_fit(std::size_t width, const LearnerContext& ctx, std::size_t n_trees) {
  const std::size_t stats = ctx.task == Task::kClassification ? ctx.n_classes : 1;
  return width <= kMaxWidth && stats <= kMaxWidth && n_trees <= kMaxRootValues &&
         n_trees * (2 * width + stats) <= kMaxRootValues;
}

}  // namespace

std::uint32_t amf_max_nodes(const AmfConfig& config, Task task) {
  if (config.max_nodes != 0) return config.max_nodes;
  return task == Task::kClassification ? 1024u : 4096u;
}

MondrianForestLearner::MondrianForestLearner() = default;
MondrianForestLearner::~MondrianForestLearner() = default;
MondrianForestLearner::MondrianForestLearner(MondrianForestLearner&&) noexcept = default;
MondrianForestLearner& MondrianForestLearner::operator=(MondrianForestLearner&&) noexcept = default;

Result<std::unique_ptr<MondrianForestLearner>> MondrianForestLearner::make(const Config& config,
                                                                           const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  if (config.max_nodes == 1 || config.max_nodes == 2)
    return Status::invalid_argument("mondrian_forest: max-nodes must be 0 (auto) or at least 3, not " +
                                    std::to_string(config.max_nodes));
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument("mondrian_forest: classification needs at least 2 classes");
  if (!roots_fit(context.n_features, context, config.n_estimators))
    return Status::invalid_argument("mondrian_forest: n-estimators * (2 * features + classes) = " +
                                    std::to_string(config.n_estimators * (2 * context.n_features + context.n_classes)) +
                                    " root values, more than the 2^23 allowed");
  auto out = std::make_unique<MondrianForestLearner>();
  out->config_ = config;
  out->context_ = context;
  out->reset();
  return out;
}

void MondrianForestLearner::build_trees(std::size_t width) {
  width_ = width;
  const detail::MondrianParams p = params();
  std::vector<detail::MondrianTree>().swap(trees_);
  trees_.reserve(config_.n_estimators);
  for (std::uint32_t t = 0; t < config_.n_estimators; ++t) trees_.emplace_back(p, derive_seed(context_.seed, t));
  scratch_.assign(std::max<std::size_t>(width, context_.task == Task::kClassification ? 2 * context_.n_classes : 0),
                  0.0);
}

detail::MondrianParams MondrianForestLearner::params() const {
  return params_of(config_, context_, width_, scaled_extents_);
}

void MondrianForestLearner::reset() {
  scaled_extents_ = true;
  std::vector<detail::MondrianTree>().swap(trees_);
  std::vector<double>().swap(scratch_);
  width_ = 0;
  if (context_.n_features > 0) build_trees(context_.n_features);
  seen_ = skipped_ = 0;
}

std::size_t MondrianForestLearner::tree_size(std::size_t t) const { return t < trees_.size() ? trees_[t].size() : 0; }

void MondrianForestLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes) ||
      !roots_fit(x.size(), context_, config_.n_estimators)) {
    ++skipped_;
    return;
  }
  if (width_ == 0) build_trees(x.size());
  const detail::MondrianParams p = params();
  const std::span<double> ext(scratch_.data(), width_);
  const bool restart = config_.when_full == AmfWhenFull::kRestart ||
                       (config_.when_full == AmfWhenFull::kAuto && context_.task == Task::kClassification);
  const std::size_t n = trees_.size();
  for (std::size_t t = 0; t < n; ++t) {
    // Restart: tree t holds at most max-nodes - t * max-nodes / (2 n) nodes,
    // so the trees fill, and start again, at different times.
    if (restart && trees_[t].size() + 2 > p.max_nodes - t * (p.max_nodes / (2 * n))) trees_[t].restart(p);
    trees_[t].learn(p, x, y, weight, ext);
  }
}

void MondrianForestLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != context_.n_classes) return;
  const std::size_t k = proba.size();
  if (trees_.empty() || x.size() != width_) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(k));
    return;
  }
  const detail::MondrianParams p = params();
  const std::span<double> tree_proba(scratch_.data(), k);
  std::fill(proba.begin(), proba.end(), 0.0);
  for (const detail::MondrianTree& tree : trees_) {
    tree.predict_proba(p, x, tree_proba);
    for (std::size_t c = 0; c < k; ++c) proba[c] += tree_proba[c];
  }
  const double inv = 1.0 / static_cast<double>(trees_.size());
  for (double& v : proba) v *= inv;
}

double MondrianForestLearner::predict_one(std::span<const double> x) const {
  if (context_.task == Task::kClassification) {
    const std::size_t k = context_.n_classes;
    if (trees_.empty() || x.size() != width_) return 0.0;
    const detail::MondrianParams p = params();
    const std::span<double> tree_proba(scratch_.data(), k);
    const std::span<double> sum(scratch_.data() + k, k);
    std::fill(sum.begin(), sum.end(), 0.0);
    for (const detail::MondrianTree& tree : trees_) {
      tree.predict_proba(p, x, tree_proba);
      for (std::size_t c = 0; c < k; ++c) sum[c] += tree_proba[c];
    }
    // Scaled as predict_proba_one scales, so both name the same class on ties.
    const double inv = 1.0 / static_cast<double>(trees_.size());
    for (double& v : sum) v *= inv;
    return static_cast<double>(std::max_element(sum.begin(), sum.end()) - sum.begin());
  }
  if (trees_.empty() || x.size() != width_) return 0.0;
  const detail::MondrianParams p = params();
  double sum = 0.0;
  for (const detail::MondrianTree& tree : trees_) sum += tree.predict_value(p, x);
  return sum / static_cast<double>(trees_.size());
}

std::size_t MondrianForestLearner::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + scratch_.capacity() * sizeof(double) +
                      (trees_.capacity() - trees_.size()) * sizeof(detail::MondrianTree);
  for (const detail::MondrianTree& tree : trees_) bytes += tree.memory_bytes();
  return bytes;
}

void MondrianForestLearner::encode(ByteWriter& out) const {
  // Version 2: box extensions in units of the feature ranges. A forest
  // decoded from version 1 keeps raw extents and writes version 1 again.
  out.u8(scaled_extents_ ? 2 : 1);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(seen_);
  out.u64(skipped_);
  out.u64(trees_.size());
  for (const detail::MondrianTree& tree : trees_) tree.encode(out);
}

Status MondrianForestLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("mondrian_forest version");
  if (in.ok() && version != 1 && version != 2)
    return Status::corruption("mondrian_forest: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  if (config.max_nodes == 1 || config.max_nodes == 2)
    return Status::corruption("mondrian_forest: max-nodes out of range");
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  const std::uint64_t width = in.u64("mondrian_forest width");
  const std::uint64_t seen = in.u64("mondrian_forest seen");
  const std::uint64_t skipped = in.u64("mondrian_forest skipped");
  const std::uint64_t n_trees = in.u64("mondrian_forest trees");
  if (!in.ok()) return in.status();
  const bool cls = context.task == Task::kClassification;
  if (!roots_fit(width, context, config.n_estimators) || (context.n_features != 0 && width != context.n_features) || (cls && context.n_classes < 2) ||
      n_trees != (width == 0 ? 0 : config.n_estimators) || skipped > seen)
    return Status::corruption("mondrian_forest: state out of range");
  const detail::MondrianParams p = params_of(config, context, width, version == 2);
  std::vector<detail::MondrianTree> trees(n_trees);
  for (detail::MondrianTree& tree : trees) IRITHYLL_RETURN_IF_ERROR(tree.decode(p, in));
  config_ = config;
  context_ = std::move(context);
  width_ = width;
  scaled_extents_ = version == 2;
  trees_ = std::move(trees);
  scratch_.assign(width == 0 ? 0 : std::max<std::size_t>(width, cls ? 2 * context_.n_classes : 0), 0.0);
  seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
