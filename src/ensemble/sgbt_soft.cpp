// SGBT's routing options: soft routing with automatic per-feature bandwidths
// and the prediction side of the graduated handoff (tree_slot.hpp).
//
// Automatic bandwidth of feature f (the Rust library derives it from the split
// thresholds alone: infinite, i.e. hard routing, until a tree replacement
// first refreshes it, and infinite whenever a feature has fewer than two
// distinct thresholds). Here it is the larger of
//   spread_f = kSpreadBins * sqrt(12) sd_f / n_bins
//     (sqrt(12) sd is the range of a uniform with that sd, so this is about
//     kSpreadBins histogram bins: the resolution a threshold is known to;
//     sd_f is the running Welford sd of x_f over every sample, warm-up
//     included, so it exists from the second sample on), and
//   gap_f = kGapScale * median gap between consecutive distinct thresholds
//     on f over the active trees (>= 3 distinct thresholds; refreshed every
//     grace period, the earliest a leaf can split).
// spread_f keeps every split soft from the first one on; gap_f widens the
// blend where the trees resolve f only coarsely.
#include <algorithm>
#include <cmath>

#include "irithyll/ensemble/sgbt.hpp"
#include "ensemble/tree_slot.hpp"
#include "tree/soft_routing.hpp"

namespace irithyll {
namespace {
constexpr double kSpreadBins = 1.0;
constexpr double kGapScale = 0.5;
}  // namespace

void SGBT::track_bandwidths(std::span<const double> x) {
  const std::size_t d = x.size();
  if (!soft_auto_) {
    if (bandwidth_.size() != d) bandwidth_.assign(d, config_.soft_bandwidth);
    return;
  }
  if (x_n_.size() != d) {
    x_n_.assign(d, 0);
    x_mean_.assign(d, 0.0);
    x_m2_.assign(d, 0.0);
    gap_bw_.assign(d, 0.0);
    bandwidth_.assign(d, 0.0);
  }
  for (std::size_t f = 0; f < d; ++f) {
    const double v = x[f];
    if (!std::isfinite(v)) continue;
    const double delta = v - x_mean_[f];
    x_mean_[f] += delta / static_cast<double>(++x_n_[f]);
    x_m2_[f] += delta * (v - x_mean_[f]);
  }
  if (initialized_ && samples_seen_ % config_.tree.grace_period == 0) refresh_gap_bandwidths();
  const double per_sd = kSpreadBins * std::sqrt(12.0) / static_cast<double>(config_.tree.n_bins);
  for (std::size_t f = 0; f < d; ++f) {
    const double sd = x_n_[f] > 1 ? std::sqrt(x_m2_[f] / static_cast<double>(x_n_[f] - 1)) : 0.0;
    bandwidth_[f] = std::max(per_sd * sd, gap_bw_[f]);  // 0 (no spread yet): hard
  }
}

void SGBT::refresh_gap_bandwidths() {
  sync();  // reads every tree's thresholds (threads >= 2: the workers' too)
  threshold_scratch_.clear();
  for (const TreeSlot& slot : slots_) {
    const GradientTree& t = slot.active();
    for (std::uint32_t n = 0; n < t.n_nodes(); ++n)
      if (!t.is_leaf(n) && std::isfinite(t.node(n).threshold))
        threshold_scratch_.emplace_back(t.node(n).feature, t.node(n).threshold);
  }
  std::sort(threshold_scratch_.begin(), threshold_scratch_.end());
  std::fill(gap_bw_.begin(), gap_bw_.end(), 0.0);
  for (std::size_t i = 0; i < threshold_scratch_.size();) {
    const std::uint32_t f = threshold_scratch_[i].first;
    gap_scratch_.clear();
    double last = threshold_scratch_[i].second;
    std::size_t j = i + 1;
    for (; j < threshold_scratch_.size() && threshold_scratch_[j].first == f; ++j) {
      const double t = threshold_scratch_[j].second;
      if (t - last > 1e-12 * std::max(1.0, std::abs(last))) gap_scratch_.push_back(t - last);
      last = t;
    }
    if (gap_scratch_.size() >= 2 && f < gap_bw_.size()) {
      const auto mid = gap_scratch_.begin() + static_cast<std::ptrdiff_t>(gap_scratch_.size() / 2);
      std::nth_element(gap_scratch_.begin(), mid, gap_scratch_.end());
      gap_bw_[f] = kGapScale * *mid;
    }
    i = j;
  }
}

double SGBT::routed_output(const TreeSlot& slot, std::span<const double> x) const noexcept {
  const SoftKernel kernel = config_.soft_kernel;
  double v = soft_ ? soft_predict(slot.active(), x, bandwidth_, kernel) : slot.active().predict(x);
  if (const GradientTree* r = slot.retiring()) {
    const double a = slot.retiring_weight();
    v = a * (soft_ ? soft_predict(*r, x, bandwidth_, kernel) : r->predict(x)) + (1.0 - a) * v;
  }
  return v;
}

double SGBT::predict_raw_routed(std::span<const double> x) const noexcept {
  double sum = 0.0;
  for (const TreeSlot& slot : slots_) sum += routed_output(slot, x);
  return base_ + config_.learning_rate * sum;
}

double SGBT::step_output(std::size_t s, std::span<const double> x) const noexcept {
  sync();
  return routed_ ? routed_output(slots_[s], x) : slots_[s].predict(x);
}

void SGBT::encode_routing(ByteWriter& out) const {
  if (!soft_) return;  // the handoff's state lives in the slots
  out.f64s(bandwidth_);
  if (!soft_auto_) return;
  out.f64s(gap_bw_);
  out.f64s(x_mean_);
  out.f64s(x_m2_);
  out.u64(x_n_.size());
  for (std::uint64_t n : x_n_) out.u64(n);
}

Status SGBT::decode_routing(ByteReader& in) {
  if (!soft_) return Status::ok();
  bandwidth_ = in.f64s("soft bandwidths");
  if (!in.ok()) return in.status();
  for (double b : bandwidth_)
    if (!(b >= 0.0) || !std::isfinite(b)) return Status::corruption("bad soft routing bandwidth");
  if (!soft_auto_) return Status::ok();
  gap_bw_ = in.f64s("soft threshold-gap bandwidths");
  x_mean_ = in.f64s("soft feature means");
  x_m2_ = in.f64s("soft feature M2");
  const std::size_t n = in.read_count(8, "soft feature counts");
  if (!in.ok()) return in.status();
  const std::size_t d = bandwidth_.size();
  if (gap_bw_.size() != d || x_mean_.size() != d || x_m2_.size() != d || n != d)
    return Status::corruption("soft routing statistics differ in length");
  x_n_.resize(n);
  for (std::uint64_t& c : x_n_) c = in.u64("soft feature count");
  if (!in.ok()) return in.status();
  for (std::size_t f = 0; f < d; ++f)
    if (!std::isfinite(x_mean_[f]) || !(x_m2_[f] >= 0.0) || !std::isfinite(x_m2_[f]) || !(gap_bw_[f] >= 0.0) ||
        !std::isfinite(gap_bw_[f]))
      return Status::corruption("bad soft routing statistics");
  return Status::ok();
}

}  // namespace irithyll
