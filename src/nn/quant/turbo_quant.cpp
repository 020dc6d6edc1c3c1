#include "nn/quant/turbo_quant.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "irithyll/core/rng.hpp"

namespace irithyll::nn {

namespace {
constexpr std::uint32_t kMaxPadded = 1u << 28;

std::uint32_t next_pow2(std::uint64_t n) {
  std::uint64_t p = 1;
  while (p < n) p <<= 1;
  return static_cast<std::uint32_t>(p);
}

void put_u32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void put_u64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint32_t get_u32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(p[i]) << (8 * i);
  return v;
}
std::uint64_t get_u64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

void flip_signs(std::span<double> x, std::uint64_t seed) {
  Xorshift64 rng(seed);
  for (double& v : x)
    if ((rng.next_u64() & 1u) == 0) v = -v;
}
}  // namespace

std::uint32_t quant_levels(QuantMode mode) noexcept {
  switch (mode) {
    case QuantMode::kBits8: return 256;
    case QuantMode::kBits3_5: return 11;
    case QuantMode::kBits2_5: return 5;
  }
  return 0;
}

std::uint32_t quant_values_per_word(QuantMode mode) noexcept {
  switch (mode) {
    case QuantMode::kBits8: return 4;
    case QuantMode::kBits3_5: return 7;
    case QuantMode::kBits2_5: return 13;
  }
  return 1;
}

void fwht_ref(std::span<double> v) noexcept {
  const std::size_t n = v.size();
  for (std::size_t len = 1; len < n; len <<= 1)
    for (std::size_t i = 0; i < n; i += 2 * len)
      for (std::size_t j = i; j < i + len; ++j) {
        const double a = v[j], b = v[j + len];
        v[j] = a + b;
        v[j + len] = a - b;
      }
  const double s = 1.0 / std::sqrt(static_cast<double>(n));
  for (double& x : v) x *= s;
}

void turbo_rotate(std::span<double> x, std::uint64_t seed) noexcept {
  flip_signs(x, seed);
  fwht_ref(x);
}

void turbo_unrotate(std::span<double> x, std::uint64_t seed) noexcept {
  fwht_ref(x);
  flip_signs(x, seed);
}

Result<TurboQuantView> TurboQuantView::from_bytes(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kTurboQuantHeaderBytes)
    return Status::corruption("turbo quant: " + std::to_string(bytes.size()) + " bytes, shorter than the 36-byte header");
  const std::uint8_t* p = bytes.data();
  TurboQuantView v;
  v.n_ = get_u32(p);
  const std::uint32_t mode = get_u32(p + 4);
  v.seed_ = get_u64(p + 8);
  v.p_ = get_u32(p + 16);
  v.scale_ = std::bit_cast<double>(get_u64(p + 20));
  v.offset_ = std::bit_cast<double>(get_u64(p + 28));
  if (mode > 2) return Status::corruption("turbo quant: unknown mode " + std::to_string(mode));
  v.mode_ = static_cast<QuantMode>(mode);
  if (v.p_ == 0 || !std::has_single_bit(v.p_) || v.p_ > kMaxPadded)
    return Status::corruption("turbo quant: padded length " + std::to_string(v.p_) + " is not a power of two in [1, 2^28]");
  if (v.p_ < v.n_ || v.p_ != next_pow2(std::max<std::uint32_t>(v.n_, 1)))
    return Status::corruption("turbo quant: padded length " + std::to_string(v.p_) + " is not the next power of two of n_weights " +
                              std::to_string(v.n_));
  if (!std::isfinite(v.scale_) || !std::isfinite(v.offset_) || v.scale_ < 0.0)
    return Status::corruption("turbo quant: scale and offset must be finite, scale >= 0");
  const std::uint32_t vpw = quant_values_per_word(v.mode_);
  v.words_ = (static_cast<std::size_t>(v.p_) + vpw - 1) / vpw;
  if (bytes.size() < kTurboQuantHeaderBytes + 4 * v.words_)
    return Status::corruption("turbo quant: truncated: " + std::to_string(v.words_) + " code words need " +
                              std::to_string(kTurboQuantHeaderBytes + 4 * v.words_) + " bytes, have " + std::to_string(bytes.size()));
  v.bytes_ = bytes.first(kTurboQuantHeaderBytes + 4 * v.words_);
  return v;
}

std::uint32_t TurboQuantView::word(std::size_t w) const noexcept {
  return get_u32(bytes_.data() + kTurboQuantHeaderBytes + 4 * w);
}

std::uint32_t TurboQuantView::code(std::size_t i) const noexcept {
  const std::uint32_t vpw = quant_values_per_word(mode_);
  std::uint32_t wv = word(i / vpw);
  const std::size_t k = i % vpw;
  // A hostile word can hold digits above the top level; clamp so decoding stays in range.
  const std::uint32_t top = quant_levels(mode_) - 1;
  if (mode_ == QuantMode::kBits8) return (wv >> (8 * k)) & 0xFFu;
  const std::uint32_t base = mode_ == QuantMode::kBits3_5 ? 11 : 5;
  for (std::size_t j = 0; j < k; ++j) wv /= base;
  return std::min(wv % base, top);
}

double TurboQuantView::dot(std::span<const double> x, std::span<double> scratch) const noexcept {
  if (scratch.size() < p_) return std::numeric_limits<double>::quiet_NaN();
  const std::span<double> r = scratch.first(p_);
  const std::size_t m = std::min<std::size_t>(x.size(), n_);
  std::copy(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(m), r.begin());
  std::fill(r.begin() + static_cast<std::ptrdiff_t>(m), r.end(), 0.0);
  turbo_rotate(r, seed_);
  // sum_i (offset + scale q_i) r_i, unpacking each word once.
  const std::uint32_t vpw = quant_values_per_word(mode_), top = quant_levels(mode_) - 1;
  double sq = 0.0, sr = 0.0;
  std::size_t i = 0;
  for (std::size_t w = 0; w < words_ && i < p_; ++w) {
    std::uint32_t wv = word(w);
    for (std::uint32_t k = 0; k < vpw && i < p_; ++k, ++i) {
      std::uint32_t q;
      if (mode_ == QuantMode::kBits8) {
        q = wv & 0xFFu;
        wv >>= 8;
      } else {
        const std::uint32_t base = mode_ == QuantMode::kBits3_5 ? 11 : 5;
        q = std::min(wv % base, top);
        wv /= base;
      }
      sq += static_cast<double>(q) * r[i];
      sr += r[i];
    }
  }
  return scale_ * sq + offset_ * sr;
}

double TurboQuantView::dot(std::span<const double> x) const {
  std::vector<double> scratch(p_);
  return dot(x, scratch);
}

std::vector<double> TurboQuantView::dequantize() const {
  std::vector<double> v(p_);
  for (std::size_t i = 0; i < p_; ++i) v[i] = offset_ + scale_ * static_cast<double>(code(i));
  turbo_unrotate(v, seed_);
  v.resize(n_);
  return v;
}

double TurboQuantView::compression_ratio() const noexcept {
  return 8.0 * n_ / static_cast<double>(kTurboQuantHeaderBytes + 4 * words_);
}

namespace {
std::uint32_t code_of(double r, double offset, double scale, std::uint32_t top) {
  const double q = std::nearbyint((r - offset) / scale);
  return q <= 0.0 ? 0u : q >= static_cast<double>(top) ? top : static_cast<std::uint32_t>(q);
}

double grid_mse(std::span<const double> r, double offset, double scale, std::uint32_t top) {
  double se = 0.0;
  for (double v : r) {
    const double e = v - (offset + scale * static_cast<double>(code_of(v, offset, scale, top)));
    se += e * e;
  }
  return se;
}

// Choose the uniform grid offset + scale*{0..L-1} for the rotated values r.
// kMinMax spans [min, max] (the original's rule). kMseClip minimises the
// squared error instead: after the rotation the coordinates are close to
// N(mu, sigma^2), whose extremes sit far out in thin tails, so spanning them
// wastes most levels on almost empty space. We try symmetric clips
// mu +- k*sigma for a handful of k (and min..max itself), keep the best, then
// alternate "assign codes" with "least-squares refit of (offset, scale) for
// those codes", a Lloyd iteration restricted to a uniform grid. Every step
// can only lower the error, so the result is never worse than min..max.
std::pair<double, double> choose_grid(std::span<const double> r, std::uint32_t levels, TurboQuantRange how) {
  const auto [lo_it, hi_it] = std::minmax_element(r.begin(), r.end());
  const double lo = *lo_it, hi = *hi_it, range = hi - lo;
  const std::uint32_t top = levels - 1;
  if (range < 1e-15) return {lo, 0.0};
  double best_off = lo, best_scale = range / top;
  if (how == TurboQuantRange::kMinMax) return {best_off, best_scale};
  double best = grid_mse(r, best_off, best_scale, top);
  const double n = static_cast<double>(r.size());
  double mu = 0.0, var = 0.0;
  for (double v : r) mu += v;
  mu /= n;
  for (double v : r) var += (v - mu) * (v - mu);
  const double sigma = std::sqrt(var / n);
  // Gaussian MSE-optimal half-widths are about 1.7 sigma (5 levels), 2.3 (11)
  // and 3.9 (256); the grid brackets all three.
  for (const double k : {1.2, 1.5, 1.7, 1.9, 2.1, 2.3, 2.5, 2.8, 3.1, 3.5, 3.9, 4.4}) {
    const double a = std::max(lo, mu - k * sigma), b = std::min(hi, mu + k * sigma);
    if (!(b - a > 1e-15)) continue;
    const double mse = grid_mse(r, a, (b - a) / top, top);
    if (mse < best) best = mse, best_off = a, best_scale = (b - a) / top;
  }
  for (int it = 0; it < 8; ++it) {
    // Least squares of r_i ~ offset + scale*q_i over the current codes.
    double sq = 0.0, sqq = 0.0, sr = 0.0, sqr = 0.0;
    for (double v : r) {
      const double q = code_of(v, best_off, best_scale, top);
      sq += q, sqq += q * q, sr += v, sqr += q * v;
    }
    const double det = n * sqq - sq * sq;
    if (!(det > 0.0)) break;
    const double scale = (n * sqr - sq * sr) / det;
    const double off = (sr - scale * sq) / n;
    if (!(scale > 1e-15) || !std::isfinite(off) || !std::isfinite(scale)) break;
    const double mse = grid_mse(r, off, scale, top);
    if (!(mse < best * (1.0 - 1e-12))) break;  // converged (the refit cannot increase it, but guard rounding)
    best = mse, best_off = off, best_scale = scale;
  }
  return {best_off, best_scale};
}
}  // namespace

TurboQuantized TurboQuantized::quantize(std::span<const double> w, QuantMode mode, std::uint64_t seed, TurboQuantRange range) {
  const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::size_t>(w.size(), kMaxPadded));
  const std::uint32_t p = next_pow2(std::max<std::uint32_t>(n, 1));
  std::vector<double> r(p, 0.0);
  for (std::size_t i = 0; i < n; ++i) r[i] = std::isfinite(w[i]) ? w[i] : 0.0;  // non-finite weights quantise as 0
  turbo_rotate(r, seed);
  const std::uint32_t levels = quant_levels(mode), vpw = quant_values_per_word(mode), top = levels - 1;
  const auto [offset, scale] = choose_grid(r, levels, range);
  const std::size_t words = (static_cast<std::size_t>(p) + vpw - 1) / vpw;
  TurboQuantized out;
  out.bytes_.assign(kTurboQuantHeaderBytes + 4 * words, 0);
  std::uint8_t* b = out.bytes_.data();
  put_u32(b, n);
  put_u32(b + 4, static_cast<std::uint32_t>(mode));
  put_u64(b + 8, seed);
  put_u32(b + 16, p);
  put_u64(b + 20, std::bit_cast<std::uint64_t>(scale));
  put_u64(b + 28, std::bit_cast<std::uint64_t>(offset));
  for (std::size_t wi = 0; wi < words; ++wi) {
    std::uint32_t word = 0, mult = 1;
    for (std::uint32_t k = 0; k < vpw; ++k) {
      const std::size_t i = wi * vpw + k;
      if (i >= p) break;
      const std::uint32_t q = scale > 0.0 ? code_of(r[i], offset, scale, top) : top / 2;
      if (mode == QuantMode::kBits8) {
        word |= q << (8 * k);
      } else {
        word += q * mult;
        mult *= mode == QuantMode::kBits3_5 ? 11 : 5;
      }
    }
    put_u32(b + kTurboQuantHeaderBytes + 4 * wi, word);
  }
  out.rebind();
  return out;
}

TurboQuantized TurboQuantized::quantize_f32(std::span<const float> w, QuantMode mode) {
  std::vector<double> d(w.begin(), w.end());
  return quantize(d, mode);
}

Result<TurboQuantized> TurboQuantized::from_bytes(std::span<const std::uint8_t> bytes) {
  auto v = TurboQuantView::from_bytes(bytes);
  if (!v.is_ok()) return v.status();
  TurboQuantized out;
  out.bytes_.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(kTurboQuantHeaderBytes + 4 * v->n_words()));
  out.rebind();
  return out;
}

TurboQuantized& TurboQuantized::operator=(const TurboQuantized& other) {
  if (this != &other) {
    bytes_ = other.bytes_;
    rebind();
  }
  return *this;
}

void TurboQuantized::rebind() {
  auto v = TurboQuantView::from_bytes(bytes_);
  view_ = v.is_ok() ? v.value() : TurboQuantView{};
}

}  // namespace irithyll::nn
