#include "histogram/histogram_pool.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace irithyll {

void HistogramPool::configure(std::size_t bins) {
  bins_ = bins;
  clear();
}

void HistogramPool::clear() {
  data_.clear();
  scale_.clear();
  free_.clear();
}

std::uint32_t HistogramPool::acquire() {
  std::uint32_t s;
  if (!free_.empty()) {
    s = free_.back();
    free_.pop_back();
  } else {
    s = static_cast<std::uint32_t>(scale_.size());
    const std::size_t need = scale_.size() + 1;
    if (need > scale_.capacity()) {
      // Grow by a quarter (at least two slabs): a split needs at most one
      // new slab, so this keeps both the slack and the reallocations small.
      const std::size_t want = need + std::max<std::size_t>(need / 4, 2);
      scale_.reserve(want);
      data_.reserve(want * stride());
    }
    scale_.push_back(1.0);
    data_.resize(data_.size() + stride());  // zero bins
  }
  // A free slab is already zero (release(), decode()).
  scale_[s] = 1.0;
  return s;
}

bool HistogramPool::owns(std::uint32_t slab) const {
  return slab < scale_.size() && std::find(free_.begin(), free_.end(), slab) == free_.end();
}

// Free slabs are kept zero, so acquire() need not clear them and the sparse
// checkpoint does not carry a freed leaf's stale bins.
void HistogramPool::release(std::uint32_t slab) {
  std::fill_n(bins(slab), stride(), GradBin{});
  free_.push_back(slab);
}

void HistogramPool::compact(std::span<std::uint32_t> refs) {
  std::sort(free_.begin(), free_.end());
  // A live slab's new index is its old one minus the free slabs below it, so
  // it only ever moves down and never onto a live slab not yet moved.
  std::size_t k = 0, fi = 0;
  for (std::size_t s = 0; s < scale_.size(); ++s) {
    if (fi < free_.size() && free_[fi] == s) {
      ++fi;
      continue;
    }
    if (k != s) {
      std::copy_n(data_.data() + s * stride(), stride(), data_.data() + k * stride());
      scale_[k] = scale_[s];
    }
    ++k;
  }
  for (std::uint32_t& r : refs) {
    if (r == kNone) continue;
    r -= static_cast<std::uint32_t>(std::lower_bound(free_.begin(), free_.end(), r) - free_.begin());
  }
  data_.resize(k * stride());
  data_.shrink_to_fit();
  scale_.resize(k);
  scale_.shrink_to_fit();
  free_.clear();
}

void HistogramPool::release_memory() {
  bins_ = 0;
  std::vector<GradBin>().swap(data_);
  std::vector<double>().swap(scale_);
  std::vector<std::uint32_t>().swap(free_);
}

void HistogramPool::materialize(std::uint32_t slab) noexcept {
  const double s = scale_[slab];
  if (s == 1.0) return;
  GradBin* b = bins(slab);
  for (std::size_t i = 0; i < stride(); ++i) {
    b[i].g *= s;
    b[i].h *= s;
  }
  scale_[slab] = 1.0;
}

std::size_t HistogramPool::memory_bytes() const {
  return sizeof(*this) + data_.capacity() * sizeof(GradBin) + scale_.capacity() * sizeof(double) +
         free_.capacity() * sizeof(std::uint32_t);
}

namespace {

// Bit 63 of the bins-per-slab field marks the sparse layout; without it the
// pool is dense (every bin as g, h, count), as every build before wrote it.
constexpr std::uint64_t kSparseLayout = 1ull << 63;

bool is_zero(const GradBin& b) {
  return std::bit_cast<std::uint64_t>(b.g) == 0 && std::bit_cast<std::uint64_t>(b.h) == 0 && b.count == 0;
}

// With unit hessians (squared loss, unit weights, no decay) a bin's h is its
// count, bit for bit: the sparse layout then leaves h out (tag bit 0).
bool h_is_count(const GradBin& b) {
  return std::bit_cast<std::uint64_t>(b.h) == std::bit_cast<std::uint64_t>(static_cast<double>(b.count));
}

// Unsigned LEB128: counts are small, so mostly one or two bytes, not eight.
void put_varint(ByteWriter& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.u8(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.u8(static_cast<std::uint8_t>(v));
}

std::uint64_t get_varint(ByteReader& in, const char* what) {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64 && in.ok(); shift += 7) {
    const std::uint8_t byte = in.u8(what);
    if (shift == 63 && byte > 1) break;  // past 64 bits
    v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  if (in.ok()) in.fail(std::string(what) + ": varint longer than 64 bits");
  return 0;
}

}  // namespace

// Sparse layout: most bins of a young leaf are empty (a leaf made at a split
// starts with zeroed slabs and fills one bin per feature per sample), so each
// slab is written as a bitmap of its non-zero bins (bit i of byte i/8, bits
// past the slab zero) followed by those bins, each as a tag byte, g, h unless
// the tag says h equals the count, and the count as a varint. A bin counts as
// zero only when all of it is +0.0 / 0 bit for bit, so -0.0 round-trips
// exactly. The bitmap also bounds the decoder's allocation: at most 8 bins
// per byte of input.
void HistogramPool::encode(ByteWriter& out) const {
  out.u64(bins_ | kSparseLayout);
  out.u64(scale_.size());
  for (double s : scale_) out.f64(s);
  out.u64(free_.size());
  for (std::uint32_t f : free_) out.u32(f);
  const std::size_t k = stride();
  std::vector<std::uint8_t> bitmap((k + 7) / 8);
  for (std::size_t slab = 0; slab < scale_.size(); ++slab) {
    const GradBin* b = bins(static_cast<std::uint32_t>(slab));
    std::fill(bitmap.begin(), bitmap.end(), std::uint8_t{0});
    for (std::size_t i = 0; i < k; ++i)
      if (!is_zero(b[i])) bitmap[i / 8] |= static_cast<std::uint8_t>(1u << (i % 8));
    out.bytes(bitmap);
    for (std::size_t i = 0; i < k; ++i) {
      if (is_zero(b[i])) continue;
      const bool implied = h_is_count(b[i]);
      out.u8(implied ? 1 : 0);
      out.f64(b[i].g);
      if (!implied) out.f64(b[i].h);
      put_varint(out, b[i].count);
    }
  }
}

Status HistogramPool::decode(ByteReader& in) {
  const std::uint64_t field = in.u64("histogram bins per slab");
  const bool sparse = (field & kSparseLayout) != 0;
  const std::uint64_t bins = field & ~kSparseLayout;
  const std::size_t n = in.read_count(8, "histogram slabs");
  if (!in.ok()) return in.status();
  if (bins > 0xFFFFFFFFull) return Status::corruption("histogram slab size out of range");
  // An empty pool may keep a large bin layout (a reset tree), so the size
  // check against the bytes left applies only when there are slabs to read;
  // the owner checks the layout against its bin edges. Dense: 24 bytes a
  // bin; sparse: a bitmap byte per 8 bins at least.
  const std::uint64_t per_slab = sparse ? (bins + 1 + 7) / 8 : (bins + 1) * 24;
  if (n > 0 && per_slab > in.remaining() / n) return Status::corruption("histogram slabs exceed the bytes left");
  std::vector<double> scale(n);
  for (double& s : scale) s = in.f64("slab scale");
  std::vector<std::uint32_t> fr;
  std::vector<GradBin> data(n * (bins + 1));
  auto read_bin = [&](GradBin& b) {
    b.g = in.f64("bin g");
    b.h = in.f64("bin h");
    b.count = in.u64("bin count");
  };
  auto read_free = [&] {
    fr.resize(in.read_count(4, "free slabs"));
    for (auto& f : fr) f = in.u32("free slab");
  };
  if (!sparse) {
    for (GradBin& b : data) read_bin(b);
    read_free();
  } else {
    read_free();
    const std::size_t k = bins + 1;
    for (std::size_t slab = 0; slab < n && in.ok(); ++slab) {
      const auto bitmap = in.bytes((k + 7) / 8, "histogram bitmap");
      if (!in.ok()) break;
      if (k % 8 != 0 && (bitmap.back() >> (k % 8)) != 0) return Status::corruption("histogram bitmap marks bins past the slab");
      GradBin* b = data.data() + slab * k;
      for (std::size_t i = 0; i < k && in.ok(); ++i) {
        if (((bitmap[i / 8] >> (i % 8)) & 1u) == 0) continue;
        const std::uint8_t tag = in.u8("histogram bin tag");
        if (in.ok() && tag > 1) return Status::corruption("histogram bin tag out of range");
        b[i].g = in.f64("bin g");
        if (tag == 0) b[i].h = in.f64("bin h");
        b[i].count = get_varint(in, "bin count");
        if (tag == 1) b[i].h = static_cast<double>(b[i].count);
        if (in.ok() && is_zero(b[i])) return Status::corruption("histogram bitmap marks a zero bin");
      }
    }
  }
  if (!in.ok()) return in.status();
  for (double s : scale)
    if (!(s > 0.0 && s <= 1.0)) return Status::corruption("histogram scale out of range");
  std::vector<std::uint8_t> seen(n, 0);
  for (auto f : fr)
    if (f >= n || seen[f]++) return Status::corruption("free slab index out of range or repeated");
  // A dense checkpoint (older builds) kept freed slabs' stale bins.
  for (auto f : fr) std::fill_n(data.data() + f * (bins + 1), bins + 1, GradBin{});
  bins_ = bins;
  scale_ = std::move(scale);
  data_ = std::move(data);
  free_ = std::move(fr);
  return Status::ok();
}

}  // namespace irithyll
