#include "irithyll/drift/kswin.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace irithyll {
namespace {
constexpr std::uint8_t kKswinFormatVersion = 1;
}

Kswin::Kswin(std::uint32_t window_size, std::uint32_t stat_size, double alpha, std::uint64_t seed)
    : window_size_(std::max(window_size, 2u)),
      stat_size_(std::clamp(stat_size, 1u, window_size_ / 2)),
      alpha_(alpha),
      seed_(seed),
      rng_(seed),
      ring_(window_size_, 0.0),
      recent_(stat_size_),
      drawn_(stat_size_),
      pick_(window_size_ - stat_size_) {}

double Kswin::ks_p_value(std::uint32_t n, std::uint32_t k) noexcept {
  if (k == 0 || n == 0) return 1.0;
  if (k > n) return 0.0;
  // C(2n, n - m) / C(2n, n) = prod_{i=1..m} (n - m + i) / (n + i).
  double p = 0.0, sign = 2.0;
  for (std::uint32_t j = 1; j * k <= n; ++j, sign = -sign) {
    const std::uint32_t m = j * k;
    double ratio = 1.0;
    for (std::uint32_t i = 1; i <= m; ++i) ratio *= static_cast<double>(n - m + i) / static_cast<double>(n + i);
    p += sign * ratio;
  }
  return std::clamp(p, 0.0, 1.0);
}

double Kswin::estimated_mean() const noexcept {
  if (size_ == 0) return 0.0;
  double s = 0.0;
  for (std::uint32_t i = 0; i < size_; ++i) s += at(i);
  return s / static_cast<double>(size_);
}

std::size_t Kswin::memory_bytes() const noexcept {
  return sizeof(*this) + (ring_.capacity() + recent_.capacity() + drawn_.capacity()) * sizeof(double) +
         pick_.capacity() * sizeof(std::uint32_t);
}

DriftSignal Kswin::update(double value) noexcept {
  if (!std::isfinite(value)) return DriftSignal::kStable;
  if (size_ < window_size_) {
    ring_[(head_ + size_) % window_size_] = value;
    ++size_;
  } else {
    ring_[head_] = value;
    head_ = (head_ + 1) % window_size_;
  }
  if (size_ < window_size_) return DriftSignal::kStable;

  const std::uint32_t older = window_size_ - stat_size_;
  for (std::uint32_t i = 0; i < stat_size_; ++i) recent_[i] = at(older + i);
  // stat_size_ distinct indices of the older part: a partial Fisher-Yates shuffle.
  std::iota(pick_.begin(), pick_.end(), 0u);
  for (std::uint32_t i = 0; i < stat_size_; ++i) {
    const auto j = i + static_cast<std::uint32_t>(rng_.below(older - i));
    std::swap(pick_[i], pick_[j]);
    drawn_[i] = at(pick_[i]);
  }
  std::sort(recent_.begin(), recent_.end());
  std::sort(drawn_.begin(), drawn_.end());
  // D = max |F_drawn - F_recent| over the pooled values, after each tie group.
  std::uint32_t a = 0, b = 0, k = 0;
  while (a < stat_size_ && b < stat_size_) {
    const double v = std::min(drawn_[a], recent_[b]);
    while (a < stat_size_ && drawn_[a] == v) ++a;
    while (b < stat_size_ && recent_[b] == v) ++b;
    k = std::max(k, a > b ? a - b : b - a);
  }
  p_value_ = ks_p_value(stat_size_, k);
  const double d = static_cast<double>(k) / static_cast<double>(stat_size_);
  if (p_value_ > alpha_ || d <= kMinStatistic) return DriftSignal::kStable;
  // Keep only the newest stat_size_ values (already copied, in time order
  // before the sort: re-read them from the ring).
  const std::uint32_t first = (head_ + older) % window_size_;
  for (std::uint32_t i = 0; i < stat_size_; ++i) recent_[i] = ring_[(first + i) % window_size_];
  for (std::uint32_t i = 0; i < stat_size_; ++i) ring_[i] = recent_[i];
  head_ = 0;
  size_ = stat_size_;
  return DriftSignal::kDrift;
}

void Kswin::reset() noexcept {
  rng_ = Xorshift64(seed_);
  head_ = size_ = 0;
  p_value_ = 1.0;
  std::fill(ring_.begin(), ring_.end(), 0.0);
}

std::unique_ptr<DriftDetector> Kswin::clone_fresh() const {
  return std::make_unique<Kswin>(window_size_, stat_size_, alpha_, seed_);
}

std::unique_ptr<DriftDetector> Kswin::clone() const { return std::make_unique<Kswin>(*this); }

void Kswin::encode(ByteWriter& out) const {
  out.u8(kKswinFormatVersion);
  out.u32(window_size_);
  out.u32(stat_size_);
  out.f64(alpha_);
  out.u64(seed_);
  out.u64(rng_.state());
  out.f64(p_value_);
  out.u32(size_);
  for (std::uint32_t i = 0; i < size_; ++i) out.f64(at(i));
}

Status Kswin::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("kswin version");
  if (in.ok() && version != kKswinFormatVersion) in.fail("unsupported kswin version " + std::to_string(version));
  const std::uint32_t window_size = in.u32("kswin window size");
  const std::uint32_t stat_size = in.u32("kswin stat size");
  const double alpha = in.f64("kswin alpha");
  const std::uint64_t seed = in.u64("kswin seed");
  const std::uint64_t state = in.u64("kswin rng state");
  const double p_value = in.f64("kswin p-value");
  const std::uint32_t size = in.u32("kswin size");
  if (!in.ok()) return in.status();
  if (!in.expect(window_size >= 2 && window_size <= kMaxWindow && stat_size >= 1 && 2 * stat_size <= window_size &&
                     alpha > 0.0 && alpha < 1.0,
                 "kswin parameters") ||
      !in.expect(size <= window_size && state != 0 && p_value >= 0.0 && p_value <= 1.0, "kswin state"))
    return in.status();
  Kswin d(window_size, stat_size, alpha, seed);
  d.rng_.set_state(state);
  d.p_value_ = p_value;
  d.size_ = size;
  bool finite = true;
  for (std::uint32_t i = 0; i < size && in.ok(); ++i) {
    d.ring_[i] = in.f64("kswin value");
    finite = finite && std::isfinite(d.ring_[i]);
  }
  if (!in.ok()) return in.status();
  if (!in.expect(finite, "kswin non-finite value")) return in.status();
  *this = std::move(d);
  return Status::ok();
}

}  // namespace irithyll
