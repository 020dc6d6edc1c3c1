// Internal: the per-feature loops of Standardizer (running weighted mean and
// variance, then z-scores), as plain loops (`_ref`) and as 4-lane AVX loops
// chosen at run time. The AVX loops do the same IEEE operations in the same
// order on each lane (division and square root are correctly rounded in
// both; no fused multiply-add is enabled), so the two give the same bits;
// tests/linear/standardizer_kernels_test.cpp checks that on hostile values.
#pragma once

#include <cstddef>

namespace irithyll::linear_detail {

// The statistics of n features, one array each; inv_sd[j] is 1 / sd (0 while
// sd <= 1e-150).
struct StandardizerArrays {
  double* weight;
  double* mean;
  double* m2;
  double* inv_sd;
};

// Folds x (n values) in with the given weight. A missing value (NaN or
// +-inf) leaves its feature as it was; a feature whose sums overflow starts
// again from zero.
void standardizer_learn_ref(const double* x, double weight, const StandardizerArrays& s, std::size_t n) noexcept;
void standardizer_learn(const double* x, double weight, const StandardizerArrays& s, std::size_t n) noexcept;

// z[j] = clamp((x[j] - mean[j]) * inv_sd[j], -1e6, 1e6), 0 for a missing x[j].
void standardizer_transform_ref(const double* x, const double* mean, const double* inv_sd, double* z,
                                std::size_t n) noexcept;
void standardizer_transform(const double* x, const double* mean, const double* inv_sd, double* z,
                            std::size_t n) noexcept;

#if defined(__x86_64__)
// The AVX loops themselves, for the tests. REQUIRES: n >= 4 and
// cpu_has_avx2() (the caller checks).
void standardizer_learn_avx(const double* x, double weight, const StandardizerArrays& s, std::size_t n) noexcept;
void standardizer_transform_avx(const double* x, const double* mean, const double* inv_sd, double* z,
                                std::size_t n) noexcept;
#endif

}  // namespace irithyll::linear_detail
