#include "irithyll/drift/page_hinkley.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {
namespace {
// 2: a Drift restarts the whole detector (1 kept count and mean).
constexpr std::uint8_t kPageHinkleyFormatVersion = 2;
}

PageHinkley::PageHinkley(double delta, double lambda) noexcept : delta_(delta), lambda_(lambda) {}

DriftSignal PageHinkley::update(double value) noexcept {
  if (!std::isfinite(value)) return DriftSignal::kStable;
  ++count_;
  sum_ += value;
  const double dev = value - sum_ / static_cast<double>(count_);
  up_ += dev - delta_;
  down_ += -dev - delta_;
  up_min_ = std::min(up_min_, up_);
  down_min_ = std::min(down_min_, down_);
  const double stat = std::max(up_ - up_min_, down_ - down_min_);
  // The first values after a (re)start only build the mean: a running mean of
  // a handful of values makes the sums swing (MOA and River wait for 30).
  if (count_ < kMinInstances) return DriftSignal::kStable;
  if (stat > lambda_) {
    up_ = up_min_ = down_ = down_min_ = 0.0;
    if (full_restart_) {
      count_ = 0;
      sum_ = 0.0;
    }
    return DriftSignal::kDrift;
  }
  return stat > kWarningFraction * lambda_ ? DriftSignal::kWarning : DriftSignal::kStable;
}

double PageHinkley::estimated_mean() const noexcept {
  return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

void PageHinkley::reset() noexcept {
  const bool full = full_restart_;
  *this = PageHinkley(delta_, lambda_);
  full_restart_ = full;
}

std::unique_ptr<DriftDetector> PageHinkley::clone_fresh() const {
  auto d = std::make_unique<PageHinkley>(delta_, lambda_);
  d->full_restart_ = full_restart_;
  return d;
}

std::unique_ptr<DriftDetector> PageHinkley::clone() const { return std::make_unique<PageHinkley>(*this); }

void PageHinkley::encode(ByteWriter& out) const {
  out.u8(full_restart_ ? kPageHinkleyFormatVersion : 1);  // a version-1 record stays version 1
  out.f64(delta_);
  out.f64(lambda_);
  out.u64(count_);
  out.f64(sum_);
  out.f64(up_);
  out.f64(up_min_);
  out.f64(down_);
  out.f64(down_min_);
}

Status PageHinkley::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("page-hinkley version");
  if (in.ok() && version != 1 && version != kPageHinkleyFormatVersion)
    in.fail("unsupported page-hinkley version " + std::to_string(version));
  const double delta = in.f64("delta");  // separate statements: argument order is unspecified
  const double lambda = in.f64("lambda");
  PageHinkley d(delta, lambda);
  d.full_restart_ = version != 1;
  d.count_ = in.u64("count");
  d.sum_ = in.f64("sum");
  d.up_ = in.f64("up");
  d.up_min_ = in.f64("up_min");
  d.down_ = in.f64("down");
  d.down_min_ = in.f64("down_min");
  if (!in.ok()) return in.status();
  const bool finite = std::isfinite(d.delta_) && std::isfinite(d.lambda_) && std::isfinite(d.sum_) &&
                      std::isfinite(d.up_) && std::isfinite(d.up_min_) && std::isfinite(d.down_) &&
                      std::isfinite(d.down_min_);
  in.expect(finite && d.delta_ > 0.0 && d.lambda_ > 0.0, "page-hinkley parameters");
  in.expect(d.up_min_ <= d.up_ && d.down_min_ <= d.down_ && d.up_min_ <= 0.0 && d.down_min_ <= 0.0,
            "page-hinkley sums below their minima");
  if (!in.ok()) return in.status();
  *this = d;
  return Status::ok();
}

}  // namespace irithyll
