#include <cmath>

#include "irithyll/drift/hddm.hpp"

namespace irithyll {
namespace {
constexpr std::uint8_t kHddmAFormatVersion = 1;

double eps(std::uint64_t n, double conf) { return std::sqrt(std::log(1.0 / conf) / (2.0 * static_cast<double>(n))); }
}  // namespace

HddmA::HddmA(double drift_confidence, double warning_confidence, bool two_sided) noexcept
    : drift_conf_(drift_confidence), warning_conf_(warning_confidence), two_sided_(two_sided) {}

double HddmA::estimated_mean() const noexcept { return n_ == 0 ? 0.0 : c_ / static_cast<double>(n_); }

bool HddmA::shifted(double c_cut, std::uint64_t n_cut, double conf, double sign) const noexcept {
  if (n_cut == 0 || n_cut >= n_) return false;
  const double n = static_cast<double>(n_), m = static_cast<double>(n_cut);
  const double bound = std::sqrt((1.0 / m - 1.0 / n) / 2.0 * std::log(2.0 / conf));
  return sign * (c_ / n - c_cut / m) >= bound;
}

DriftSignal HddmA::update(double value) noexcept {
  if (!(value >= 0.0 && value <= 1.0)) return DriftSignal::kStable;  // NaN fails both
  ++n_;
  c_ += value;
  const double mean = c_ / static_cast<double>(n_), e = eps(n_, drift_conf_);
  if (n_min_ == 0 || mean + e <= c_min_ / static_cast<double>(n_min_) + eps(n_min_, drift_conf_)) {
    n_min_ = n_;
    c_min_ = c_;
  }
  if (n_max_ == 0 || mean - e >= c_max_ / static_cast<double>(n_max_) - eps(n_max_, drift_conf_)) {
    n_max_ = n_;
    c_max_ = c_;
  }
  const bool drift = shifted(c_min_, n_min_, drift_conf_, 1.0) || (two_sided_ && shifted(c_max_, n_max_, drift_conf_, -1.0));
  if (drift) {
    reset();
    return DriftSignal::kDrift;
  }
  const bool warn =
      shifted(c_min_, n_min_, warning_conf_, 1.0) || (two_sided_ && shifted(c_max_, n_max_, warning_conf_, -1.0));
  return warn ? DriftSignal::kWarning : DriftSignal::kStable;
}

void HddmA::reset() noexcept { *this = HddmA(drift_conf_, warning_conf_, two_sided_); }

std::unique_ptr<DriftDetector> HddmA::clone_fresh() const {
  return std::make_unique<HddmA>(drift_conf_, warning_conf_, two_sided_);
}

std::unique_ptr<DriftDetector> HddmA::clone() const { return std::make_unique<HddmA>(*this); }

void HddmA::encode(ByteWriter& out) const {
  out.u8(kHddmAFormatVersion);
  out.f64(drift_conf_);
  out.f64(warning_conf_);
  out.boolean(two_sided_);
  out.u64(n_);
  out.f64(c_);
  out.u64(n_min_);
  out.f64(c_min_);
  out.u64(n_max_);
  out.f64(c_max_);
}

Status HddmA::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("hddm_a version");
  if (in.ok() && version != kHddmAFormatVersion) in.fail("unsupported hddm_a version " + std::to_string(version));
  const double drift_conf = in.f64("hddm_a drift confidence");
  const double warning_conf = in.f64("hddm_a warning confidence");
  const bool two_sided = in.boolean("hddm_a two_sided");
  HddmA d(drift_conf, warning_conf, two_sided);
  d.n_ = in.u64("hddm_a count");
  d.c_ = in.f64("hddm_a sum");
  d.n_min_ = in.u64("hddm_a n_min");
  d.c_min_ = in.f64("hddm_a c_min");
  d.n_max_ = in.u64("hddm_a n_max");
  d.c_max_ = in.f64("hddm_a c_max");
  if (!in.ok()) return in.status();
  in.expect(drift_conf > 0.0 && drift_conf < warning_conf && warning_conf < 1.0, "hddm_a confidences");
  auto prefix_ok = [&d](std::uint64_t n, double c) {
    return n <= d.n_ && std::isfinite(c) && c >= 0.0 && c <= static_cast<double>(n) && (n > 0 || c == 0.0);
  };
  in.expect(prefix_ok(d.n_, d.c_) && prefix_ok(d.n_min_, d.c_min_) && prefix_ok(d.n_max_, d.c_max_),
            "hddm_a statistics");
  if (!in.ok()) return in.status();
  *this = d;
  return Status::ok();
}

}  // namespace irithyll
