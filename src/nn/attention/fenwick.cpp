#include "nn/attention/fenwick.hpp"

#include <algorithm>

#include "../cpu_features.hpp"

namespace irithyll::nn {

// Compiled for AVX2 and baseline, chosen at load time (cpu_features.hpp).

IRITHYLL_AVX2_CLONES
void fenwick_push(double* levels, std::uint32_t land, std::size_t dk, std::size_t dv, const double* u,
                  const double* v) noexcept {
  const std::size_t block = dk * dv;
  double* dst = levels + static_cast<std::size_t>(land) * block;
  for (std::uint32_t l = 0; l < land; ++l) {
    double* src = levels + static_cast<std::size_t>(l) * block;
    for (std::size_t j = 0; j < block; ++j) dst[j] += src[j];
    std::fill(src, src + block, 0.0);
  }
  for (std::size_t i = 0; i < dk; ++i) {
    double* row = dst + i * dv;
    const double a = u[i];
    for (std::size_t c = 0; c < dv; ++c) row[c] += a * v[c];
  }
}

IRITHYLL_AVX2_CLONES
void fenwick_read(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                  const double* lambda, const double* q, double* out) noexcept {
  std::fill(out, out + dv, 0.0);
  const std::size_t block = dk * dv;
  for (std::uint32_t l = 0; l < n_levels; ++l) {
    if (!((mask >> l) & 1u) || lambda[l] == 0.0) continue;
    const double* s = levels + static_cast<std::size_t>(l) * block;
    for (std::size_t i = 0; i < dk; ++i) {
      const double a = lambda[l] * q[i];
      const double* row = s + i * dv;
      for (std::size_t c = 0; c < dv; ++c) out[c] += a * row[c];
    }
  }
}

}  // namespace irithyll::nn
