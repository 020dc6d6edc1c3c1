// CentreTable: the centres of a clusterer's micro-clusters, kept in two
// layouts at once so that both uses are flat and fast:
//   rows  row-major, n x d: centre i at rows[i * d .. i * d + d) (what
//         checkpoints, macro clustering and callers read);
//   cols  feature-major with a stride of capacity(): coordinate f of centre i
//         at cols[f * capacity() + i] (what the distance kernel reads, across
//         centres in vector registers).
// Every write goes to both. Capacity doubles when full, so a clusterer whose
// centre count has levelled off never allocates; compaction keeps it.
//
// Cost: distances O(n d) through squared_distances (distance_kernels.hpp);
// push_back/set O(d) (amortised O(n d) when the capacity doubles); compact
// O(n d). Thread safety: const methods only read.
#pragma once

#include <algorithm>
#include <cstddef>
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
  }
  std::size_t size() const { return n_; }
  std::size_t width() const { return d_; }
  std::size_t capacity() const { return cap_; }
  std::span<const double> rows() const { return {rows_.data(), n_ * d_}; }
  const double* row(std::size_t i) const { return rows_.data() + i * d_; }

  void push_back(const double* x) {
    if (n_ == cap_) grow(std::max<std::size_t>(16, 2 * cap_));
    rows_.insert(rows_.end(), x, x + d_);
    write_col(n_, x);
    ++n_;
  }
  void set(std::size_t i, const double* x) {
    std::copy_n(x, d_, rows_.data() + i * d_);
    write_col(i, x);
  }
  // Replaces the contents by n = values.size() / d row-major centres.
  void assign(std::span<const double> values, std::size_t d) {
    reset(d);
    const std::size_t n = d == 0 ? 0 : values.size() / d;
    if (n > cap_) grow(n);
    for (std::size_t i = 0; i < n; ++i) push_back(values.data() + i * d);
  }
  // Keeps the centres with keep[i] != 0, in order.
  void compact(std::span<const char> keep) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      if (!keep[i]) continue;
      if (out != i) set(out, row(i));
      ++out;
    }
    n_ = out;
    rows_.resize(n_ * d_);
  }

  // out[i] = |x - centre (begin + i)|^2 for i < count; begin + count <= size().
  void distances(const double* x, std::size_t begin, std::size_t count, double* out) const {
    squared_distances(x, cols_.data() + begin, cap_, count, d_, out);
  }

  // The centres within r2 of x (within_radius); idx and dist need room for size().
  std::size_t within(const double* x, double r2, std::size_t* idx, double* dist) const {
    return within_radius(x, cols_.data(), cap_, n_, d_, r2, idx, dist);
  }

  // The first centre i < n <= size() with labels[i] >= 0 nearest to x
  // (nearest_labelled); n when there is none.
  std::size_t nearest_labelled(const double* x, std::size_t n, const std::int64_t* labels) const {
    return cluster_detail::nearest_labelled(x, cols_.data(), cap_, n, d_, labels);
  }

  std::size_t memory_bytes() const { return (rows_.capacity() + cols_.capacity()) * sizeof(double); }

 private:
  void write_col(std::size_t i, const double* x) {
    for (std::size_t f = 0; f < d_; ++f) cols_[f * cap_ + i] = x[f];
  }
  void grow(std::size_t cap) {
    std::vector<double> cols(cap * d_, 0.0);
    for (std::size_t f = 0; f < d_; ++f) std::copy_n(cols_.data() + f * cap_, n_, cols.data() + f * cap);
    cols_ = std::move(cols);
    cap_ = cap;
    rows_.reserve(cap * d_);
  }

  std::size_t d_ = 0, n_ = 0, cap_ = 0;
  std::vector<double> rows_;
  std::vector<double> cols_;
};

}  // namespace irithyll::cluster_detail
