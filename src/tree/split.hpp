// Split scoring for gradient-statistics trees: the XGBoost structure score
// (Chen & Guestrin 2016, eq. 7) over one feature's histogram.
//
//   gain = 1/2 [ GL^2/(HL+lambda) + GR^2/(HR+lambda) - G^2/(H+lambda) ] - gamma
//   leaf weight w* = -G / (H + lambda)
//
// A scan tries "left = bins 0..b" for b = 0..n-2. Samples whose value was
// missing (NaN) are routed left at prediction, so their sums (g_miss, h_miss)
// always join the left side. Both children need hessian >= min_child_hessian
// (1.0 by default) and at least min_child_samples samples (0 = no limit; the
// counts are n_total and n_miss). Only gain > 0 is a candidate; ties keep the
// lowest bin.
//
// best_split_ref is the definition; best_split is the fast path (the parent
// term and gamma hoisted out of the loop, compares structure scores) and is
// tested against it. Cost O(n_bins), no allocation. Thread safety: pure.
#pragma once

#include <cstdint>

#include "histogram/histogram_pool.hpp"

namespace irithyll {

struct GainParams {
  double lambda = 1.0;
  double gamma = 0.0;
  double min_child_hessian = 1.0;
  std::uint64_t min_child_samples = 0;
  // Monotone constraint of the feature scored: +1 keeps only candidates with
  // left weight <= right weight, -1 the reverse, 0 all.
  int monotone = 0;
};

struct SplitCandidate {
  std::uint32_t feature = 0;
  std::uint32_t bin = 0;  // left = bins 0..bin
  double gain = 0.0;
  double gl = 0.0, hl = 0.0, gr = 0.0, hr = 0.0;
};

inline double leaf_weight(double g, double h, double lambda) noexcept {
  const double d = h + lambda;
  return d > 0.0 ? -g / d : 0.0;
}

double split_gain(double gl, double hl, double gr, double hr, double lambda, double gamma) noexcept;

// `bins` are true sums (decay already materialised); scale multiplies them.
bool best_split_ref(const GradBin* bins, std::uint32_t n_bins, double g_total, double h_total, double g_miss,
                    double h_miss, const GainParams& p, SplitCandidate& out, std::uint64_t n_total = 0,
                    std::uint64_t n_miss = 0) noexcept;
bool best_split(const GradBin* bins, std::uint32_t n_bins, double g_total, double h_total, double g_miss,
                double h_miss, const GainParams& p, SplitCandidate& out, std::uint64_t n_total = 0,
                std::uint64_t n_miss = 0) noexcept;

}  // namespace irithyll
