// Error of the TurboQuant weight quantiser per mode, for the original's
// min..max grid and our MSE-clipped grid, averaged over many random weight
// vectors. One JSON line per (n, mode, grid):
//
//   rel_l2            ||deq(w) - w|| / ||w||
//   max_err_over_range  max_i |deq(w)_i - w_i| / (max w - min w)
//   rot_max_err_over_max  largest rounding error in the rotated domain over
//                     max |rotated coordinate| (for a min..max grid this is
//                     ~1/(levels-1): the metric the original's "0.4% / 10% /
//                     20%" matches)
//   dot_rel_rms       RMS(q.x - w.x) / RMS(w.x) over random Gaussian x
//
// Usage: bench_turbo_quant_error [vectors=200]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/quant/turbo_quant.hpp"

using namespace irithyll;
using namespace irithyll::nn;

int main(int argc, char** argv) {
  const int vectors = argc > 1 ? std::atoi(argv[1]) : 200;
  constexpr int kDots = 32;
  for (const std::size_t n : {1024u, 1000u}) {
    for (const QuantMode mode : {QuantMode::kBits8, QuantMode::kBits3_5, QuantMode::kBits2_5}) {
      for (const TurboQuantRange grid : {TurboQuantRange::kMinMax, TurboQuantRange::kMseClip}) {
        double rel_l2 = 0.0, worst_l2 = 0.0, max_range = 0.0, rot_max = 0.0, dot_se = 0.0, dot_ref = 0.0, ratio = 0.0;
        for (int v = 0; v < vectors; ++v) {
          Xorshift64 rng(1000 + static_cast<std::uint64_t>(v));
          std::vector<double> w(n);
          for (double& x : w) x = rng.normal();
          const auto q = TurboQuantized::quantize(w, mode, 7 + static_cast<std::uint64_t>(v), grid);
          const auto d = q.dequantize();
          double num = 0.0, den = 0.0, emax = 0.0;
          for (std::size_t i = 0; i < n; ++i) {
            num += (d[i] - w[i]) * (d[i] - w[i]);
            den += w[i] * w[i];
            emax = std::max(emax, std::fabs(d[i] - w[i]));
          }
          const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
          rel_l2 += std::sqrt(num / den);
          worst_l2 = std::max(worst_l2, std::sqrt(num / den));
          max_range += emax / (*hi - *lo);
          // Rotated-domain rounding error against the codes actually stored.
          std::vector<double> r(q.view().padded_len(), 0.0);
          std::copy(w.begin(), w.end(), r.begin());
          turbo_rotate(r, q.view().seed());
          double rmax = 0.0, amax = 0.0;
          for (std::size_t i = 0; i < r.size(); ++i) {
            const double g = q.view().offset() + q.view().scale() * q.view().code(i);
            rmax = std::max(rmax, std::fabs(g - r[i]));
            amax = std::max(amax, std::fabs(r[i]));
          }
          rot_max += rmax / amax;
          for (int k = 0; k < kDots; ++k) {
            std::vector<double> x(n);
            for (double& e : x) e = rng.normal();
            double exact = 0.0;
            for (std::size_t i = 0; i < n; ++i) exact += w[i] * x[i];
            const double got = q.dot(x);
            dot_se += (got - exact) * (got - exact);
            dot_ref += exact * exact;
          }
          ratio = q.compression_ratio();
        }
        const double m = vectors;
        std::printf(
            "{\"bench\": \"turbo_quant_error\", \"n\": %zu, \"mode\": \"%s\", \"grid\": \"%s\", \"vectors\": %d, \"rel_l2_mean\": %.5f, "
            "\"rel_l2_worst\": %.5f, \"max_err_over_range\": %.5f, \"rot_max_err_over_max\": %.5f, \"dot_rel_rms\": %.5f, "
            "\"compression_vs_f64\": %.2f}\n",
            n, mode == QuantMode::kBits8 ? "8" : mode == QuantMode::kBits3_5 ? "3.5" : "2.5",
            grid == TurboQuantRange::kMinMax ? "minmax" : "mse_clip", vectors, rel_l2 / m, worst_l2, max_range / m, rot_max / m,
            std::sqrt(dot_se / dot_ref), ratio);
      }
    }
  }
  return 0;
}
