#include "irithyll/ensemble/bagged_sgbt.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/worker_pool.hpp"
#include "irithyll/core/poisson.hpp"
#include "irithyll/core/rng.hpp"
#include "ensemble/sgbt_family.hpp"

namespace irithyll {

namespace {

constexpr std::uint32_t kBaggedSgbtFormatVersion = 3;

}  // namespace

BaggedSGBT::BaggedSGBT() = default;
BaggedSGBT::~BaggedSGBT() = default;
BaggedSGBT::BaggedSGBT(BaggedSGBT&&) noexcept = default;
BaggedSGBT& BaggedSGBT::operator=(BaggedSGBT&&) noexcept = default;

BaggedSGBT::BaggedSGBT(const BaggedSGBTConfig& config, const LearnerContext& context)
    : config_(config),
      task_(context.task),
      n_classes_(context.task == Task::kClassification ? context.n_classes : 0),
      seed_(context.seed) {
  reset();
}

Result<std::unique_ptr<BaggedSGBT>> BaggedSGBT::make(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  const std::size_t n_classes = context.n_classes;
  if (context.task == Task::kClassification && (n_classes < 2 || n_classes > 65536))
    return Status::invalid_argument("bagged_sgbt: classification needs 2..65536 classes, got " + std::to_string(n_classes));
  LearnerContext bag = context;
  bag.n_features = 0;  // a bag's width comes from its first sample, like the ensemble's
  IRITHYLL_RETURN_IF_ERROR(SGBTLearner::check(config.sgbt, bag).with_context(kName));  // the SGBT's own task checks
  return std::make_unique<BaggedSGBT>(config, context);
}

void BaggedSGBT::reset() {
  rng_ = Xorshift64(seed_);
  bags_.clear();
  bags_.reserve(config_.n_bags);
  for (std::uint32_t b = 0; b < config_.n_bags; ++b) {
    SGBTConfig c = config_.sgbt;
    c.seed = derive_seed(seed_, b);
    c.threads = 1;  // the threads split the bags (threads() below)
    bags_.emplace_back(c, LearnerContext{.task = task_, .n_classes = n_classes_, .seed = c.seed});
  }
  repeats_.assign(config_.n_bags, 0);
  detail::fit_pool(pool_, config_.sgbt.threads, config_.n_bags);
  bag_proba_.assign(n_classes(), 0.0);
  mean_proba_.assign(n_classes(), 0.0);
  samples_seen_ = skipped_ = 0;
}

void BaggedSGBT::learn_one(std::span<const double> x, double y, double weight) {
  if (!sample_admissible(x, y, weight, n_features(), task_, n_classes_)) {
    ++skipped_;
    return;
  }
  const double limit = std::exp(-config_.lambda);
  // Every count first, in bag order from the one generator, so any split of
  // the bags over threads learns the same repeats.
  for (std::uint32_t& k : repeats_) k = sample_poisson_limit(rng_, limit);
  auto learn = [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b)
      for (std::uint32_t r = 0; r < repeats_[b]; ++r) bags_[b].learn_one(x, y, weight);  // k repeats (Oza & Russell)
  };
  if (pool_) {
    const std::size_t parts = pool_->n_parts();
    auto part = [&](std::size_t p) {
      const auto [first, last] = detail::part_range(bags_.size(), parts, p);
      learn(first, last);
    };
    pool_->run(part);
  } else {
    learn(0, bags_.size());
  }
  ++samples_seen_;
}

Status BaggedSGBT::set_threads(std::uint32_t threads) {
  IRITHYLL_RETURN_IF_ERROR(check_threads(kName, threads));
  config_.sgbt.threads = threads;
  detail::fit_pool(pool_, threads, bags_.size());
  return Status::ok();
}

double BaggedSGBT::predict_one(std::span<const double> x) const {
  if (task_ == Task::kRegression) {
    double s = 0.0;
    for (const SGBTLearner& bag : bags_) s += bag.predict_one(x);
    return s / static_cast<double>(bags_.size());
  }
  predict_proba_one(x, mean_proba_);
  return static_cast<double>(std::max_element(mean_proba_.begin(), mean_proba_.end()) - mean_proba_.begin());
}

void BaggedSGBT::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (task_ != Task::kClassification || proba.size() != n_classes_) return;
  std::fill(proba.begin(), proba.end(), 0.0);
  for (const SGBTLearner& bag : bags_) {
    bag.predict_proba_one(x, bag_proba_);
    for (std::size_t c = 0; c < n_classes_; ++c) proba[c] += bag_proba_[c];
  }
  for (double& p : proba) p /= static_cast<double>(bags_.size());
}

std::size_t BaggedSGBT::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + (bag_proba_.capacity() + mean_proba_.capacity()) * sizeof(double) +
                      (bags_.capacity() - bags_.size()) * sizeof(SGBTLearner);
  for (const SGBTLearner& bag : bags_) bytes += bag.memory_bytes();
  return bytes;
}

// Version 1 wrote the binary config (and every bag its own); version 2 the
// settings by name once, the seed in the context, and the bags' states alone,
// whose trees still carried their binary configs; version 3 derives the
// trees' settings from the named ones.
void BaggedSGBT::encode(ByteWriter& out) const {
  out.u32(kBaggedSgbtFormatVersion);
  ensemble_detail::encode_settings<BaggedSGBT>(
      config_, LearnerContext{.task = task_, .n_classes = n_classes(), .seed = seed_}, out);
  out.u64(rng_.state());
  out.u64(samples_seen_);
  out.u64(skipped_);
  for (const SGBTLearner& bag : bags_) bag.encode_state(out);
}

Status BaggedSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("bagged_sgbt version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kBaggedSgbtFormatVersion)
    return Status::corruption("bagged_sgbt: unknown record version " + std::to_string(version));
  if (version >= 2) {  // 2: the bags' trees carry their binary configs
    const TreeSettings trees = version == 2 ? TreeSettings::kInRecord : TreeSettings::kDerived;
    auto made = ensemble_detail::decode_settings<BaggedSGBT>(in);
    if (!made) return made.status();
    BaggedSGBT& m = **made;
    m.rng_.set_state(in.u64("rng"));
    m.samples_seen_ = in.u64("samples_seen");
    m.skipped_ = in.u64("skipped");
    if (!in.ok()) return in.status();
    std::size_t d = 0;
    for (SGBTLearner& bag : m.bags_) {
      IRITHYLL_RETURN_IF_ERROR(bag.decode_state(in, trees).with_context("bagged_sgbt bag"));
      // A bag that drew k = 0 for every sample so far has no width yet (0).
      if (d == 0) d = bag.n_features();
      if (bag.n_features() != 0 && bag.n_features() != d)
        return Status::corruption("bagged_sgbt: bags disagree on the feature count");
    }
    *this = std::move(m);
    return Status::ok();
  }
  BaggedSGBTConfig config;
  IRITHYLL_RETURN_IF_ERROR(config.decode(in));
  const std::uint8_t task = in.u8("task");
  const std::uint64_t k = in.u64("n_classes"), seed = in.u64("seed"), rng = in.u64("rng");
  const std::uint64_t seen = in.u64("samples_seen"), skipped = in.u64("skipped");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("bagged_sgbt: bad task");
  const Task t = static_cast<Task>(task);
  if (t == Task::kClassification ? (k < 2 || k > 65536) : k != 0) return Status::corruption("bagged_sgbt: bad class count");
  IRITHYLL_RETURN_IF_ERROR(
      ensemble_detail::check_slots_fit<BaggedSGBT>(config, {.task = t, .n_classes = static_cast<std::size_t>(k)}, in));
  std::vector<SGBTLearner> bags(config.n_bags);
  std::size_t d = 0;
  for (std::uint32_t b = 0; b < config.n_bags; ++b) {
    IRITHYLL_RETURN_IF_ERROR(bags[b].decode(in).with_context("bagged_sgbt bag"));
    if (bags[b].task() != t || bags[b].n_classes() != k) return Status::corruption("bagged_sgbt: bag task or classes differ");
    // A bag that drew k = 0 for every sample so far has no width yet (0).
    const std::size_t db = bags[b].n_features();
    if (d == 0) d = db;
    if (db != 0 && db != d) return Status::corruption("bagged_sgbt: bags disagree on the feature count");
  }
  config_ = config;
  task_ = t;
  n_classes_ = k;
  seed_ = seed;
  rng_.set_state(rng);
  samples_seen_ = seen;
  skipped_ = skipped;
  bags_ = std::move(bags);
  repeats_.assign(bags_.size(), 0);
  detail::fit_pool(pool_, config_.sgbt.threads, bags_.size());
  bag_proba_.assign(n_classes(), 0.0);
  mean_proba_.assign(n_classes(), 0.0);
  return Status::ok();
}

}  // namespace irithyll
