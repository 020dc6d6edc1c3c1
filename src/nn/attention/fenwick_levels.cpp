#include "irithyll/nn/attention/fenwick_levels.hpp"

#include <algorithm>

#include "../cpu_features.hpp"

#include "nn/attention/fenwick.hpp"

namespace irithyll::nn {

// Compiled for AVX2 and baseline, chosen at load time (cpu_features.hpp).

IRITHYLL_AVX2_CLONES
std::uint64_t loglinear_paper_merge(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                    std::size_t dv) noexcept {
  // The run that token t - 1 completed (an empty mask, t = 0: nothing to merge).
  const std::size_t block = dk * dv;
  const std::uint32_t land = fenwick_landing_level(mask, n_levels);
  double* dst = levels + static_cast<std::size_t>(land) * block;
  for (std::uint32_t l = 0; l < land; ++l) {
    double* src = levels + static_cast<std::size_t>(l) * block;
    for (std::size_t j = 0; j < block; ++j) dst[j] += src[j];
    std::fill(src, src + block, 0.0);
  }
  return fenwick_next_mask(mask, land) | 1u;
}

IRITHYLL_AVX2_CLONES
void loglinear_paper_transition_write(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                      std::size_t dv, double alpha, double erase, const double* kh, double write,
                                      const double* v, double* u) noexcept {
  const std::size_t block = dk * dv;
  // The inner rule's transition on every active level.
  for (std::uint32_t l = 0; l < n_levels; ++l) {
    if (!((mask >> l) & 1u)) continue;
    double* s = levels + static_cast<std::size_t>(l) * block;
    if (erase != 0.0) {
      std::fill(u, u + dv, 0.0);  // u = S^T kh
      for (std::size_t i = 0; i < dk; ++i) {
        const double a = kh[i];
        const double* row = s + i * dv;
        for (std::size_t c = 0; c < dv; ++c) u[c] += a * row[c];
      }
      for (std::size_t i = 0; i < dk; ++i) {
        const double a = erase * kh[i];
        double* row = s + i * dv;
        for (std::size_t c = 0; c < dv; ++c) row[c] = alpha * (row[c] - a * u[c]);
      }
    } else {
      for (std::size_t j = 0; j < block; ++j) s[j] *= alpha;
    }
  }
  // The current token's write, in its own level.
  for (std::size_t i = 0; i < dk; ++i) {
    const double a = write * kh[i];
    double* row = levels + i * dv;
    for (std::size_t c = 0; c < dv; ++c) row[c] += a * v[c];
  }
}

std::uint64_t loglinear_paper_update(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                     std::size_t dv, double alpha, double erase, const double* kh, double write,
                                     const double* v, double* u) noexcept {
  mask = loglinear_paper_merge(levels, mask, n_levels, dk, dv);
  loglinear_paper_transition_write(levels, mask, n_levels, dk, dv, alpha, erase, kh, write, v, u);
  return mask;
}

void loglinear_paper_read(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                          std::size_t dv, const double* lambda, const double* q, double* out) noexcept {
  fenwick_read(levels, mask, n_levels, dk, dv, lambda, q, out);
}

}  // namespace irithyll::nn
