#include "irithyll/ensemble/sgbt.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {

SGBT::SGBT() : SGBT(SGBTConfig{}, Loss(LossKind::kSquared)) {}

SGBT::SGBT(const SGBTConfig& config, Loss loss) : config_(config), loss_(loss), rng_(config.seed) {
  slots_.reserve(config_.n_steps);
  for (std::uint32_t s = 0; s < config_.n_steps; ++s) {
    std::unique_ptr<DriftDetector> d;
    if (config_.drift.kind != DriftKind::kNone) {
      auto made = make_drift_detector(config_.drift);
      if (made) d = std::move(*made);
    }
    slots_.emplace_back(config_.tree_config(s), std::move(d), config_.max_tree_samples);
  }
}

Result<SGBT> SGBT::make(const SGBTConfig& config, Loss loss) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  IRITHYLL_RETURN_IF_ERROR(loss.validate());
  return SGBT(config, loss);
}

std::uint32_t SGBT::train_count(double h) noexcept {
  switch (config_.variant) {
    case SGBTVariant::kStandard:
      return 1;
    case SGBTVariant::kSkip:
      return rng_.next_u64() % config_.skip_k == 0 ? 0u : 1u;
    case SGBTVariant::kAuto:
      // MI only where the hessian is p(1-p) <= 1/4: ceil(h * m) stays small.
      if (loss_.kind() != LossKind::kLogistic && loss_.kind() != LossKind::kSoftmax) return 1;
      [[fallthrough]];
    case SGBTVariant::kMultipleIterations: {
      const double reps = std::ceil(std::abs(h) * config_.mi_multiplier);
      // Bounded so that a huge hessian cannot stall the stream.
      return static_cast<std::uint32_t>(std::clamp(reps, 1.0, 1000.0));
    }
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

void SGBT::boost(std::span<const double> x, double y, double w, double offset) {
  // Software-pipelined over the steps: step s is routed (and its histogram
  // bins prefetched) before step s-1 is trained, so the cache misses of one
  // tree's histogram update overlap the next tree's routing. Trees are
  // independent given their (g, h), so the result equals the plain loop's.
  const double lr = config_.learning_rate;
  const double monitor_scale = drift_monitor_scale();
  double current = base_;
  struct Pending {
    TreeSlot* slot = nullptr;
    std::uint32_t leaf = 0, count = 0;
    double g = 0.0, h = 0.0, monitor = 0.0;
  } pending;
  for (TreeSlot& slot : slots_) {
    double g, h;
    loss_.grad_hess(y, current - offset, g, h);
    const std::uint32_t count = train_count(h);
    std::uint32_t leaf;
    const double p = slot.begin(x, count, leaf);
    if (pending.slot != nullptr) pending.slot->finish(x, pending.leaf, pending.g, pending.h, pending.monitor, pending.count);
    pending = Pending{&slot, leaf, count, g * w, h * w, std::abs(g) / monitor_scale};
    current += lr * p;
  }
  if (pending.slot != nullptr) pending.slot->finish(x, pending.leaf, pending.g, pending.h, pending.monitor, pending.count);
}

double SGBT::predict_raw(std::span<const double> x) const noexcept {
  double sum = 0.0;
  for (const TreeSlot& slot : slots_) sum += slot.predict(x);
  return base_ + config_.learning_rate * sum;
}

void SGBT::predict_raw_batch(std::span<const double> rows, std::size_t d, std::span<double> out) const noexcept {
  const std::size_t n = out.size();
  std::fill(out.begin(), out.end(), 0.0);
  for (const TreeSlot& slot : slots_)
    for (std::size_t i = 0; i < n; ++i) out[i] += slot.predict(rows.subspan(i * d, d));
  for (double& v : out) v = base_ + config_.learning_rate * v;
}

std::pair<double, double> SGBT::predict_raw_with_confidence(std::span<const double> x) const noexcept {
  double var = 0.0;
  const double lr = config_.learning_rate;
  for (const TreeSlot& slot : slots_) var += lr * lr * slot.active().leaf_variance(x);
  const double conf = samples_seen_ > 0 && var > 0.0 && std::isfinite(var) ? 1.0 / std::sqrt(var) : 0.0;
  return {predict_raw(x), conf};
}

ExportModel SGBT::export_model() const {
  ExportModel m;
  m.base_prediction = base_;
  m.learning_rate = config_.learning_rate;
  m.n_features = static_cast<std::uint32_t>(n_features_);
  m.trees.reserve(slots_.size());
  for (const TreeSlot& slot : slots_) {
    const HoeffdingTree& t = slot.active();
    ExportTree et;
    et.root = 0;
    et.nodes.resize(t.n_nodes());
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n) {
      ExportNode& e = et.nodes[n];
      e.is_leaf = t.is_leaf(n);
      if (e.is_leaf) {
        e.leaf_value = t.node_value(n);
      } else {
        e.feature = t.node(n).feature;
        e.threshold = t.node(n).threshold;
        e.left = t.node(n).left;
        e.right = t.node(n).left + 1;
      }
    }
    m.trees.push_back(std::move(et));
  }
  return m;
}

std::vector<double> SGBT::feature_importances() const {
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

std::size_t SGBT::n_trees() const {
  std::size_t n = 0;
  for (const TreeSlot& s : slots_) n += 1 + (s.alternate() != nullptr);
  return n;
}

std::size_t SGBT::n_leaves() const {
  std::size_t n = 0;
  for (const TreeSlot& s : slots_) n += s.active().n_leaves();
  return n;
}

std::uint64_t SGBT::n_replacements() const {
  std::uint64_t n = 0;
  for (const TreeSlot& s : slots_) n += s.n_replacements();
  return n;
}

void SGBT::reset() {
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
}

std::size_t SGBT::memory_bytes() const {
  std::size_t b = sizeof(*this) + (slots_.capacity() - slots_.size()) * sizeof(TreeSlot);
  for (const TreeSlot& s : slots_) b += s.memory_bytes();
  b += (warm_x_.capacity() + warm_y_.capacity() + warm_w_.capacity() + warm_offset_.capacity()) * sizeof(double);
  return b;
}

}  // namespace irithyll
