#include "irithyll/ensemble/sgbt.hpp"

#include "sgbt_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ensemble/tree_slot.hpp"

namespace irithyll {

SGBT::SGBT() : SGBT(SGBTConfig{}, Loss(LossKind::kSquared)) {}

SGBT::SGBT(const SGBTConfig& config, Loss loss)
    : config_(config),
      loss_(loss),
      rng_(config.seed),
      plain_(!config.per_sample_options()),
      plain_trees_(config.tree.leaf_model == TreeLeafModel::kConstant && config.tree.categorical.empty()) {
  slots_.reserve(config_.n_steps);
  for (std::uint32_t s = 0; s < config_.n_steps; ++s) add_slot();
  soft_ = config_.soft_routing;
  soft_auto_ = soft_ && !(config_.soft_bandwidth > 0.0);
  handoff_ = config_.handoff_window > 0;
  routed_ = soft_ || handoff_;
  track_contributions(config_.prunes());
}

void SGBT::track_contributions(bool on) {
  if (!on) {
    contrib_ewma_ = {};
    idle_run_ = {};
    prune_scratch_ = {};
    contrib_ = {};
    return;
  }
  contrib_ewma_.assign(slots_.size(), 0.0);
  idle_run_.assign(slots_.size(), 0);
  prune_scratch_.reserve(slots_.size());
  contrib_.assign(slots_.size(), 0.0);
}

void SGBT::add_slot() {
  const auto s = static_cast<std::uint32_t>(slots_.size());
  std::unique_ptr<DriftDetector> d;
  if (config_.drift.kind != DriftKind::kNone) {
    auto made = make_drift_detector(config_.drift);
    if (made) d = std::move(*made);
  }
  GradientTreeConfig tree = config_.tree_config(s);
  // The category penalty is in units of a gradient variance equal to the
  // hessian, which holds for the logistic and softmax losses only.
  if (loss_.kind() != LossKind::kLogistic && loss_.kind() != LossKind::kSoftmax) tree.categorical_penalty = 0.0;
  slots_.emplace_back(tree, std::move(d), config_.max_tree_samples);
  if (config_.handoff_window > 0) slots_.back().set_handoff_window(config_.handoff_window);
}

SGBT::SGBT(SGBT&&) noexcept = default;
SGBT& SGBT::operator=(SGBT&&) noexcept = default;
SGBT::~SGBT() { pipeline_.reset(); }  // drains, stops the workers, then the slots go
std::size_t SGBT::n_steps() const noexcept { return slots_.size(); }
const TreeSlot& SGBT::slot(std::size_t s) const {
  sync();
  return slots_[s];
}

Result<SGBT> SGBT::make(const SGBTConfig& config, Loss loss) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  IRITHYLL_RETURN_IF_ERROR(loss.validate());
  return SGBT(config, loss);
}

namespace {
// MI repetitions for hessian h: ceil(|h| m), bounded so that a huge hessian
// cannot stall the stream.
std::uint32_t multiple_iterations(double h, double m) noexcept {
  return static_cast<std::uint32_t>(std::clamp(std::ceil(std::abs(h) * m), 1.0, 1000.0));
}
}  // namespace

// Inlined into the boosting loop (called once per step; GCC stops inlining it
// on its own once boost has two loops).
__attribute__((always_inline)) inline std::uint32_t SGBT::train_count(double h) noexcept {
  switch (config_.variant) {
    case SGBTVariant::kStandard:
      return 1;
    case SGBTVariant::kSkip:
      return rng_.next_u64() % config_.skip_k == 0 ? 0u : 1u;
    case SGBTVariant::kAuto:
      // MI only where the hessian is p(1-p) <= 1/4: ceil(h * m) stays small.
      if (loss_.kind() != LossKind::kLogistic && loss_.kind() != LossKind::kSoftmax) return 1;
      [[fallthrough]];
    case SGBTVariant::kMultipleIterations:
      return multiple_iterations(h, config_.mi_multiplier);
  }
  return 1;
}

double SGBT::drift_monitor_scale() const noexcept {
  if (!scale_drift_monitor_ || !loss_.gradient_scales_with_target() || target_n_ < 2) return 1.0;
  const double sd = std::sqrt(target_m2_ / static_cast<double>(target_n_));
  return sd > 0.0 && std::isfinite(sd) ? sd : 1.0;
}

void SGBT::train_one(std::span<const double> x, double y, double w, double offset) {
  ++samples_seen_;
  if (n_features_ == 0) n_features_ = x.size();
  if (soft_) track_bandwidths(x);
  if (loss_.gradient_scales_with_target()) {
    ++target_n_;
    const double d = y - target_mean_;
    target_mean_ += d / static_cast<double>(target_n_);
    target_m2_ += d * (y - target_mean_);
  }
  if (initialized_) {
    boost(x, y, w, offset);
    return;
  }
  warm_x_.insert(warm_x_.end(), x.begin(), x.end());
  warm_y_.push_back(y);
  warm_w_.push_back(w);
  warm_offset_.push_back(offset);
  base_ = loss_.initial_prediction(warm_y_, warm_w_);
  if (warm_y_.size() < config_.initial_target_count) return;
  initialized_ = true;
  const std::size_t d = n_features_;
  for (std::size_t i = 0; i < warm_y_.size(); ++i)
    boost(std::span<const double>(warm_x_).subspan(i * d, d), warm_y_[i], warm_w_[i], warm_offset_[i]);
  std::vector<double>().swap(warm_x_);
  std::vector<double>().swap(warm_y_);
  std::vector<double>().swap(warm_w_);
  std::vector<double>().swap(warm_offset_);
}

double SGBT::error_weight(double y) noexcept {
  // The error is taken against the base prediction (as the Rust library does:
  // known before any tree is trained), on the response scale so that the
  // logistic loss compares a label with a probability, not a log-odds.
  const double a = config_.error_weight_alpha;
  const double err = std::abs(y - loss_.transform(base_));
  if (!std::isfinite(err)) return 1.0;
  if (!error_seeded_) {
    error_seeded_ = true;
    error_rolling_ = err;
    return 1.0;
  }
  const double weight = std::min(10.0, 1.0 + err / (error_rolling_ + 1e-15));
  error_rolling_ = a * err + (1.0 - a) * error_rolling_;
  return weight;
}

void SGBT::adapt_max_tree_samples(double sd) noexcept {
  // The Rust library recomputes this before training from a separate pass over
  // the trees; here the contributions of this sample's own pass set the
  // limit from the next sample on (no second traversal).
  mts_roll_ = 0.999 * mts_roll_ + 0.001 * sd;
  const double norm = mts_roll_ > 1e-10 ? sd / mts_roll_ : 1.0;
  const double base = static_cast<double>(config_.max_tree_samples);
  const double floor = std::max(base * config_.adaptive_mts_floor, 2.0 * config_.tree.grace_period);
  const double eff = std::max(base / (1.0 + config_.adaptive_mts_k * norm), floor);
  const auto n = static_cast<std::uint64_t>(eff);
  for (TreeSlot& slot : slots_) slot.set_max_tree_samples(n);
}

void SGBT::prune(std::span<const double> contributions) noexcept {
  const double a = config_.prune_alpha();
  bool any_pruned = false;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    contrib_ewma_[s] = a * contributions[s] + (1.0 - a) * contrib_ewma_[s];
    if (config_.quality_prune_alpha <= 0.0) continue;
    if (contrib_ewma_[s] >= config_.quality_prune_threshold) {
      idle_run_[s] = 0;
    } else if (++idle_run_[s] >= config_.quality_prune_patience) {
      slots_[s].prune();
      idle_run_[s] = std::numeric_limits<std::uint32_t>::max();  // marks "pruned this sample"
      any_pruned = true;
    }
  }
  const std::uint64_t interval = config_.proactive_prune_interval;
  if (interval > 0 && samples_seen_ % interval == 0) prune_weakest(interval / 2);
  if (any_pruned)
    for (std::uint32_t& r : idle_run_)
      if (r == std::numeric_limits<std::uint32_t>::max()) r = 0;
}

bool SGBT::prune_weakest(std::uint64_t mature_after) noexcept {
  prune_scratch_.clear();
  std::size_t worst = slots_.size();
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const bool pruned_now = idle_run_[s] == std::numeric_limits<std::uint32_t>::max();
    if (pruned_now || slots_[s].active().n_samples_seen() < mature_after) continue;
    prune_scratch_.push_back(contrib_ewma_[s]);
    if (worst == slots_.size() || contrib_ewma_[s] < contrib_ewma_[worst]) worst = s;
  }
  if (prune_scratch_.empty()) return false;
  const auto q = prune_scratch_.begin() + static_cast<std::ptrdiff_t>((prune_scratch_.size() - 1) / 4);
  std::nth_element(prune_scratch_.begin(), q, prune_scratch_.end());
  if (!(contrib_ewma_[worst] < *q)) return false;
  slots_[worst].prune();
  return true;
}

namespace {

// Trains steps [first, last) on one sample from the running score `current`
// (F at `first`) and returns F at `last`. count(i, h) is the repeat count of
// the range's i-th step. Software-pipelined over the steps: step s is routed
// (and its histogram bins prefetched) before step s-1 is trained, so the
// cache misses of one tree's histogram update overlap the next tree's
// routing. Trees are independent given their (g, h), so the result equals
// the plain loop's.
template <class CountFn>
double train_step_range(TreeSlot* first, TreeSlot* last, const Loss& loss, double lr, std::span<const double> x, double y,
                        double w, double offset, double current, double monitor_scale, CountFn&& count) {
  struct Pending {
    TreeSlot* slot = nullptr;
    std::uint32_t leaf = 0, count = 0;
    double g = 0.0, h = 0.0, monitor = 0.0;
  } pending;
  for (TreeSlot* slot = first; slot != last; ++slot) {
    double g, h;
    loss.grad_hess(y, current - offset, g, h);
    const std::uint32_t n = count(static_cast<std::size_t>(slot - first), h);
    std::uint32_t leaf;
    const double p = slot->begin(x, n, leaf);
    if (pending.slot != nullptr) pending.slot->finish(x, pending.leaf, pending.g, pending.h, pending.monitor, pending.count);
    pending = Pending{slot, leaf, n, g * w, h * w, std::abs(g) / monitor_scale};
    current += lr * p;
  }
  if (pending.slot != nullptr) pending.slot->finish(x, pending.leaf, pending.g, pending.h, pending.monitor, pending.count);
  return current;
}

}  // namespace

void SGBT::boost(std::span<const double> x, double y, double w, double offset) {
  if (!plain_) {
    if (handoff_)
      boost_with_options<true>(x, y, w, offset);
    else
      boost_with_options<false>(x, y, w, offset);
    return;
  }
  // No committee option: the option-free loop, over all steps or, with more
  // threads, over the first stage here and the rest on the workers.
  if (pipeline_stages() >= 2) {
    // A reader that had to wait for the workers (a prediction right after a
    // sample, as in prequential evaluation) gains nothing from the pipeline
    // and pays a thread hand-over per sample, so the next samples train on
    // this thread alone. Both paths give the same trees, so switching is free.
    if (sequential_run_ == 0 && (pipeline_ || start_pipeline(x.size()))) {
      boost_pipelined(x, y, w, offset);
      return;
    }
    if (sequential_run_ > 0) --sequential_run_;
    if (pipeline_) pipeline_->wait_idle();
  }
  TreeSlot* const slots = slots_.data();
  train_step_range(slots, slots + slots_.size(), loss_, config_.learning_rate, x, y, w, offset, base_,
                   drift_monitor_scale(), [this](std::size_t, double h) { return train_count(h); });
}

void SGBT::set_threads(std::uint32_t threads) {
  pipeline_.reset();  // drains what is queued, then stops the workers
  skip_counts_.clear();
  sequential_run_ = 0;
  config_.threads = threads;
}

std::size_t SGBT::pipeline_stages() const noexcept {
  return std::min<std::size_t>(config_.threads, slots_.size());
}

std::size_t SGBT::stage_begin(std::size_t stage) const noexcept {
  // Equal shares of the steps (they cost alike: one tree each, same depth
  // and bins); a stage count above n_steps was capped by pipeline_stages.
  return stage * slots_.size() / pipeline_stages();
}

// Out of line, so that the sequential loop above is compiled as if alone.
__attribute__((noinline)) void SGBT::boost_pipelined(std::span<const double> x, double y, double w, double offset) {
  const double monitor_scale = drift_monitor_scale();
  TreeSlot* const slots = slots_.data();
  const auto count = [this](std::size_t, double h) { return train_count(h); };
  const std::size_t k = stage_begin(1);
  const double current =
      train_step_range(slots, slots + k, loss_, config_.learning_rate, x, y, w, offset, base_, monitor_scale, count);
  // The Skip variant draws once per step from the committee's stream: the
  // workers' draws follow stage 0's here, in step order.
  std::span<const std::uint32_t> counts;
  if (config_.variant == SGBTVariant::kSkip) {
    for (std::uint32_t& c : skip_counts_) c = train_count(0.0);
    counts = skip_counts_;
  }
  pipeline_->push(x, y, w, offset, config_.learning_rate, current, monitor_scale, counts);
}

bool SGBT::start_pipeline(std::size_t n_features) {
  const std::size_t k = stage_begin(1), n = slots_.size(), stages = pipeline_stages();
  skip_counts_.assign(config_.variant == SGBTVariant::kSkip ? n - k : 0, 0);
  const Loss loss = loss_;
  const bool mi = config_.variant == SGBTVariant::kMultipleIterations ||
                  (config_.variant == SGBTVariant::kAuto &&
                   (loss_.kind() == LossKind::kLogistic || loss_.kind() == LossKind::kSoftmax));
  const double mi_multiplier = config_.mi_multiplier;
  std::vector<SGBTPipeline::Stage> workers;
  workers.reserve(stages - 1);
  for (std::size_t j = 1; j < stages; ++j) {
    // A worker's context is copied or points into slots_'s buffer, which a
    // move of this SGBT keeps, so the pipeline survives moves of its owner.
    TreeSlot* const first = slots_.data() + stage_begin(j);
    TreeSlot* const last = slots_.data() + stage_begin(j + 1);
    const std::size_t count_offset = stage_begin(j) - k;  // this stage's draws among the workers'
    workers.emplace_back([first, last, count_offset, loss, mi, mi_multiplier](const SGBTPipeline::Sample& s) {
      const auto count = [&](std::size_t i, double h) -> std::uint32_t {
        if (!s.counts.empty()) return s.counts[count_offset + i];
        return mi ? multiple_iterations(h, mi_multiplier) : 1u;
      };
      return train_step_range(first, last, loss, s.learning_rate, s.x, s.y, s.w, s.offset, s.current, s.monitor_scale,
                              count);
    });
  }
  pipeline_ = SGBTPipeline::make(n_features, n - k, std::move(workers));
  // Refused threads: train on this thread for a while, then try again.
  if (!pipeline_) sequential_run_ = kSequentialAfterWait;
  return pipeline_ != nullptr;
}

void SGBT::drain() const {
  if (!pipeline_->idle()) sequential_run_ = kSequentialAfterWait;
  pipeline_->wait_idle();
}

template <bool kHandoff>
void SGBT::boost_with_options(std::span<const double> x, double y, double w, double offset) {
  // The plain loop plus the committee options' bookkeeping and, with
  // kHandoff, the graduated handoff's blend (see train_step_range for the
  // software pipelining).
  const double lr = config_.learning_rate;
  const double monitor_scale = drift_monitor_scale();
  if (config_.error_weight_alpha > 0.0) w *= error_weight(y);
  double current = base_;
  struct Pending {
    TreeSlot* slot = nullptr;
    std::uint32_t leaf = 0, count = 0;
    double g = 0.0, h = 0.0, monitor = 0.0;
  } pending;
  const bool adaptive_mts = config_.adaptive_mts_k > 0.0;
  double c_mean = 0.0, c_m2 = 0.0;  // Welford over the contributions lr * p
  std::size_t c_n = 0;
  for (TreeSlot& slot : slots_) {
    double g, h;
    loss_.grad_hess(y, current - offset, g, h);
    const std::uint32_t count = train_count(h);
    std::uint32_t leaf;
    double p;
    if constexpr (kHandoff) {
      // The step's output is the handoff blend, so later steps' gradients
      // see what the committee predicts.
      slot.tick_handoff();
      p = slot.begin(x, count, leaf);
      if (const GradientTree* r = slot.retiring()) {
        const double a = slot.retiring_weight();
        p = a * r->predict(x) + (1.0 - a) * p;
      }
    } else {
      p = slot.begin(x, count, leaf);
    }
    if (pending.slot != nullptr) pending.slot->finish(x, pending.leaf, pending.g, pending.h, pending.monitor, pending.count);
    pending = Pending{&slot, leaf, count, g * w, h * w, std::abs(g) / monitor_scale};
    current += lr * p;
    if (!contrib_.empty()) contrib_[static_cast<std::size_t>(&slot - slots_.data())] = std::abs(lr * p);
    if (adaptive_mts) {
      const double c = lr * p, d = c - c_mean;
      c_mean += d / static_cast<double>(++c_n);
      c_m2 += d * (c - c_mean);
    }
  }
  if (pending.slot != nullptr) pending.slot->finish(x, pending.leaf, pending.g, pending.h, pending.monitor, pending.count);
  if (adaptive_mts && c_n > 1) adapt_max_tree_samples(std::sqrt(c_m2 / static_cast<double>(c_n - 1)));
  if (!contrib_.empty()) prune(contrib_);
}

double SGBT::predict_raw(std::span<const double> x) const noexcept {
  if (routed_) {
    sync();
    return predict_raw_routed(x);
  }
  return plain_trees_ ? sum_trees<true>(x) : sum_trees<false>(x);
}

template <bool kPlainTrees>
double SGBT::sum_trees(std::span<const double> x) const noexcept {
  const auto one = [&x](const TreeSlot& slot) {
    if constexpr (kPlainTrees)
      return slot.predict_plain(x);
    else
      return slot.predict(x);
  };
  double sum = 0.0;
  std::size_t s = 0;
  if (pipeline_) {
    // Stage 0's trees are trained on this thread only: sum them while the
    // workers finish the later stages, then wait (same order, same sum).
    for (const std::size_t k = stage_begin(1); s < k; ++s) sum += one(slots_[s]);
    drain();
  }
  for (; s < slots_.size(); ++s) sum += one(slots_[s]);
  return base_ + config_.learning_rate * sum;
}

void SGBT::predict_raw_batch(std::span<const double> rows, std::size_t d, std::span<double> out) const noexcept {
  sync();
  const std::size_t n = out.size();
  if (routed_) {
    for (std::size_t i = 0; i < n; ++i) out[i] = predict_raw_routed(rows.subspan(i * d, d));
    return;
  }
  std::fill(out.begin(), out.end(), 0.0);
  for (const TreeSlot& slot : slots_)
    for (std::size_t i = 0; i < n; ++i) out[i] += slot.predict(rows.subspan(i * d, d));
  for (double& v : out) v = base_ + config_.learning_rate * v;
}

std::pair<double, double> SGBT::predict_raw_with_confidence(std::span<const double> x) const noexcept {
  sync();
  double var = 0.0;
  const double lr = config_.learning_rate;
  for (const TreeSlot& slot : slots_) var += lr * lr * slot.active().leaf_variance(x);
  const double conf = samples_seen_ > 0 && var > 0.0 && std::isfinite(var) ? 1.0 / std::sqrt(var) : 0.0;
  return {predict_raw(x), conf};
}

ExportModel SGBT::export_model() const {
  sync();
  ExportModel m;
  m.base_prediction = base_;
  m.learning_rate = config_.learning_rate;
  m.n_features = static_cast<std::uint32_t>(n_features_);
  if (soft_)
    m.unsupported =
        "soft-routing is on: the packed formats route hard (x > threshold goes right) and cannot reproduce "
        "the soft prediction; predict from the checkpoint, or train with soft-routing off";
  else if (config_.tree.leaf_model != TreeLeafModel::kConstant)
    m.unsupported = "leaf-model " + std::string(tree_leaf_model_name(config_.tree.leaf_model)) +
                    " is not supported by the packed formats (they carry constant leaves only; use leaf-model constant)";
  m.trees.reserve(slots_.size());
  // A tree's leaves scaled by `share`: during a graduated handoff the slot's
  // output a r + (1 - a) active is exported as two trees, exact for the
  // moment of export (a packed model does not learn, so a stays put).
  const auto add_tree = [&m](const GradientTree& t, double share) {
    ExportTree et;
    et.root = 0;
    et.nodes.resize(t.n_nodes());
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n) {
      ExportNode& e = et.nodes[n];
      e.is_leaf = t.is_leaf(n);
      if (e.is_leaf) {
        e.leaf_value = share * t.node_value(n);
      } else {
        e.feature = t.node(n).feature;
        e.threshold = t.node(n).threshold;
        e.left = t.node(n).left;
        e.right = t.node(n).left + 1;
        e.categorical = t.is_categorical_split(n);
        e.category_mask = t.category_mask(n);
      }
    }
    m.trees.push_back(std::move(et));
  };
  for (const TreeSlot& slot : slots_) {
    if (const GradientTree* r = slot.retiring()) {
      const double a = slot.retiring_weight();
      add_tree(*r, a);
      add_tree(slot.active(), 1.0 - a);
    } else {
      add_tree(slot.active(), 1.0);
    }
  }
  return m;
}

std::vector<double> SGBT::feature_importances() const {
  sync();
  std::vector<double> imp(n_features_, 0.0);
  for (const TreeSlot& slot : slots_) {
    const auto g = slot.active().split_gains();
    for (std::size_t f = 0; f < g.size() && f < imp.size(); ++f) imp[f] += g[f];
  }
  double total = 0.0;
  for (double v : imp) total += v;
  if (!(total > 0.0)) return {};
  for (double& v : imp) v /= total;
  return imp;
}

std::vector<std::uint64_t> SGBT::feature_split_counts() const {
  sync();
  std::vector<std::uint64_t> counts(n_features_, 0);
  for (const TreeSlot& slot : slots_) {
    const GradientTree& t = slot.active();
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n)
      if (!t.is_leaf(n) && t.node(n).feature < counts.size()) ++counts[t.node(n).feature];
  }
  return counts;
}

std::size_t SGBT::n_trees() const {
  sync();
  std::size_t n = 0;
  for (const TreeSlot& s : slots_) n += 1 + (s.alternate() != nullptr);
  return n;
}

std::size_t SGBT::n_leaves() const {
  sync();
  std::size_t n = 0;
  for (const TreeSlot& s : slots_) n += s.active().n_leaves();
  return n;
}

std::uint64_t SGBT::n_replacements() const {
  sync();
  std::uint64_t n = 0;
  for (const TreeSlot& s : slots_) n += s.n_replacements();
  return n;
}

void SGBT::reset() {
  // Drains and stops the workers: the next first sample may have another
  // width, and the pipeline restarts with it.
  pipeline_.reset();
  for (TreeSlot& s : slots_) s.reset();
  rng_.set_state(config_.seed);
  n_features_ = 0;
  samples_seen_ = 0;
  initialized_ = false;
  base_ = 0.0;
  warm_x_.clear();
  warm_y_.clear();
  warm_w_.clear();
  warm_offset_.clear();
  scale_drift_monitor_ = true;
  target_n_ = 0;
  target_mean_ = target_m2_ = 0.0;
  error_rolling_ = 0.0;
  error_seeded_ = false;
  mts_roll_ = 0.0;
  for (TreeSlot& s : slots_) s.set_max_tree_samples(config_.max_tree_samples);
  std::fill(contrib_ewma_.begin(), contrib_ewma_.end(), 0.0);
  std::fill(idle_run_.begin(), idle_run_.end(), 0u);
  bandwidth_.clear();
  gap_bw_.clear();
  x_mean_.clear();
  x_m2_.clear();
  x_n_.clear();
}

std::size_t SGBT::memory_bytes() const {
  sync();
  std::size_t b = sizeof(*this) + (slots_.capacity() - slots_.size()) * sizeof(TreeSlot);
  for (const TreeSlot& s : slots_) b += s.memory_bytes();
  b += (warm_x_.capacity() + warm_y_.capacity() + warm_w_.capacity() + warm_offset_.capacity()) * sizeof(double);
  b += (contrib_ewma_.capacity() + prune_scratch_.capacity() + contrib_.capacity()) * sizeof(double) +
       idle_run_.capacity() * sizeof(std::uint32_t) + skip_counts_.capacity() * sizeof(std::uint32_t);
  b += (bandwidth_.capacity() + gap_bw_.capacity() + x_mean_.capacity() + x_m2_.capacity() + gap_scratch_.capacity()) *
           sizeof(double) +
       x_n_.capacity() * sizeof(std::uint64_t) + threshold_scratch_.capacity() * sizeof(threshold_scratch_[0]);
  if (pipeline_) b += pipeline_->memory_bytes();
  return b;
}

}  // namespace irithyll
