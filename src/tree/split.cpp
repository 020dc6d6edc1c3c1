#include "tree/split.hpp"

namespace irithyll {

double split_gain(double gl, double hl, double gr, double hr, double lambda, double gamma) noexcept {
  const double g = gl + gr, h = hl + hr;
  return 0.5 * (gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - g * g / (h + lambda)) - gamma;
}

bool best_split_ref(const GradBin* bins, std::uint32_t n_bins, double g_total, double h_total, double g_miss,
                    double h_miss, const GainParams& p, SplitCandidate& out, std::uint64_t n_total,
                    std::uint64_t n_miss) noexcept {
  if (n_bins < 2) return false;
  bool found = false;
  double gl = g_miss, hl = h_miss;
  std::uint64_t nl = n_miss;
  for (std::uint32_t b = 0; b + 1 < n_bins; ++b) {
    gl += bins[b].g;
    hl += bins[b].h;
    nl += bins[b].count;
    const double gr = g_total - gl, hr = h_total - hl;
    if (hl < p.min_child_hessian || hr < p.min_child_hessian) continue;
    if (p.min_child_samples > 0 && (nl < p.min_child_samples || n_total - nl < p.min_child_samples)) continue;
    if (p.monotone != 0 && p.monotone * (leaf_weight(gr, hr, p.lambda) - leaf_weight(gl, hl, p.lambda)) < 0.0) continue;
    const double gain = split_gain(gl, hl, gr, hr, p.lambda, p.gamma);
    if (gain > 0.0 && (!found || gain > out.gain)) {
      found = true;
      out.bin = b;
      out.gain = gain;
      out.gl = gl;
      out.hl = hl;
      out.gr = gr;
      out.hr = hr;
    }
  }
  return found;
}

namespace {

// The best bin of best_split's left-to-right scan (n_bins when none beats
// floor_score); its left sums in best_gl, best_hl.
template <bool kMonotone>
std::uint32_t scan_bins(const GradBin* bins, std::uint32_t n_bins, double g_total, double h_total, double g_miss,
                        double h_miss, const GainParams& p, std::uint64_t n_total, std::uint64_t n_miss,
                        double floor_score, double& best_gl, double& best_hl) noexcept {
  double best_score = floor_score;
  std::uint32_t best_bin = n_bins;
  double gl = g_miss, hl = h_miss;
  // With no sample limit the count test is always true (0 >= 0, n - nl >= 0).
  const std::uint64_t min_n = p.min_child_samples;
  std::uint64_t nl = n_miss;
  for (std::uint32_t b = 0; b + 1 < n_bins; ++b) {
    gl += bins[b].g;
    hl += bins[b].h;
    nl += bins[b].count;
    const double gr = g_total - gl, hr = h_total - hl;
    bool ok = hl >= p.min_child_hessian && hr >= p.min_child_hessian && nl >= min_n && n_total - nl >= min_n;
    if constexpr (kMonotone) ok = ok && p.monotone * (leaf_weight(gr, hr, p.lambda) - leaf_weight(gl, hl, p.lambda)) >= 0.0;
    const double score = gl * gl / (hl + p.lambda) + gr * gr / (hr + p.lambda);
    if (ok && score > best_score) {
      best_score = score;
      best_bin = b;
      best_gl = gl;
      best_hl = hl;
    }
  }
  return best_bin;
}

}  // namespace

bool best_split(const GradBin* bins, std::uint32_t n_bins, double g_total, double h_total, double g_miss,
                double h_miss, const GainParams& p, SplitCandidate& out, std::uint64_t n_total,
                std::uint64_t n_miss) noexcept {
  if (n_bins < 2) return false;
  // gain > 0  <=>  score > parent + 2 gamma, with score = GL^2/(HL+l) + GR^2/(HR+l).
  const double parent = g_total * g_total / (h_total + p.lambda);
  const double floor_score = parent + 2.0 * p.gamma;
  // The scan is instantiated with and without the monotone test, so an
  // unconstrained feature (the common case) pays nothing for it per bin.
  double best_gl = 0.0, best_hl = 0.0;
  const std::uint32_t best_bin =
      p.monotone != 0 ? scan_bins<true>(bins, n_bins, g_total, h_total, g_miss, h_miss, p, n_total, n_miss, floor_score, best_gl, best_hl)
                      : scan_bins<false>(bins, n_bins, g_total, h_total, g_miss, h_miss, p, n_total, n_miss, floor_score, best_gl, best_hl);
  if (best_bin == n_bins) return false;
  out.bin = best_bin;
  out.gl = best_gl;
  out.hl = best_hl;
  out.gr = g_total - best_gl;
  out.hr = h_total - best_hl;
  out.gain = split_gain(out.gl, out.hl, out.gr, out.hr, p.lambda, p.gamma);
  if (!(out.gain > 0.0)) return false;  // rounding at the boundary: defer to the definition
  return true;
}

}  // namespace irithyll
