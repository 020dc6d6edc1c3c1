#include "irithyll/drift/eddm.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {
namespace {
// Version 2 adds the confirmation window; version 1 records decode with an
// empty window (it refills within confirm_window errors).
constexpr std::uint8_t kEddmFormatVersion = 2;
}

Eddm::Eddm(double warning, double drift, std::uint32_t min_errors, std::uint32_t confirm_window,
           double confirm_z) noexcept
    : warning_(warning),
      drift_(drift),
      min_errors_(std::max(min_errors, 1u)),
      confirm_window_(std::min(confirm_window, kMaxConfirmWindow)),
      confirm_z_(confirm_z) {}

double Eddm::estimated_mean() const noexcept {
  return count_ == 0 ? 0.0 : static_cast<double>(errors_) / static_cast<double>(count_);
}

DriftSignal Eddm::update(double value) noexcept {
  if (!std::isfinite(value)) return DriftSignal::kStable;
  ++count_;
  if (value < 0.5) return held_;
  ++errors_;
  const double distance = static_cast<double>(count_ - last_error_);
  last_error_ = count_;
  const double old_mean = mean_;
  mean_ += (distance - mean_) / static_cast<double>(errors_);
  m2_ += (distance - mean_) * (distance - old_mean);
  if (confirm_window_ > 0) {
    if (w_count_ == confirm_window_) w_sum_ -= window_[w_head_];
    else ++w_count_;
    window_[w_head_] = distance;
    w_sum_ += distance;
    if (++w_head_ == confirm_window_) w_head_ = 0;
  }
  const double m2s = mean_ + 2.0 * std::sqrt(m2_ / static_cast<double>(errors_));
  if (errors_ < min_errors_) return held_ = DriftSignal::kStable;
  if (m2s > max_) {
    max_ = m2s;
    return held_ = DriftSignal::kStable;
  }
  const double ratio = m2s / max_;
  if (ratio < drift_) {
    if (!confirmed()) return held_ = DriftSignal::kWarning;
    reset();
    return DriftSignal::kDrift;
  }
  return held_ = ratio < warning_ ? DriftSignal::kWarning : DriftSignal::kStable;
}

bool Eddm::confirmed() const noexcept {
  if (confirm_window_ == 0) return true;  // the paper's rule
  if (w_count_ < confirm_window_) return false;
  const double k = static_cast<double>(confirm_window_);
  const double gap = mean_ - w_sum_ / k;
  // gap >= z s' / sqrt(k), squared; s'^2 = m2 / errors as in p' + 2 s'.
  return gap > 0.0 && gap * gap * k >= confirm_z_ * confirm_z_ * (m2_ / static_cast<double>(errors_));
}

void Eddm::reset() noexcept { *this = Eddm(warning_, drift_, min_errors_, confirm_window_, confirm_z_); }

std::unique_ptr<DriftDetector> Eddm::clone_fresh() const {
  return std::make_unique<Eddm>(warning_, drift_, min_errors_, confirm_window_, confirm_z_);
}

std::unique_ptr<DriftDetector> Eddm::clone() const { return std::make_unique<Eddm>(*this); }

void Eddm::encode(ByteWriter& out) const {
  out.u8(kEddmFormatVersion);
  out.f64(warning_);
  out.f64(drift_);
  out.u32(min_errors_);
  out.u64(count_);
  out.u64(errors_);
  out.u64(last_error_);
  out.f64(mean_);
  out.f64(m2_);
  out.f64(max_);
  out.u8(static_cast<std::uint8_t>(held_));
  out.u32(confirm_window_);
  out.f64(confirm_z_);
  out.u32(w_count_);
  out.u32(w_head_);
  for (std::uint32_t i = 0; i < w_count_; ++i)
    out.f64(window_[(w_head_ + confirm_window_ - w_count_ + i) % confirm_window_]);
}

Status Eddm::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("eddm version");
  if (in.ok() && version != kEddmFormatVersion && version != 1) in.fail("unsupported eddm version " + std::to_string(version));
  const double warning = in.f64("eddm warning");
  const double drift = in.f64("eddm drift");
  const std::uint32_t min_errors = in.u32("eddm min_errors");
  Eddm d(warning, drift, min_errors);
  d.count_ = in.u64("eddm count");
  d.errors_ = in.u64("eddm errors");
  d.last_error_ = in.u64("eddm last error");
  d.mean_ = in.f64("eddm mean");
  d.m2_ = in.f64("eddm m2");
  d.max_ = in.f64("eddm max");
  const std::uint8_t held = in.u8("eddm signal");
  // Version 1 predates the confirmation; its records continue with the
  // default one and an empty window (it refills within confirm_window errors).
  if (version >= 2) {
    const std::uint32_t confirm_window = in.u32("eddm confirm_window");
    const double confirm_z = in.f64("eddm confirm_z");
    in.expect(confirm_window <= kMaxConfirmWindow && std::isfinite(confirm_z) && confirm_z >= 0.0,
              "eddm confirmation");
    d.confirm_window_ = confirm_window;
    d.confirm_z_ = confirm_z;
    const std::uint32_t w_count = in.u32("eddm window count");
    const std::uint32_t w_head = in.u32("eddm window head");
    in.expect(in.ok() && w_count <= confirm_window && w_count <= d.errors_ &&
                  (w_head < confirm_window || (w_head == 0 && w_count == 0)),
              "eddm window");
    if (!in.ok()) return in.status();
    d.w_count_ = w_count;
    d.w_head_ = w_head;
    for (std::uint32_t i = 0; i < w_count && in.ok(); ++i) {
      const double w = in.f64("eddm window distance");
      // A distance is a whole number of values, at least 1 and at most count.
      in.expect(std::isfinite(w) && w >= 1.0 && w <= static_cast<double>(d.count_) && w == std::floor(w),
                "eddm window distance");
      d.window_[(w_head + confirm_window - w_count + i) % confirm_window] = w;
      d.w_sum_ += w;
    }
  }
  if (!in.ok()) return in.status();
  in.expect(std::isfinite(warning) && std::isfinite(drift) && drift > 0.0 && drift < warning && warning < 1.0 &&
                min_errors > 0,
            "eddm parameters");
  in.expect(d.errors_ <= d.count_ && d.last_error_ <= d.count_ && (d.errors_ > 0) == (d.last_error_ > 0),
            "eddm counts");
  in.expect(std::isfinite(d.mean_) && d.mean_ >= 0.0 && std::isfinite(d.m2_) && d.m2_ >= 0.0 &&
                std::isfinite(d.max_) && d.max_ >= 0.0,
            "eddm statistics");
  in.expect(held <= static_cast<std::uint8_t>(DriftSignal::kWarning), "eddm signal");
  if (!in.ok()) return in.status();
  d.held_ = static_cast<DriftSignal>(held);
  *this = d;
  return Status::ok();
}

}  // namespace irithyll
