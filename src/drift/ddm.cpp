#include "irithyll/drift/ddm.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {
namespace {
// Version 2 adds the confirmation window; version 1 records decode with an
// empty window (it refills within kConfirmWindow values).
constexpr std::uint8_t kDdmFormatVersion = 2;
constexpr double kMinEachOutcome = 30.0;  // n p >= 30 and n (1 - p) >= 30 before a minimum is kept
}

Ddm::Ddm(double warning_level, double drift_level, std::uint32_t min_instances) noexcept
    : warning_level_(warning_level), drift_level_(drift_level), min_instances_(std::max(min_instances, 1u)) {}

double Ddm::estimated_mean() const noexcept {
  return count_ == 0 ? 0.0 : shift_ + s1_ / static_cast<double>(count_);
}

double Ddm::sample_variance() const noexcept {
  if (count_ < 2) return 0.0;
  const double n = static_cast<double>(count_);
  return std::max(0.0, (s2_ - s1_ * s1_ / n) / (n - 1.0));
}

double Ddm::std_of_mean() const noexcept {
  if (count_ == 0) return 0.0;
  const double n = static_cast<double>(count_);
  if (binary_) {
    const double p = estimated_mean();
    return std::sqrt(std::max(0.0, p * (1.0 - p)) / n);
  }
  return std::sqrt(sample_variance() / n);
}

DriftSignal Ddm::update(double value) noexcept {
  if (!std::isfinite(value)) return DriftSignal::kStable;
  // Bitwise, not &&: on 0/1 errors the value is random and a branch on it mispredicts.
  binary_ = binary_ & ((value == 0.0) | (value == 1.0));
  if (count_ == 0) shift_ = value;
  ++count_;
  const double d = value - shift_;
  s1_ += d;
  s2_ += d * d;
  // The window: replace the oldest value. The sum is recomputed once per lap
  // so rounding cannot accumulate on continuous values.
  if (w_count_ == kConfirmWindow) w_sum_ -= window_[w_head_];
  else ++w_count_;
  window_[w_head_] = d;
  w_sum_ += d;
  if (++w_head_ == kConfirmWindow) {
    w_head_ = 0;
    if (w_count_ == kConfirmWindow) {
      w_sum_ = 0.0;
      for (const double w : window_) w_sum_ += w;
    }
  }
  if (count_ <= min_instances_) return DriftSignal::kStable;  // silent for the first min_instances

  // The tests below compare squares (v = s^2) so that the hot path has one
  // division and no square root; sqrt runs only when a new minimum is stored.
  const double n = static_cast<double>(count_);
  const double r = 1.0 / (n * (n - 1.0));  // n >= 2 here (min_instances >= 1)
  const double inv_n = (n - 1.0) * r;
  const double mean = shift_ + s1_ * inv_n;
  const double v = binary_ ? std::max(0.0, mean * (1.0 - mean)) * inv_n
                           : std::max(0.0, s2_ - s1_ * s1_ * inv_n) * r;  // sample var / n
  // mean + sqrt(v) >= level  <=>  level - mean <= 0  or  v >= (level - mean)^2
  auto at_or_above = [mean, v](double level) {
    const double gap = level - mean;
    return gap <= 0.0 || v >= gap * gap;
  };
  // s == 0 says nothing about the noise level (all-zero errors so far); a
  // minimum with s_min = 0 would make every later update a drift. On 0/1 data
  // we go further and wait until the normal approximation to the binomial is
  // usable (at least kMinEachOutcome errors and non-errors): with fewer, one
  // error moves p by a whole s and rare-error streams alarm on noise.
  const bool usable = binary_ ? (mean * n >= kMinEachOutcome - 0.5 && (1.0 - mean) * n >= kMinEachOutcome - 0.5)
                              : v > 0.0;
  if (usable && (!has_min_ || !at_or_above(p_min_ + s_min_))) {
    p_min_ = mean;
    s_min_ = std::sqrt(v);
    has_min_ = true;
  }
  if (!has_min_) return DriftSignal::kStable;
  if (!at_or_above(p_min_ + warning_level_ * s_min_)) return DriftSignal::kStable;
  if (w_count_ == kConfirmWindow) {
    // Confirm: the window's mean against p, in standard errors of a mean of
    // kConfirmWindow values (one value's variance: v * n).
    const double z = kConfirmZ * drift_level_ / 3.0;
    const double gap = w_sum_ / static_cast<double>(kConfirmWindow) - (mean - shift_);
    const double var_one = std::max(v * n, 1e-12);
    if (gap > 0.0 && gap * gap >= z * z * var_one / static_cast<double>(kConfirmWindow)) {
      restart();
      return DriftSignal::kDrift;
    }
  }
  return DriftSignal::kWarning;
}

void Ddm::restart() noexcept {
  has_min_ = false;
  count_ = 0;
  shift_ = s1_ = s2_ = p_min_ = s_min_ = 0.0;
  w_count_ = w_head_ = 0;
  w_sum_ = 0.0;
  window_.fill(0.0);
}

void Ddm::reset() noexcept { *this = Ddm(warning_level_, drift_level_, min_instances_); }

std::unique_ptr<DriftDetector> Ddm::clone_fresh() const {
  return std::make_unique<Ddm>(warning_level_, drift_level_, min_instances_);
}

std::unique_ptr<DriftDetector> Ddm::clone() const { return std::make_unique<Ddm>(*this); }

void Ddm::encode(ByteWriter& out) const {
  out.u8(kDdmFormatVersion);
  out.f64(warning_level_);
  out.f64(drift_level_);
  out.u32(min_instances_);
  out.boolean(binary_);
  out.boolean(has_min_);
  out.u64(count_);
  out.f64(shift_);
  out.f64(s1_);
  out.f64(s2_);
  out.f64(p_min_);
  out.f64(s_min_);
  out.u32(w_count_);
  out.u32(w_head_);
  out.f64(w_sum_);
  for (std::uint32_t i = 0; i < w_count_; ++i) out.f64(window_[(w_head_ + kConfirmWindow - w_count_ + i) % kConfirmWindow]);
}

Status Ddm::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("ddm version");
  if (in.ok() && version != kDdmFormatVersion && version != 1) in.fail("unsupported ddm version " + std::to_string(version));
  const double warning_level = in.f64("warning_level");
  const double drift_level = in.f64("drift_level");
  const std::uint32_t min_instances = in.u32("min_instances");
  Ddm d(warning_level, drift_level, min_instances);
  d.binary_ = in.boolean("binary");
  d.has_min_ = in.boolean("has_min");
  d.count_ = in.u64("count");
  d.shift_ = in.f64("shift");
  d.s1_ = in.f64("s1");
  d.s2_ = in.f64("s2");
  d.p_min_ = in.f64("p_min");
  d.s_min_ = in.f64("s_min");
  if (version >= 2) {
    const std::uint32_t w_count = in.u32("ddm window count");
    const std::uint32_t w_head = in.u32("ddm window head");
    d.w_sum_ = in.f64("ddm window sum");
    in.expect(w_count <= kConfirmWindow && w_head < kConfirmWindow && w_count <= d.count_ && std::isfinite(d.w_sum_),
              "ddm window");
    if (!in.ok()) return in.status();
    d.w_count_ = w_count;
    d.w_head_ = w_head;
    for (std::uint32_t i = 0; i < w_count && in.ok(); ++i) {
      const double w = in.f64("ddm window value");
      in.expect(std::isfinite(w), "ddm window value");
      d.window_[(w_head + kConfirmWindow - w_count + i) % kConfirmWindow] = w;
    }
  }
  if (!in.ok()) return in.status();
  in.expect(std::isfinite(warning_level) && warning_level > 0.0 && std::isfinite(drift_level) &&
                drift_level > warning_level && min_instances > 0,
            "ddm parameters");
  in.expect(std::isfinite(d.shift_) && std::isfinite(d.s1_) && std::isfinite(d.s2_) && d.s2_ >= 0.0 &&
                std::isfinite(d.p_min_) &&
                std::isfinite(d.s_min_) && d.s_min_ >= 0.0 && (!d.has_min_ || d.s_min_ > 0.0),
            "ddm statistics");
  const double mean = d.estimated_mean();
  in.expect(!d.binary_ || (mean >= 0.0 && mean <= 1.0 && (d.shift_ == 0.0 || d.shift_ == 1.0)),
            "ddm binary state outside [0, 1]");
  if (!in.ok()) return in.status();
  *this = d;
  return Status::ok();
}

}  // namespace irithyll
