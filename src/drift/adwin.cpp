#include "irithyll/drift/adwin.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {
namespace {
constexpr std::uint8_t kAdwinFormatVersion = 1;

constexpr std::uint64_t bucket_size(int row) noexcept { return std::uint64_t{1} << row; }
}  // namespace

Adwin::Adwin(double delta) noexcept : delta_(delta) {}

double Adwin::estimated_mean() const noexcept {
  return width_ == 0 ? 0.0 : total_ / static_cast<double>(width_);
}

int Adwin::n_buckets() const noexcept {
  int n = 0;
  for (int r = 0; r < n_rows_; ++r) n += row_count_[static_cast<std::size_t>(r)];
  return n;
}

void Adwin::insert(double value) noexcept {
  if (width_ > 0) {
    // Adding one value to a window of n values with mean mu = T/n grows the
    // sum of squared deviations by n/(n+1) (x - mu)^2 = (n x - T)^2 / (n (n+1))
    // (one division instead of two).
    const double n = static_cast<double>(width_);
    const double d = n * value - total_;
    m2_ += d * d / (n * (n + 1.0));
  }
  ++width_;
  total_ += value;

  double sum = value, m2 = 0.0;
  double half_inv_size = 0.5;  // 1 / (2 * 2^r), halved per row (exact: powers of two)
  for (int r = 0;; ++r, half_inv_size *= 0.5) {
    std::uint8_t& count = row_count_[static_cast<std::size_t>(r)];
    sum_[slot(r, count)] = sum;
    bucket_m2_[slot(r, count)] = m2;
    ++count;
    if (r >= n_rows_) n_rows_ = r + 1;
    if (count <= kMaxBuckets) return;
    if (r == kRows - 1) {  // capacity cap (5 * 2^47 values): forget the oldest bucket
      drop_oldest();
      return;
    }
    // Merge the two oldest buckets (equal size 2^r) into one of the next row;
    // their squared deviations combine by the parallel-variance formula.
    const std::size_t oldest = slot(r, 0), next = slot(r, 1);
    const double a = sum_[oldest], b = sum_[next];
    sum = a + b;
    m2 = bucket_m2_[oldest] + bucket_m2_[next] + (a - b) * (a - b) * half_inv_size;
    std::uint8_t& head = row_head_[static_cast<std::size_t>(r)];
    head = static_cast<std::uint8_t>((head + 2) & (kSlots - 1));
    count = static_cast<std::uint8_t>(count - 2);
  }
}

void Adwin::drop_oldest() noexcept {
  if (n_rows_ == 0) return;
  const int r = n_rows_ - 1;
  std::uint8_t& count = row_count_[static_cast<std::size_t>(r)];
  const double sb = sum_[slot(r, 0)], vb = bucket_m2_[slot(r, 0)];
  std::uint8_t& head = row_head_[static_cast<std::size_t>(r)];
  head = static_cast<std::uint8_t>((head + 1) & (kSlots - 1));
  --count;
  while (n_rows_ > 0 && row_count_[static_cast<std::size_t>(n_rows_ - 1)] == 0) --n_rows_;

  const std::uint64_t nb = bucket_size(r);
  if (width_ <= nb) {
    width_ = 0;
    total_ = m2_ = 0.0;
    return;
  }
  const double w = static_cast<double>(width_), b = static_cast<double>(nb), rest = w - b;
  const double rest_total = total_ - sb;
  const double gap = sb / b - rest_total / rest;
  // Inverse of the parallel-variance merge; clamped against rounding.
  m2_ = std::max(0.0, m2_ - vb - b * rest / w * gap * gap);
  width_ -= nb;
  total_ = rest_total;
}

Adwin::Scan Adwin::scan() const noexcept {
  const double w = static_cast<double>(width_);
  const double var = m2_ / w;
  const double ln_w = std::log(w);
  // delta' = delta / ln|W|; L = ln(2 / delta'). Warning uses 2 delta.
  const double l_drift = std::log(2.0 * ln_w / delta_);
  const double l_warn = std::log(ln_w / delta_);
  // Multiplying |mu0 - mu1| > sqrt(2 var L / m) + 2L / (3m) by n0 n1 gives
  // D > c1 and (D - c1)^2 > c2 n0 n1, with D = |s0 n1 - s1 n0|,
  // c1 = (2/3) L |W|, c2 = 2 var L |W| (using n0 + n1 = |W|).
  const double c1 = 2.0 / 3.0 * l_drift * w, c2 = 2.0 * var * l_drift * w;
  const double c1w = 2.0 / 3.0 * l_warn * w, c2w = 2.0 * var * l_warn * w;
  const double min_side = static_cast<double>(kMinSubwindow);

  Scan out;
  bool warn = false;
  double best = 0.0;  // largest (D - c1)^2 / (c2 n0 n1) among the splits that cut
  int buckets = 0;
  double n0 = 0.0, s0 = 0.0;
  for (int r = n_rows_ - 1; r >= 0; --r) {
    const double size = static_cast<double>(bucket_size(r));
    const int count = row_count_[static_cast<std::size_t>(r)];
    for (int i = 0; i < count; ++i) {
      n0 += size;
      s0 += sum_[slot(r, i)];
      ++buckets;
      const double n1 = w - n0;
      if (n1 < min_side) {
        r = -1;
        break;
      }
      if (n0 < min_side) continue;
      const double d = std::fabs(s0 * n1 - (total_ - s0) * n0);
      const double prod = n0 * n1;
      if (d > c1 && (d - c1) * (d - c1) > c2 * prod) {
        // The split where the evidence is strongest estimates the change
        // point best; everything older than it goes.
        const double margin = c2 * prod > 0.0 ? (d - c1) * (d - c1) / (c2 * prod) : HUGE_VAL;
        if (out.cut != Cut::kDrift || margin > best) {
          best = margin;
          out.drop = buckets;
        }
        out.cut = Cut::kDrift;
      } else if (d > c1w && (d - c1w) * (d - c1w) > c2w * prod) {
        warn = true;
      }
    }
  }
  if (out.cut != Cut::kDrift && warn) out.cut = Cut::kWarning;
  return out;
}

DriftSignal Adwin::update(double value) noexcept {
  if (!(std::fabs(value) <= kMaxMagnitude)) return DriftSignal::kStable;  // also NaN and +-inf
  insert(value);
  if (++tick_ < kClock) return warning_ ? DriftSignal::kWarning : DriftSignal::kStable;
  tick_ = 0;
  warning_ = false;
  if (width_ <= kMinWindow) return DriftSignal::kStable;
  bool drifted = false;
  for (;;) {
    const Scan scanned = scan();
    if (scanned.cut != Cut::kDrift) {
      warning_ = !drifted && scanned.cut == Cut::kWarning;
      break;
    }
    drifted = true;
    // Drop the whole older side W0 of the strongest split (each pass removes
    // at least one bucket, so this terminates).
    for (int i = 0; i < scanned.drop; ++i) drop_oldest();
  }
  if (drifted) return DriftSignal::kDrift;
  return warning_ ? DriftSignal::kWarning : DriftSignal::kStable;
}

void Adwin::reset() noexcept { *this = Adwin(delta_); }

std::unique_ptr<DriftDetector> Adwin::clone_fresh() const { return std::make_unique<Adwin>(delta_); }

std::unique_ptr<DriftDetector> Adwin::clone() const { return std::make_unique<Adwin>(*this); }

void Adwin::encode(ByteWriter& out) const {
  out.u8(kAdwinFormatVersion);
  out.f64(delta_);
  out.u64(width_);
  out.f64(total_);
  out.f64(m2_);
  out.u32(tick_);
  out.boolean(warning_);
  out.u8(static_cast<std::uint8_t>(n_rows_));
  for (int r = 0; r < n_rows_; ++r) {
    const int count = row_count_[static_cast<std::size_t>(r)];
    out.u8(static_cast<std::uint8_t>(count));
    for (int i = 0; i < count; ++i) {
      out.f64(sum_[slot(r, i)]);
      out.f64(bucket_m2_[slot(r, i)]);
    }
  }
}

Status Adwin::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("adwin version");
  if (in.ok() && version != kAdwinFormatVersion) in.fail("unsupported adwin version " + std::to_string(version));
  const double delta = in.f64("delta");
  if (in.ok()) in.expect(delta > 0.0 && delta < 1.0, "adwin delta outside (0, 1)");
  auto d = std::make_unique<Adwin>(delta);  // 4.7 KB: keep it off the stack
  d->width_ = in.u64("width");
  d->total_ = in.f64("total");
  d->m2_ = in.f64("m2");
  d->tick_ = in.u32("tick");
  d->warning_ = in.boolean("warning");
  const int n_rows = in.u8("n_rows");
  if (in.ok()) in.expect(n_rows <= kRows, "adwin row count");
  std::uint64_t width = 0;
  bool finite = std::isfinite(d->total_) && std::isfinite(d->m2_) && d->m2_ >= 0.0;
  for (int r = 0; r < n_rows && in.ok(); ++r) {
    const int count = in.u8("bucket count");
    if (!in.expect(count <= kMaxBuckets, "adwin bucket count")) break;
    if (r == n_rows - 1) in.expect(count > 0, "adwin empty top row");
    d->row_count_[static_cast<std::size_t>(r)] = static_cast<std::uint8_t>(count);
    width += static_cast<std::uint64_t>(count) * bucket_size(r);
    for (int i = 0; i < count; ++i) {
      d->sum_[d->slot(r, i)] = in.f64("bucket sum");
      d->bucket_m2_[d->slot(r, i)] = in.f64("bucket m2");
      finite = finite && std::isfinite(d->sum_[d->slot(r, i)]) && d->bucket_m2_[d->slot(r, i)] >= 0.0 &&
               std::isfinite(d->bucket_m2_[d->slot(r, i)]);
    }
  }
  d->n_rows_ = n_rows;
  if (!in.ok()) return in.status();
  in.expect(finite, "adwin non-finite statistics");
  in.expect(width == d->width_, "adwin width disagrees with its buckets");
  in.expect(d->tick_ < kClock, "adwin clock");
  if (!in.ok()) return in.status();
  *this = *d;
  return Status::ok();
}

}  // namespace irithyll
