#include "irithyll/ensemble/leveraging_bagging.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ensemble/member_tree_rows.hpp"
#include "irithyll/core/poisson.hpp"

namespace irithyll {

std::span<const ConfigField<LeveragingBaggingConfig>> LeveragingBagging::config_fields() {
  static const std::vector<ConfigField<LeveragingBaggingConfig>> rows = [] {
    using C = LeveragingBaggingConfig;
    using Row = ConfigField<C>;
    std::vector<Row> table = {
        Row{FieldInfo::integer("n-models", "10", "members").in(1, 1000), IRITHYLL_FIELD_UINT(C, n_models)},
        Row{FieldInfo::real("lambda", "6", "Poisson rate of each member's sample weight").in(0, 30, true),
            IRITHYLL_FIELD_REAL(C, lambda)},
        Row{FieldInfo::real("adwin-delta", "0.002", "confidence of each member's ADWIN error detector").in(0, 1, true, true),
            IRITHYLL_FIELD_REAL(C, adwin_delta)},
        Row{FieldInfo::boolean("output-codes", "off", "random binary output codes per member (more than two classes)"),
            IRITHYLL_FIELD_BOOL(C, output_codes)},
    };
    ensemble_detail::append_member_tree_rows(table, "200", "1e-07", /*classification_only=*/true);
    return table;
  }();
  return rows;
}

LeveragingBagging::LeveragingBagging() { (void)init(Config{}, LearnerContext{Task::kClassification, 2}); }

Status LeveragingBagging::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(config.tree.validate().with_context(kName));
  if (context.task != Task::kClassification || context.n_classes < 2 || context.n_classes > 65536)
    return Status::invalid_argument("leveraging_bagging: a classifier with 2..65536 classes");
  IRITHYLL_RETURN_IF_ERROR(ensemble_detail::check_member_leaf(kName, true, config.tree.leaf_model));
  if (context.n_features > (1u << 20)) return Status::invalid_argument("leveraging_bagging: too many features");
  config_ = config;
  context_ = context;
  reset();
  return Status::ok();
}

Result<std::unique_ptr<LeveragingBagging>> LeveragingBagging::make(const Config& config, const LearnerContext& context) {
  auto out = std::make_unique<LeveragingBagging>();
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

Vfdt LeveragingBagging::new_tree() {
  return Vfdt(config_.tree, Task::kClassification, coded_ ? 2 : context_.n_classes, width_, 0, rng_.next_u64());
}

void LeveragingBagging::build_members() {
  members_.clear();
  members_.reserve(config_.n_models);
  for (std::uint32_t i = 0; i < config_.n_models; ++i) members_.push_back(Member{new_tree(), Adwin(config_.adwin_delta)});
}

void LeveragingBagging::reset() {
  rng_ = Xorshift64(context_.seed);
  poisson_limit_ = std::exp(-config_.lambda);
  const std::size_t k = context_.n_classes;
  coded_ = config_.output_codes && k > 2;
  codes_.clear();
  if (coded_) {
    // Per member: a random half of the classes (rounded down) gets bit 1.
    codes_.assign(config_.n_models * k, 0);
    perm_.resize(k);
    for (std::uint32_t i = 0; i < config_.n_models; ++i) {
      for (std::size_t c = 0; c < k; ++c) perm_[c] = static_cast<std::uint32_t>(c);
      for (std::size_t c = 0; c + 1 < k; ++c) std::swap(perm_[c], perm_[c + rng_.below(k - c)]);
      for (std::size_t c = 0; c < k / 2; ++c) codes_[i * k + perm_[c]] = 1;
    }
  }
  width_ = context_.n_features;
  members_.clear();
  if (width_ > 0) build_members();
  votes_.assign(k, 0.0);
  member_proba_.assign(coded_ ? 2 : k, 0.0);
  class_proba_.assign(k, 0.0);
  poisson_total_ = 0.0;
  seen_ = skipped_ = n_resets_ = 0;
}

void LeveragingBagging::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, Task::kClassification, context_.n_classes) || x.size() > (1u << 20)) {
    ++skipped_;
    return;
  }
  if (members_.empty()) {
    width_ = x.size();
    build_members();
  }
  const std::size_t cls = static_cast<std::size_t>(y);
  bool change = false;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    const double target = coded_ ? static_cast<double>(codes_[i * context_.n_classes + cls]) : y;
    const std::uint32_t k = sample_poisson_limit(rng_, poisson_limit_);
    poisson_total_ += static_cast<double>(k);
    const double pred = k > 0 ? m.tree.learn_one(x, target, static_cast<double>(k) * weight) : m.tree.predict_one(x);
    // Only a cut that raised the error estimate is a change (as MOA's LeveragingBag).
    const double before = m.detector.estimated_mean();
    if (m.detector.update(pred == target ? 0.0 : 1.0) == DriftSignal::kDrift && m.detector.estimated_mean() > before)
      change = true;
  }
  if (change) {
    // Reset the member whose detector estimates the largest error.
    std::size_t worst = 0;
    for (std::size_t i = 1; i < members_.size(); ++i)
      if (members_[i].detector.estimated_mean() > members_[worst].detector.estimated_mean()) worst = i;
    members_[worst].tree = new_tree();
    members_[worst].detector = Adwin(config_.adwin_delta);
    ++n_resets_;
  }
}

void LeveragingBagging::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  const std::size_t k = context_.n_classes;
  if (proba.size() != k) return;
  if (members_.empty() || x.size() != width_) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(k));
    return;
  }
  std::fill(votes_.begin(), votes_.end(), 0.0);
  for (std::size_t i = 0; i < members_.size(); ++i) {
    members_[i].tree.predict_proba(x, member_proba_);
    if (coded_) {
      for (std::size_t c = 0; c < k; ++c) votes_[c] += member_proba_[codes_[i * k + c]];
    } else {
      for (std::size_t c = 0; c < k; ++c) votes_[c] += member_proba_[c];
    }
  }
  double sum = 0.0;
  for (double v : votes_) sum += v;
  for (std::size_t c = 0; c < k; ++c) proba[c] = sum > 0.0 ? votes_[c] / sum : 1.0 / static_cast<double>(k);
}

double LeveragingBagging::predict_one(std::span<const double> x) const {
  predict_proba_one(x, class_proba_);
  return static_cast<double>(std::max_element(class_proba_.begin(), class_proba_.end()) - class_proba_.begin());
}

std::size_t LeveragingBagging::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + members_.capacity() * sizeof(Member) + codes_.capacity() +
                      perm_.capacity() * sizeof(std::uint32_t) +
                      (votes_.capacity() + member_proba_.capacity() + class_proba_.capacity()) * sizeof(double);
  for (const Member& m : members_) bytes += m.tree.memory_bytes() - sizeof(Vfdt);
  return bytes;
}

}  // namespace irithyll
