// Vfdt leaf statistics: class weights or target moments, the per-attribute
// numeric estimators (Gaussian per class, or range-doubling histograms) and
// linear-leaf SGD.
#include <algorithm>
#include <cmath>

#include "irithyll/tree/vfdt.hpp"
#include "tree/category_split.hpp"

namespace irithyll {

namespace {

// Weighted Welford step on [w, mean, M2] (West 1979).
inline void add_sample(double* m, double v, double w) {
  m[0] += w;
  const double d = v - m[1];
  m[1] += w * d / m[0];
  m[2] += w * d * (v - m[1]);
}

// Merges moments b into a (Chan, Golub & LeVeque 1979).
inline void merge_moments(double* a, const double* b) {
  if (b[0] <= 0.0) return;
  const double n = a[0] + b[0];
  const double d = b[1] - a[1];
  a[1] += d * b[0] / n;
  a[2] += b[2] + d * d * a[0] * b[0] / n;
  a[0] = n;
}

}  // namespace

double* Vfdt::histogram_row(double* block, std::size_t f, double v) {
  // block = [lo, width, initialised] then bins rows of bin_stride_ doubles.
  const std::size_t bins = config_.n_bins, half = bins / 2, stride = bin_stride_;
  double* rows = block + 3;
  const bool cls = task_ == Task::kClassification;
  auto merge = [&](double* dst, const double* a, const double* b) {
    if (cls) {
      for (std::size_t k = 0; k < stride; ++k) dst[k] = a[k] + b[k];
    } else {
      double m[3] = {a[0], a[1], a[2]};
      merge_moments(m, b);
      std::copy(m, m + 3, dst);
    }
  };
  if (block[2] == 0.0) {
    const double range = feat_max_[f] - feat_min_[f];
    if (range > 0.0 && std::isfinite(range) && v >= feat_min_[f]) {
      block[1] = range / static_cast<double>(bins);
      block[0] = feat_min_[f];
    } else {
      block[1] = std::max(std::abs(v), 1.0) * 1e-3;
      block[0] = v - block[1] * static_cast<double>(half);
    }
    block[2] = 1.0;
  }
  // Double the range towards v, merging bins in pairs; at most a few
  // thousand steps span the whole double range (bounded for hostile state).
  for (int guard = 0; guard < 4096 && (v < block[0] || v >= block[0] + static_cast<double>(bins) * block[1]); ++guard) {
    if (v < block[0]) {
      // Old bins become the upper half: new bin half + i <- old 2i, 2i + 1
      // (descending so no row is overwritten before it is read).
      for (std::size_t i = half; i-- > 0;)
        merge(rows + (half + i) * stride, rows + 2 * i * stride, rows + (2 * i + 1) * stride);
      std::fill(rows, rows + half * stride, 0.0);
      block[0] -= static_cast<double>(bins) * block[1];
    } else {
      for (std::size_t i = 0; i < half; ++i) merge(rows + i * stride, rows + 2 * i * stride, rows + (2 * i + 1) * stride);
      std::fill(rows + half * stride, rows + bins * stride, 0.0);
    }
    block[1] *= 2.0;
  }
  double bf = std::floor((v - block[0]) / block[1]);
  bf = bf >= 0.0 ? std::min(bf, static_cast<double>(bins - 1)) : 0.0;
  return rows + static_cast<std::size_t>(bf) * stride;
}

void Vfdt::observe(Leaf& leaf, std::span<const double> x, double y, double w) {
  double* s = leaf.stats.data();
  const bool cls = task_ == Task::kClassification;
  const std::size_t yc = cls ? static_cast<std::size_t>(y) : 0;
  if (cls) {
    s[yc] += w;
  } else {
    add_sample(s, y, w);
  }
  double* obs = s + head_size_ + linear_size_;
  for (std::size_t j = 0; j < subspace_; obs += obs_width(leaf.features[j]), ++j) {
    const std::size_t f = leaf.features[j];
    const double v = x[f];
    if (!std::isfinite(v)) continue;
    if (any_nominal_ && nominal_[f]) {
      const int code = category_code(v);
      if (code < 0) continue;  // not a code: missing
      double* row = obs + static_cast<std::size_t>(code) * bin_stride_;
      if (cls) {
        row[yc] += w;
      } else {
        add_sample(row, y, w);
      }
    } else if (gaussian_) {
      double* g = obs + 5 * yc;  // [w, mean, M2, min, max]
      if (g[0] <= 0.0) {
        g[3] = g[4] = v;
      } else {
        g[3] = std::min(g[3], v);
        g[4] = std::max(g[4], v);
      }
      add_sample(g, v, w);
    } else {
      double* row = histogram_row(obs, f, v);
      if (cls) {
        row[yc] += w;
      } else {
        add_sample(row, y, w);
      }
    }
  }
}

void Vfdt::update_linear(Leaf& leaf, double err, double w) {
  // One SGD step on the squared error of mean + w.z (FIMT-DD's perceptron),
  // on the inputs linear_value left in lin_z_.
  if (!std::isfinite(err)) return;
  double* wts = leaf.stats.data() + head_size_;
  double zz = 1.0;
  for (std::size_t j = 0; j < n_features_; ++j) zz += lin_z_[j] * lin_z_[j];
  // The step moves the prediction by gain (|z|^2 + 1) err: capped at err, so
  // that a sample with large standardised inputs (a spike in a heavy-tailed
  // feature) moves the prediction to its target and no further. Uncapped,
  // such samples make the LMS step overshoot, and weights that live on
  // through splits diverge.
  double gain = config_.learning_rate * std::min(w, 1.0 / config_.learning_rate);
  if (gain * zz > 1.0) gain = 1.0 / zz;
  const double step = gain * err;
  // A step beyond kMaxLinearStep (a diverging leaf, or weights from a
  // hostile record) is not taken. With inputs clamped to kMaxStandardised, a
  // step moves a weight by at most 1e100, so no count of steps a stream can
  // make carries one past the doubles.
  if (!(std::abs(step) <= kMaxLinearStep)) return;
  for (std::size_t j = 0; j < n_features_; ++j) wts[j] += step * lin_z_[j];
  wts[n_features_] += step;
}

void Vfdt::widen_linear_block(Leaf& leaf) const {
  const std::size_t m = leaf.features.size(), d = n_features_;
  std::vector<double> wide(leaf.stats.size() + (d - m), 0.0);
  const auto head = static_cast<std::ptrdiff_t>(head_size_);
  std::copy(leaf.stats.begin(), leaf.stats.begin() + head, wide.begin());
  const double* narrow = leaf.stats.data() + head_size_;
  double* w = wide.data() + head_size_;
  for (std::size_t j = 0; j < m; ++j) w[leaf.features[j]] = narrow[j];
  w[d] = narrow[m];
  std::copy(leaf.stats.begin() + head + static_cast<std::ptrdiff_t>(m + 1), leaf.stats.end(),
            wide.begin() + head + static_cast<std::ptrdiff_t>(d + 1));
  leaf.stats = std::move(wide);
}

}  // namespace irithyll
