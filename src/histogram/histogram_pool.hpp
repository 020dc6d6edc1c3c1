// HistogramPool: contiguous storage for the per-leaf gradient histograms of
// one tree, with O(1) lazy exponential forgetting.
//
// Layout. A slab is one leaf's histograms for every feature, laid out as
//   [feature 0: bin 0 .. bin n0-1][feature 1: ...]...[total]
// where each element is a GradBin {g, h, count} (24 bytes, interleaved so one
// sample's update touches one cache line per feature), the feature offsets
// come from the tree's bin layout, and the trailing `total` element sums every
// accumulated sample (so missing values per feature are total - sum of bins).
// Slabs live back to back in one vector; released slabs go on a free list and
// are reused. Storage grows by a quarter at a time (not doubling), and
// compact() hands back the slabs of leaves that reached max_depth, so a
// tree's histogram memory tracks its live splittable leaves within ~25%
// instead of its historical peak times two.
//
// Lazy forgetting (forward decay, Cormode et al. 2009): instead of multiplying
// every bin by alpha per sample (O(bins)), each slab keeps a scale s; a sample
// multiplies s by alpha and adds g/s, h/s. The true sums are stored * s. When
// s falls below 1e-100 the slab is materialised (multiplied out, s = 1).
// Counts are never decayed. Cost: O(1) per sample besides the bin writes.
//
// Checkpoints write each slab as a bitmap of its non-zero bins plus those
// bins (histogram_pool.cpp; docs/format-checkpoint.md); free slabs are kept
// zero (release(), decode()), so a freed leaf's bins are not written.
//
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

struct GradBin {
  double g = 0.0;
  double h = 0.0;
  std::uint64_t count = 0;
};

class HistogramPool {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  static constexpr double kMaterializeBelow = 1e-100;

  // Drops every slab (capacity kept); slabs will hold `bins` GradBins + total.
  void configure(std::size_t bins);
  std::size_t bins_per_slab() const { return bins_; }

  // A zeroed slab with scale 1 (allocates only when the free list is empty).
  std::uint32_t acquire();
  void release(std::uint32_t slab);
  std::size_t live_slabs() const { return scale_.size() - free_.size(); }
  std::size_t free_slabs() const { return free_.size(); }
  std::size_t n_slabs() const { return scale_.size(); }
  // Slabs the storage can hold without reallocating (diagnostics).
  std::size_t capacity_slabs() const { return stride() == 0 ? 0 : data_.capacity() / stride(); }
  // True when `slab` exists and is not on the free list.
  bool owns(std::uint32_t slab) const;

  GradBin* bins(std::uint32_t slab) { return data_.data() + static_cast<std::size_t>(slab) * stride(); }
  const GradBin* bins(std::uint32_t slab) const { return data_.data() + static_cast<std::size_t>(slab) * stride(); }
  GradBin& total(std::uint32_t slab) { return bins(slab)[bins_]; }
  const GradBin& total(std::uint32_t slab) const { return bins(slab)[bins_]; }
  double scale(std::uint32_t slab) const { return scale_[slab]; }

  // Starts one decayed sample: scale *= alpha (materialising if tiny) and
  // returns the factor 1/scale to multiply g and h by before adding them.
  double decay_step(std::uint32_t slab, double alpha) noexcept {
    double& s = scale_[slab];
    s *= alpha;
    if (s < kMaterializeBelow) materialize(slab);
    return 1.0 / s;
  }
  // Multiplies the stored sums by the scale and sets it to 1.
  void materialize(std::uint32_t slab) noexcept;

  // Moves the live slabs to the front in index order, drops the free ones and
  // returns their memory; every slab index in `refs` (kNone entries are
  // skipped) is renumbered to match. Contents and scales move unchanged.
  // Allocates (one shrink per vector): call on structural events only.
  void compact(std::span<std::uint32_t> refs);

  void clear();
  // clear() and give the storage back to the allocator; bins per slab -> 0.
  void release_memory();
  std::size_t memory_bytes() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  std::size_t stride() const { return bins_ + 1; }
  std::size_t bins_ = 0;
  std::vector<GradBin> data_;
  std::vector<double> scale_;
  std::vector<std::uint32_t> free_;
};

}  // namespace irithyll
