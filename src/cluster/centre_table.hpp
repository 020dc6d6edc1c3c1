// CentreTable: the centres of a clusterer's micro-clusters, kept in two
// layouts at once so that both uses are flat and fast:
//   rows  row-major, n x d, in index order: centre i at rows[i * d .. i * d + d)
//         (what checkpoints, macro clustering and callers read);
//   cols  feature-major with a stride of capacity(), in slot order:
//         coordinate f of the centre in slot s at cols[f * capacity() + s]
//         (what the distance kernels read, across centres in vector
//         registers). index_at[s] is the index of the centre in slot s.
// A new centre takes the next slot; reorder() puts the centres in the slots
// in any order, so that a caller can store centres near each other in space
// in the same blocks of 16, which the kernels then often leave after a few
// features (distance_kernels.hpp). Results never depend on the slot order.
// Every write goes to both layouts. Capacity doubles when full, so a
// clusterer whose centre count has levelled off never allocates;
// compaction keeps it.
//
// Cost: within/nearest_labelled O(n d) at most (distance_kernels.hpp), plus
// sorting the few centres found; push_back/set O(d) (amortised O(n d) when
// the capacity doubles); compact and reorder O(n d). Thread safety: const
// methods only read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cluster/distance_kernels.hpp"

namespace irithyll::cluster_detail {

class CentreTable {
 public:
  // Empty, of width d.
  void reset(std::size_t d) {
    if (d != d_) {
      cols_.clear();
      cap_ = 0;
    }
    d_ = d;
    n_ = 0;
    rows_.clear();
    clear_labels();
  }
  std::size_t size() const { return n_; }
  std::size_t width() const { return d_; }
  std::size_t capacity() const { return cap_; }
  std::span<const double> rows() const { return {rows_.data(), n_ * d_}; }
  const double* row(std::size_t i) const { return rows_.data() + i * d_; }

  void push_back(const double* x) {
    if (n_ == cap_) grow(std::max<std::size_t>(16, 2 * cap_));
    rows_.insert(rows_.end(), x, x + d_);
    index_at_[n_] = static_cast<std::int64_t>(n_);
    slot_of_[n_] = n_;
    if (labelled_) labels_.push_back(-1);
    write_col(n_, x);
    ++n_;
  }
  void set(std::size_t i, const double* x) {
    std::copy_n(x, d_, rows_.data() + i * d_);
    write_col(slot_of_[i], x);
  }
  // Replaces the contents by n = values.size() / d row-major centres.
  void assign(std::span<const double> values, std::size_t d) {
    reset(d);
    const std::size_t n = d == 0 ? 0 : values.size() / d;
    if (n > cap_) grow(n);
    for (std::size_t i = 0; i < n; ++i) push_back(values.data() + i * d);
  }
  // Keeps the centres with keep[i] != 0, in order; the slots keep their
  // relative order.
  void compact(std::span<const char> keep) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      slot_of_[i] = keep[i] ? out : n_;  // new index of i, for the slots below
      if (!keep[i]) continue;
      if (out != i) std::copy_n(row(i), d_, rows_.data() + out * d_);
      ++out;
    }
    std::size_t slot = 0;
    for (std::size_t s = 0; s < n_; ++s) {
      const std::size_t i = slot_of_[static_cast<std::size_t>(index_at_[s])];
      if (i == n_) continue;
      if (slot != s)
        for (std::size_t f = 0; f < d_; ++f) cols_[f * cap_ + slot] = cols_[f * cap_ + s];
      index_at_[slot++] = static_cast<std::int64_t>(i);
    }
    n_ = out;
    rows_.resize(n_ * d_);
    for (std::size_t s = 0; s < n_; ++s) slot_of_[static_cast<std::size_t>(index_at_[s])] = s;
    clear_labels();
  }
  // Puts centre order[s] in slot s; order is a permutation of 0 .. size() - 1.
  void reorder(std::span<const std::size_t> order) {
    for (std::size_t s = 0; s < n_; ++s) {
      const std::size_t i = order[s];
      index_at_[s] = static_cast<std::int64_t>(i);
      slot_of_[i] = s;
      write_col(s, row(i));
    }
    clear_labels();
  }
  // The labels that nearest_labelled reads: labels[i] for centre i <
  // labels.size(), and -1 (none) for the others and those pushed after.
  // Cleared (nothing labelled) by compact, reorder and reset. seeds: a few
  // labelled centres (say the heaviest of each cluster) whose distance
  // from x bounds the search before it starts, so that blocks far from x
  // stop early from the first one on.
  void set_labels(std::span<const std::int64_t> labels, std::span<const std::size_t> seeds) {
    labelled_ = true;
    seeds_.assign(seeds.begin(), seeds.end());
    labels_.assign(n_, -1);
    for (std::size_t s = 0; s < n_; ++s) {
      const auto i = static_cast<std::size_t>(index_at_[s]);
      if (i < labels.size()) labels_[s] = labels[i];
    }
  }

  // The centres within r2 of x (within_radius), in index order: idx and
  // dist need room for size().
  std::size_t within(const double* x, double r2, std::size_t* idx, double* dist) const {
    const std::size_t found = within_radius(x, cols_.data(), cap_, n_, d_, r2, idx, dist);
    // Slots to indices, then sorted by index (insertion: a handful found).
    for (std::size_t k = 0; k < found; ++k) {
      const auto i = static_cast<std::size_t>(index_at_[idx[k]]);
      const double s = dist[k];
      std::size_t p = k;
      for (; p > 0 && idx[p - 1] > i; --p) idx[p] = idx[p - 1], dist[p] = dist[p - 1];
      idx[p] = i;
      dist[p] = s;
    }
    return found;
  }
  // The index of the first centre nearest to x among those with a label >=
  // 0 (set_labels), or -1 when there is none.
  std::int64_t nearest_labelled(const double* x) const {
    if (!labelled_) return -1;
    // A seed's distance, computed as the kernel does, is one the search
    // will see, so the nearest is no farther (nearest_labelled's bound).
    double bound = __builtin_inf();
    for (const std::size_t i : seeds_) bound = std::min(bound, squared_distance(x, row(i), d_));
    return cluster_detail::nearest_labelled(x, cols_.data(), cap_, n_, d_, labels_.data(), index_at_.data(), bound);
  }

  std::size_t memory_bytes() const {
    return (rows_.capacity() + cols_.capacity()) * sizeof(double) +
           (index_at_.capacity() + labels_.capacity()) * sizeof(std::int64_t) +
           (slot_of_.capacity() + seeds_.capacity()) * sizeof(std::size_t);
  }

 private:
  void clear_labels() {
    labelled_ = false;
    labels_.clear();
    seeds_.clear();
  }
  void write_col(std::size_t s, const double* x) {
    for (std::size_t f = 0; f < d_; ++f) cols_[f * cap_ + s] = x[f];
  }
  void grow(std::size_t cap) {
    std::vector<double> cols(cap * d_, 0.0);
    for (std::size_t f = 0; f < d_; ++f) std::copy_n(cols_.data() + f * cap_, n_, cols.data() + f * cap);
    cols_ = std::move(cols);
    cap_ = cap;
    rows_.reserve(cap * d_);
    index_at_.resize(cap);
    slot_of_.resize(cap);
    labels_.reserve(cap);
  }

  std::size_t d_ = 0, n_ = 0, cap_ = 0;
  std::vector<double> rows_;
  std::vector<double> cols_;
  std::vector<std::int64_t> index_at_;  // slot -> index (int64: nearest_labelled's order)
  std::vector<std::size_t> slot_of_;    // index -> slot
  std::vector<std::int64_t> labels_;    // per slot, when labelled_
  std::vector<std::size_t> seeds_;      // indices of labelled centres, when labelled_
  bool labelled_ = false;
};

}  // namespace irithyll::cluster_detail
