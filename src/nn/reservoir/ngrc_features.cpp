#include "nn/reservoir/ngrc_features.hpp"

#include <algorithm>
#include <string>

namespace irithyll::nn {

namespace {
constexpr std::uint64_t kMaxFeatures = 1u << 16;
}

DelayBuffer::DelayBuffer(std::size_t capacity, std::size_t dim)
    : capacity_(capacity), dim_(dim), data_(capacity * dim, 0.0) {}

void DelayBuffer::push(std::span<const double> x) noexcept {
  if (capacity_ == 0) return;
  head_ = len_ == 0 ? 0 : (head_ + 1) % capacity_;
  std::copy(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(dim_), data_.begin() + static_cast<std::ptrdiff_t>(head_ * dim_));
  if (len_ < capacity_) ++len_;
}

std::span<const double> DelayBuffer::get(std::size_t lag) const noexcept {
  if (lag >= len_) return {};
  const std::size_t slot = (head_ + capacity_ - lag) % capacity_;
  return std::span<const double>(data_).subspan(slot * dim_, dim_);
}

void DelayBuffer::reset() noexcept {
  head_ = 0;
  len_ = 0;
  std::fill(data_.begin(), data_.end(), 0.0);
}

void DelayBuffer::encode(ByteWriter& out) const {
  out.u64(capacity_);
  out.u64(dim_);
  out.u64(head_);
  out.u64(len_);
  out.f64s(data_);
}

Status DelayBuffer::decode(ByteReader& in) {
  const std::uint64_t cap = in.u64("delay capacity"), dim = in.u64("delay dim"), head = in.u64("delay head"),
                      len = in.u64("delay len");
  std::vector<double> data = in.f64s("delay data");
  if (!in.ok()) return in.status();
  if (cap != capacity_ || dim != dim_ || data.size() != data_.size() || head >= std::max<std::uint64_t>(cap, 1) ||
      len > cap)
    return Status::corruption("delay buffer: shape does not match the configuration");
  head_ = head;
  len_ = len;
  data_ = std::move(data);
  return Status::ok();
}

std::uint64_t PolynomialFeatures::count(std::size_t n_vars, std::size_t degree) noexcept {
  if (degree == 0 || n_vars == 0) return 0;
  // C(m + p - 1, p), exact at every step; saturates far above any sane size.
  std::uint64_t c = 1;
  for (std::size_t i = 1; i <= degree; ++i) {
    c = c * (n_vars - 1 + i) / i;
    if (c > (std::uint64_t{1} << 40)) return c;
  }
  return c;
}

PolynomialFeatures::PolynomialFeatures(std::size_t n_vars, std::size_t degree) : degree_(degree) {
  if (degree == 0 || n_vars == 0) return;
  index_.reserve(count(n_vars, degree) * degree);
  std::vector<std::uint32_t> idx(degree, 0);
  for (;;) {
    index_.insert(index_.end(), idx.begin(), idx.end());
    // Next non-decreasing index tuple: bump the last position that can grow
    // and reset everything after it to the same value.
    std::size_t pos = degree;
    while (pos > 0 && idx[pos - 1] == n_vars - 1) --pos;
    if (pos == 0) break;
    const std::uint32_t v = idx[pos - 1] + 1;
    for (std::size_t q = pos - 1; q < degree; ++q) idx[q] = v;
  }
}

void PolynomialFeatures::transform(std::span<const double> x, std::span<double> out) const noexcept {
  const std::size_t terms = output_dim();
  if (degree_ == 2) {
    for (std::size_t t = 0; t < terms; ++t) out[t] = x[index_[2 * t]] * x[index_[2 * t + 1]];
    return;
  }
  for (std::size_t t = 0; t < terms; ++t) {
    const std::uint32_t* ix = &index_[t * degree_];
    double v = x[ix[0]];
    for (std::size_t q = 1; q < degree_; ++q) v *= x[ix[q]];
    out[t] = v;
  }
}

Status NgrcConfig::validate() const {
  if (n_inputs == 0 || n_inputs > 4096) return Status::invalid_argument("ngrc: n_inputs must be in [1, 4096]");
  if (k == 0 || k > 64) return Status::invalid_argument("ngrc: k (taps) must be in [1, 64]");
  if (s == 0 || s > 4096) return Status::invalid_argument("ngrc: s (tap spacing) must be in [1, 4096]");
  if (degree == 1 || degree > 4) return Status::invalid_argument("ngrc: degree must be 0 (linear only) or in [2, 4]");
  if (PolynomialFeatures::count(n_linear(), degree) + n_linear() + 1 > kMaxFeatures)
    return Status::invalid_argument("ngrc: too many features (" + std::to_string(PolynomialFeatures::count(n_linear(), degree)) +
                                    " monomials); reduce k, n_inputs or degree");
  return Status::ok();
}

std::size_t NgrcConfig::n_features() const noexcept {
  return (constant ? 1 : 0) + n_linear() + static_cast<std::size_t>(PolynomialFeatures::count(n_linear(), degree));
}

NgrcFeatures::NgrcFeatures(const NgrcConfig& config)
    : config_(config),
      buffer_((config.k - 1) * config.s + 1, config.n_inputs),
      poly_(config.n_linear(), config.degree),
      lin_(config.n_linear(), 0.0) {}

void NgrcFeatures::finish(std::span<double> out) const noexcept {
  const std::size_t c = config_.constant ? 1 : 0, m = config_.n_linear();
  if (c) out[0] = 1.0;
  std::copy(lin_.begin(), lin_.end(), out.begin() + static_cast<std::ptrdiff_t>(c));
  poly_.transform(lin_, out.subspan(c + m));
}

void NgrcFeatures::features(std::span<double> out) const noexcept {
  const std::size_t d = config_.n_inputs;
  for (std::size_t tap = 0; tap < config_.k; ++tap) {
    const auto v = buffer_.get(tap * config_.s);
    for (std::size_t j = 0; j < d; ++j) lin_[tap * d + j] = v.empty() ? 0.0 : v[j];
  }
  finish(out);
}

void NgrcFeatures::features_with(std::span<const double> x, std::span<double> out) const noexcept {
  const std::size_t d = config_.n_inputs;
  std::copy(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(d), lin_.begin());
  for (std::size_t tap = 1; tap < config_.k; ++tap) {
    const auto v = buffer_.get(tap * config_.s - 1);  // x takes lag 0, so everything shifts by one
    for (std::size_t j = 0; j < d; ++j) lin_[tap * d + j] = v.empty() ? 0.0 : v[j];
  }
  finish(out);
}

std::size_t NgrcFeatures::memory_bytes() const noexcept {
  return sizeof(*this) + buffer_.capacity() * buffer_.dim() * sizeof(double) +
         poly_.output_dim() * poly_.degree() * sizeof(std::uint32_t) + lin_.capacity() * sizeof(double);
}

}  // namespace irithyll::nn
