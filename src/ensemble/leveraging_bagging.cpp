#include "irithyll/ensemble/leveraging_bagging.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ensemble/member_tree_rows.hpp"
#include "core/worker_pool.hpp"
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
        Row{FieldInfo::text("base-model", "",
                            "each member's model (River's model=): a catalogue classifier or pipeline as --model "
                            "spells it, e.g. standard_scaler|logistic_regression(l2=0); empty = Hoeffding trees "
                            "(the tree settings)"),
            [](C& c, std::string_view v) -> Status {
              c.base_model = std::string(v);
              return Status::ok();
            },
            [](const C& c) { return c.base_model; }},
    };
    ensemble_detail::append_member_tree_rows(table, "200", "1e-07", /*classification_only=*/true);
    // Last row: checkpoints write every row but this one (leveraging_bagging_codec.cpp).
    table.push_back(Row{FieldInfo::integer("threads", "1", "training threads: members split into that many groups, same results (not stored in checkpoints)").in(1, 256),
                        IRITHYLL_FIELD_UINT(C, threads)});
    return table;
  }();
  return rows;
}

LeveragingBagging::LeveragingBagging() { (void)init(Config{}, LearnerContext{Task::kClassification, 2}); }

LeveragingBagging::LeveragingBagging(const MemberFactory& factory) : factory_(factory) {
  (void)init(Config{}, LearnerContext{Task::kClassification, 2});
}

LeveragingBagging::~LeveragingBagging() = default;
LeveragingBagging::LeveragingBagging(LeveragingBagging&&) noexcept = default;
LeveragingBagging& LeveragingBagging::operator=(LeveragingBagging&&) noexcept = default;

Status LeveragingBagging::init(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(config.tree.validate().with_context(kName));
  if (context.task != Task::kClassification || context.n_classes < 2 || context.n_classes > 65536)
    return Status::invalid_argument("leveraging_bagging: a classifier with 2..65536 classes");
  IRITHYLL_RETURN_IF_ERROR(ensemble_detail::check_member_leaf(kName, true, config.tree.leaf_model));
  if (context.n_features > (1u << 20)) return Status::invalid_argument("leveraging_bagging: too many features");
  IRITHYLL_RETURN_IF_ERROR(ensemble_detail::check_member_roots(
      kName, config.output_codes && context.n_classes > 2 ? 2 : context.n_classes, context.n_features, config.n_models));
  if (!config.base_model.empty()) {
    if (factory_.build == nullptr)
      return Status::invalid_argument("leveraging_bagging: base-model needs the catalogue (this instance has no factory)");
    // Built once here to check the text; a pipeline needs a width, so an
    // unknown one is tried at 1 (column names are checked at the first sample).
    LearnerContext probe{Task::kClassification, config.output_codes && context.n_classes > 2 ? 2 : context.n_classes,
                         context.n_features > 0 ? context.n_features : 1, context.seed};
    auto made = factory_.build(config.base_model, probe);
    if (!made) return Status(made.status()).with_context("leveraging_bagging base-model");
    if ((*made)->task() != Task::kClassification)
      return Status::invalid_argument("leveraging_bagging: base-model '" + config.base_model + "' is not a classifier");
    if ((*made)->name() == kName)
      return Status::invalid_argument("leveraging_bagging: base-model may not be leveraging_bagging itself");
    base_kind_ = std::string((*made)->name());
  } else {
    base_kind_.clear();
  }
  config_ = config;
  context_ = context;
  reset();
  return Status::ok();
}

Result<std::unique_ptr<LeveragingBagging>> LeveragingBagging::make(const Config& config, const LearnerContext& context) {
  return make(config, context, MemberFactory{});
}

Result<std::unique_ptr<LeveragingBagging>> LeveragingBagging::make(const Config& config, const LearnerContext& context,
                                                                   const MemberFactory& factory) {
  auto out = std::make_unique<LeveragingBagging>(factory);
  IRITHYLL_RETURN_IF_ERROR(out->init(config, context));
  return out;
}

LearnerContext LeveragingBagging::member_context(std::uint64_t seed) const {
  LearnerContext c{Task::kClassification, coded_ ? 2 : context_.n_classes, width_, seed};
  if (context_.feature_names.size() == width_) c.feature_names = context_.feature_names;
  return c;
}

bool LeveragingBagging::new_member(Member& m) {
  // The model's seed goes through derive_seed: a Xorshift64 seeded with
  // this stream's output would replay this very stream (its state is its
  // output), tying the model's draws to the member's Poisson weights.
  const std::uint64_t seed = derive_seed(m.rng.next_u64(), 0);
  m.detector = Adwin(config_.adwin_delta);
  if (config_.base_model.empty()) {
    m.tree = Vfdt(config_.tree, Task::kClassification, coded_ ? 2 : context_.n_classes, width_, 0, seed);
    m.model.reset();
    return true;
  }
  auto made = factory_.build(config_.base_model, member_context(seed));
  if (!made) return false;
  m.model = std::move(made).value();
  return true;
}

bool LeveragingBagging::build_members() {
  members_.clear();
  members_.reserve(config_.n_models);
  route_trees_.reserve(config_.n_models);  // a prediction allocates nothing
  route_xs_.reserve(config_.n_models);
  for (std::uint32_t i = 0; i < config_.n_models; ++i) {
    members_.emplace_back();
    members_.back().rng = Xorshift64(derive_seed(context_.seed, i));
    if (!new_member(members_.back())) {
      members_.clear();
      return false;
    }
  }
  return true;
}

void LeveragingBagging::start_pool() {
  parts_.assign(detail::fit_pool(pool_, config_.threads, config_.n_models), Part{});
}

Status LeveragingBagging::set_threads(std::uint32_t threads) {
  IRITHYLL_RETURN_IF_ERROR(check_threads(kName, threads));
  config_.threads = threads;
  start_pool();
  return Status::ok();
}

void LeveragingBagging::reset() {
  start_pool();
  Xorshift64 code_rng(context_.seed);
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
      for (std::size_t c = 0; c + 1 < k; ++c) std::swap(perm_[c], perm_[c + code_rng.below(k - c)]);
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
    if (!build_members()) {  // the base model refuses this width (a pipeline naming absent columns)
      width_ = context_.n_features;
      ++skipped_;
      return;
    }
  }
  bool change = false;
  if (pool_) {
    auto part = [&](std::size_t p) {
      const auto [first, last] = detail::part_range(members_.size(), pool_->n_parts(), p);
      parts_[p] = learn_members(first, last, x, y, weight);
    };
    pool_->run(part);
    // Combined in part order once every part is done. The draws are whole
    // numbers, so their sum in a double is exact and equals the
    // member-by-member sum one thread makes.
    for (const Part& p : parts_) {
      poisson_total_ += static_cast<double>(p.k_total);
      change = change || p.change;
    }
  } else {
    const Part p = learn_members(0, members_.size(), x, y, weight);
    poisson_total_ += static_cast<double>(p.k_total);
    change = p.change;
  }
  if (change) {
    // Reset the member whose detector estimates the largest error.
    std::size_t worst = 0;
    for (std::size_t i = 1; i < members_.size(); ++i)
      if (members_[i].detector.estimated_mean() > members_[worst].detector.estimated_mean()) worst = i;
    // A base model rebuilt from the same text cannot fail where it was built before.
    (void)new_member(members_[worst]);
    ++n_resets_;
  }
}

// Members [first, last) learn one sample. Touches nothing outside those
// members (each draws from its own stream), so disjoint ranges may run on
// different threads.
LeveragingBagging::Part LeveragingBagging::learn_members(std::size_t first, std::size_t last,
                                                         std::span<const double> x, double y, double weight) {
  Part part;
  const std::size_t cls = static_cast<std::size_t>(y);
  for (std::size_t i = first; i < last; ++i) {
    Member& m = members_[i];
    const double target = coded_ ? static_cast<double>(codes_[i * context_.n_classes + cls]) : y;
    const std::uint32_t k = sample_poisson_limit(m.rng, poisson_limit_);
    part.k_total += k;
    // The detector reads the member's error on the sample after learning it,
    // as MOA's LeveragingBag and River's do (see the class comment).
    double pred;
    if (m.model) {
      if (k > 0) m.model->learn_one(x, target, static_cast<double>(k) * weight);
      pred = m.model->predict_one(x);
    } else {
      if (k > 0) m.tree.learn_one(x, target, static_cast<double>(k) * weight);
      pred = m.tree.predict_one(x);
    }
    // Only a cut that raised the error estimate is a change (as MOA's LeveragingBag).
    const double before = m.detector.estimated_mean();
    if (m.detector.update(pred == target ? 0.0 : 1.0) == DriftSignal::kDrift && m.detector.estimated_mean() > before)
      part.change = true;
  }
  return part;
}

void LeveragingBagging::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  const std::size_t k = context_.n_classes;
  if (proba.size() != k) return;
  if (members_.empty() || x.size() != width_) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(k));
    return;
  }
  route_trees_.clear();
  for (const Member& m : members_)
    if (!m.model) route_trees_.push_back(&m.tree);
  route_xs_.assign(route_trees_.size(), x);
  Vfdt::route_together(route_trees_, route_xs_);
  std::fill(votes_.begin(), votes_.end(), 0.0);
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i].model) {
      members_[i].model->predict_proba_one(x, member_proba_);
    } else {
      members_[i].tree.predict_proba(x, member_proba_);
    }
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
  std::size_t bytes = sizeof(*this) + members_.capacity() * sizeof(Member) + parts_.capacity() * sizeof(Part) + codes_.capacity() +
                      perm_.capacity() * sizeof(std::uint32_t) +
                      (votes_.capacity() + member_proba_.capacity() + class_proba_.capacity()) * sizeof(double);
  for (const Member& m : members_) bytes += m.tree.memory_bytes() - sizeof(Vfdt) + (m.model ? m.model->memory_bytes() : 0);
  bytes += config_.base_model.capacity();
  return bytes;
}

}  // namespace irithyll
