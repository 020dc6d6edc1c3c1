#include "irithyll/ensemble/arf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/worker_pool.hpp"
#include "ensemble/member_tree_rows.hpp"
#include "irithyll/core/poisson.hpp"

namespace irithyll {

AdaptiveRandomForest::AdaptiveRandomForest() = default;
AdaptiveRandomForest::~AdaptiveRandomForest() = default;
AdaptiveRandomForest::AdaptiveRandomForest(AdaptiveRandomForest&&) noexcept = default;
AdaptiveRandomForest& AdaptiveRandomForest::operator=(AdaptiveRandomForest&&) noexcept = default;

AdaptiveRandomForest::AdaptiveRandomForest(const Config& config, const LearnerContext& context)
    : config_(config),
      task_(context.task),
      n_classes_(context.task == Task::kClassification ? context.n_classes : 0),
      n_features_(context.n_features),
      seed_(context.seed) {
  reset();
}

Result<std::unique_ptr<AdaptiveRandomForest>> AdaptiveRandomForest::make(const Config& config,
                                                                         const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  const Task task = context.task;
  const std::size_t n_classes = context.n_classes;
  const bool cls = task == Task::kClassification;
  if (cls && (n_classes < 2 || n_classes > 65536))
    return Status::invalid_argument("arf: classification needs 2..65536 classes, got " + std::to_string(n_classes));
  const LeafModel leaf = config.tree.leaf_model;
  if (cls && (leaf == LeafModel::kMean || leaf == LeafModel::kLinear))
    return Status::invalid_argument("arf: leaf-model " + std::string(leaf_model_name(leaf)) +
                                    " is for regression (classification: mc|nb|nba|adaptive)");
  if (context.n_features > (1u << 20)) return Status::invalid_argument("arf: too many features");
  IRITHYLL_RETURN_IF_ERROR(
      ensemble_detail::check_member_roots("arf", cls ? n_classes : 1, context.n_features, config.n_trees));
  return std::make_unique<AdaptiveRandomForest>(config, context);
}

HoeffdingTreeConfig AdaptiveRandomForest::member_tree_config() const {
  // Members split nominal attributes one value against the rest
  // (HoeffdingTreeConfig::binary_nominal): with random subspaces and Poisson
  // weights, multiway splits won on their branch-count bias. Set only when
  // some attribute is nominal, so forests without any keep their records.
  HoeffdingTreeConfig tree = config_.tree;
  for (std::uint32_t f : tree.categorical) tree.binary_nominal = tree.binary_nominal || f < n_features_;
  // The naive Bayes prior acts on nominal attributes only; without any, the
  // member keeps the record it had before the prior existed.
  if (!tree.binary_nominal) tree.nominal_nb_prior = 0.0;
  return tree;
}

Vfdt AdaptiveRandomForest::new_tree(Xorshift64& rng) const {
  // The tree's seed goes through derive_seed: a Xorshift64 seeded with
  // this stream's output would replay this very stream (its state is its
  // output), tying the tree's draws to the member's Poisson weights.
  return Vfdt(member_tree_config(), task_, n_classes_, n_features_, config_.subspace(n_features_),
              derive_seed(rng.next_u64(), 0));
}

void AdaptiveRandomForest::build_members() {
  poisson_limit_ = std::exp(-config_.lambda);
  // Detector deltas of 0 mean "off"; the detectors still exist (a valid
  // delta) so the layout is fixed, and are simply not consulted.
  const double wd = config_.warning_delta > 0.0 ? config_.warning_delta : 0.01;
  const double dd = config_.drift_delta > 0.0 ? config_.drift_delta : 0.001;
  members_.clear();
  members_.reserve(config_.n_trees);
  for (std::uint32_t i = 0; i < config_.n_trees; ++i) {
    Xorshift64 rng(derive_seed(seed_, i));
    Vfdt tree = new_tree(rng);
    members_.push_back(Member{std::move(tree), std::nullopt, Adwin(wd), Adwin(dd), 0.0, 0.0, rng});
  }
  size_scratch();
}

void AdaptiveRandomForest::size_scratch() {
  votes_.assign(task_ == Task::kClassification ? n_classes_ : 0, 0.0);
  member_proba_ = class_proba_ = votes_;
  route_trees_.assign(members_.size(), nullptr);
  route_xs_.assign(members_.size(), {});
}

void AdaptiveRandomForest::start_pool() {
  part_counts_.assign(detail::fit_pool(pool_, config_.threads, config_.n_trees), Counts{});
}

Status AdaptiveRandomForest::set_threads(std::uint32_t threads) {
  IRITHYLL_RETURN_IF_ERROR(check_threads(kName, threads));
  config_.threads = threads;
  start_pool();
  return Status::ok();
}

void AdaptiveRandomForest::reset() {
  start_pool();
  members_.clear();
  if (n_features_ > 0) build_members();
  samples_seen_ = skipped_ = n_warnings_ = n_drifts_ = 0;
}

std::size_t AdaptiveRandomForest::n_background() const {
  std::size_t n = 0;
  for (const Member& m : members_) n += m.background.has_value();
  return n;
}

std::size_t AdaptiveRandomForest::n_nodes() const {
  std::size_t n = 0;
  for (const Member& m : members_) n += m.tree.n_nodes() + (m.background.has_value() ? m.background->n_nodes() : 0);
  return n;
}

// Members [first, last) learn one sample. Touches nothing outside those
// members (each draws from its own stream), so disjoint ranges may run on
// different threads.
AdaptiveRandomForest::Counts AdaptiveRandomForest::learn_members(std::size_t first, std::size_t last,
                                                                 std::span<const double> x, double y, double weight) {
  Counts counts;
  const bool cls = task_ == Task::kClassification;
  for (std::size_t i = first; i < last; ++i) {
    Member& m = members_[i];
    const std::uint32_t k = sample_poisson_limit(m.rng, poisson_limit_);
    const double kw = static_cast<double>(k) * weight;
    // Test then train: the member's prediction before it sees the sample.
    const double pred = k > 0 ? m.tree.learn_one(x, y, kw) : m.tree.predict_one(x);
    if (m.background.has_value() && k > 0) m.background->learn_one(x, y, kw);
    const double error = cls ? (pred == y ? 0.0 : 1.0) : std::abs(y - pred);
    m.correct += cls ? weight * (1.0 - error) : 0.0;
    m.seen += weight;
    if (config_.warning_delta > 0.0 && m.warning.update(error) == DriftSignal::kDrift) {
      // Warning: start (or restart) a background tree on the new concept.
      m.background.emplace(new_tree(m.rng));
      m.warning.reset();
      ++counts.warnings;
    }
    if (config_.drift_delta > 0.0 && m.drift.update(error) == DriftSignal::kDrift) {
      // Drift: the background tree, trained since the warning, takes over.
      if (m.background.has_value()) {
        m.tree = std::move(*m.background);
        m.background.reset();
      } else {
        m.tree = new_tree(m.rng);
      }
      m.warning.reset();
      m.drift.reset();
      m.correct = m.seen = 0.0;
      ++counts.drifts;
    }
  }
  return counts;
}

void AdaptiveRandomForest::route_members(std::span<const double> x) const {
  // Sized by size_scratch, so these resizes change nothing and a prediction
  // allocates nothing; they keep a path that forgot it in bounds.
  route_trees_.resize(members_.size());
  route_xs_.resize(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    route_trees_[i] = &members_[i].tree;
    route_xs_[i] = x;
  }
  Vfdt::route_together(route_trees_, route_xs_);
}

std::span<const double> AdaptiveRandomForest::fit(std::span<const double> x) const {
  if (x.size() == n_features_) return x;
  padded_.assign(n_features_, std::numeric_limits<double>::quiet_NaN());
  std::copy_n(x.begin(), std::min(x.size(), n_features_), padded_.begin());
  return padded_;
}

void AdaptiveRandomForest::learn_one(std::span<const double> x, double y, double weight) {
  if (!sample_admissible(x, y, weight, n_features_, task_, n_classes_)) {
    ++skipped_;
    return;
  }
  if (members_.empty()) {
    n_features_ = x.size();
    build_members();
  }
  if (pool_) {
    auto part = [&](std::size_t p) {
      const auto [first, last] = detail::part_range(members_.size(), pool_->n_parts(), p);
      part_counts_[p] = learn_members(first, last, x, y, weight);
    };
    pool_->run(part);
    // Summed in part order after every part is done: the totals do not
    // depend on which thread finished first.
    for (const Counts& c : part_counts_) {
      n_warnings_ += c.warnings;
      n_drifts_ += c.drifts;
    }
  } else {
    const Counts c = learn_members(0, members_.size(), x, y, weight);
    n_warnings_ += c.warnings;
    n_drifts_ += c.drifts;
  }
  ++samples_seen_;
}

void AdaptiveRandomForest::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (task_ != Task::kClassification || proba.size() != n_classes_) return;
  if (members_.empty()) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(n_classes_));
    return;
  }
  const std::span<const double> xs = fit(x);
  route_members(xs);
  std::fill(votes_.begin(), votes_.end(), 0.0);
  double total_weight = 0.0;
  for (int pass = 0; pass < 2 && !(total_weight > 0.0); ++pass) {
    // Pass 0 weights members by accuracy; if none has any (all fresh), pass 1
    // gives every member one unit.
    for (const Member& m : members_) {
      const double w = pass == 1 || config_.vote == ARFVote::kMajority ? 1.0 : (m.seen > 0.0 ? m.correct / m.seen : 0.0);
      if (!(w > 0.0)) continue;
      m.tree.predict_proba(xs, member_proba_);
      if (config_.vote == ARFVote::kMajority) {
        votes_[static_cast<std::size_t>(std::max_element(member_proba_.begin(), member_proba_.end()) - member_proba_.begin())] += 1.0;
      } else {
        for (std::size_t c = 0; c < n_classes_; ++c) votes_[c] += w * member_proba_[c];
      }
      total_weight += w;
    }
  }
  double sum = 0.0;
  for (double v : votes_) sum += v;
  for (std::size_t c = 0; c < n_classes_; ++c) proba[c] = sum > 0.0 ? votes_[c] / sum : 1.0 / static_cast<double>(n_classes_);
}

double AdaptiveRandomForest::predict_one(std::span<const double> x) const {
  if (members_.empty()) return 0.0;
  if (task_ == Task::kRegression) {
    const std::span<const double> xs = fit(x);
    route_members(xs);
    double s = 0.0;
    for (const Member& m : members_) s += m.tree.predict_one(xs);
    return s / static_cast<double>(members_.size());
  }
  predict_proba_one(x, class_proba_);
  return static_cast<double>(std::max_element(class_proba_.begin(), class_proba_.end()) - class_proba_.begin());
}

std::size_t AdaptiveRandomForest::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + members_.capacity() * sizeof(Member) + part_counts_.capacity() * sizeof(Counts) +
                      (padded_.capacity() + votes_.capacity() + member_proba_.capacity() + class_proba_.capacity()) * sizeof(double);
  for (const Member& m : members_) {
    bytes += m.tree.memory_bytes() - sizeof(Vfdt);
    if (m.background.has_value()) bytes += m.background->memory_bytes() - sizeof(Vfdt);
  }
  return bytes;
}

}  // namespace irithyll
