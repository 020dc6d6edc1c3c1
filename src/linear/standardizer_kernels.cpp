#include "linear/standardizer_kernels.hpp"

#include <algorithm>
#include <cmath>

#include "core/cpu_features.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace irithyll::linear_detail {
void standardizer_learn_ref(const double* x, double weight, const StandardizerArrays& s, std::size_t n) noexcept {
  for (std::size_t j = 0; j < n; ++j) {
    const double v = x[j];
    if (!(v - v == 0.0)) continue;  // missing
    s.weight[j] += weight;
    // West (1979): the weighted form of Welford's update.
    const double delta = v - s.mean[j];
    s.mean[j] += delta * (weight / s.weight[j]);
    s.m2[j] += weight * delta * (v - s.mean[j]);
    if (!std::isfinite(s.mean[j]) || !std::isfinite(s.m2[j]) || !std::isfinite(s.weight[j])) {
      // Values near the double range overflow the sums: start this feature again.
      s.weight[j] = s.mean[j] = s.m2[j] = s.inv_sd[j] = 0.0;
      continue;
    }
    const double sd = std::sqrt(s.m2[j] / s.weight[j]);
    s.inv_sd[j] = sd > 1e-150 ? 1.0 / sd : 0.0;  // 1/sd stays finite
  }
}

void standardizer_transform_ref(const double* x, const double* mean, const double* inv_sd, double* z,
                                std::size_t n) noexcept {
  for (std::size_t j = 0; j < n; ++j) {
    const double v = x[j];
    // Clamped at 1e6 sd so that an outlier near the double range cannot
    // overflow a score.
    z[j] = v - v == 0.0 ? std::clamp((v - mean[j]) * inv_sd[j], -1e6, 1e6) : 0.0;
  }
}

#if defined(__x86_64__)
namespace {

// One block of four features: the statistics as they were and as they become.
struct LearnBlock {
  __m256d w0, m0, q0, i0;  // before
  __m256d w1, m1, q1, i1;  // after, where the value is present and the sums finite
  __m256d present, finite;
};

__attribute__((target("avx"))) LearnBlock learn_block(const double* x, __m256d wt, const StandardizerArrays& s,
                                                      std::size_t j) noexcept {
  const __m256d zero = _mm256_setzero_pd();
  LearnBlock b;
  const __m256d v = _mm256_loadu_pd(x + j);
  b.present = _mm256_cmp_pd(_mm256_sub_pd(v, v), zero, _CMP_EQ_OQ);
  b.w0 = _mm256_loadu_pd(s.weight + j);
  b.m0 = _mm256_loadu_pd(s.mean + j);
  b.q0 = _mm256_loadu_pd(s.m2 + j);
  b.i0 = _mm256_loadu_pd(s.inv_sd + j);
  b.w1 = _mm256_add_pd(b.w0, wt);
  const __m256d delta = _mm256_sub_pd(v, b.m0);
  b.m1 = _mm256_add_pd(b.m0, _mm256_mul_pd(delta, _mm256_div_pd(wt, b.w1)));
  b.q1 = _mm256_add_pd(b.q0, _mm256_mul_pd(_mm256_mul_pd(wt, delta), _mm256_sub_pd(v, b.m1)));
  // All three finite <=> the sum of their self-differences is 0 (an
  // infinity or NaN among them makes it NaN).
  const __m256d spread =
      _mm256_add_pd(_mm256_add_pd(_mm256_sub_pd(b.m1, b.m1), _mm256_sub_pd(b.q1, b.q1)), _mm256_sub_pd(b.w1, b.w1));
  b.finite = _mm256_cmp_pd(spread, zero, _CMP_EQ_OQ);
  const __m256d sd = _mm256_sqrt_pd(_mm256_div_pd(b.q1, b.w1));
  b.i1 = _mm256_blendv_pd(zero, _mm256_div_pd(_mm256_set1_pd(1.0), sd),
                          _mm256_cmp_pd(sd, _mm256_set1_pd(1e-150), _CMP_GT_OQ));
  return b;
}

__attribute__((target("avx"))) void store_block(const LearnBlock& b, const StandardizerArrays& s,
                                                std::size_t j) noexcept {
  if (_mm256_movemask_pd(_mm256_and_pd(b.present, b.finite)) == 0xF) {
    // The common case stores the new values outright: blending them with
    // the old 1/sd would make each sample's square root and divisions wait
    // for the last sample's.
    _mm256_storeu_pd(s.weight + j, b.w1);
    _mm256_storeu_pd(s.mean + j, b.m1);
    _mm256_storeu_pd(s.m2 + j, b.q1);
    _mm256_storeu_pd(s.inv_sd + j, b.i1);
    return;
  }
  // Present and finite: the new values; present and not finite: zeros;
  // missing: the old values.
  _mm256_storeu_pd(s.weight + j, _mm256_blendv_pd(b.w0, _mm256_and_pd(b.w1, b.finite), b.present));
  _mm256_storeu_pd(s.mean + j, _mm256_blendv_pd(b.m0, _mm256_and_pd(b.m1, b.finite), b.present));
  _mm256_storeu_pd(s.m2 + j, _mm256_blendv_pd(b.q0, _mm256_and_pd(b.q1, b.finite), b.present));
  _mm256_storeu_pd(s.inv_sd + j, _mm256_blendv_pd(b.i0, _mm256_and_pd(b.i1, b.finite), b.present));
}

}  // namespace

// The three divisions and the square root per feature are what the scalar
// loop waits on; four lanes share each. When n is not a multiple of 4 the
// last block overlaps the one before it: it is read before anything is
// stored and stored last, so its shared lanes are written twice with the
// same values, computed from the same statistics.
__attribute__((target("avx"))) void standardizer_learn_avx(const double* x, double weight,
                                                          const StandardizerArrays& s, std::size_t n) noexcept {
  const __m256d wt = _mm256_set1_pd(weight);
  const std::size_t last = n - 4;
  const LearnBlock tail = learn_block(x, wt, s, last);
  for (std::size_t j = 0; j < last; j += 4) store_block(learn_block(x, wt, s, j), s, j);
  store_block(tail, s, last);
}

__attribute__((target("avx"))) void standardizer_transform_avx(const double* x, const double* mean,
                                                              const double* inv_sd, double* z,
                                                              std::size_t n) noexcept {
  const __m256d zero = _mm256_setzero_pd();
  const __m256d lo = _mm256_set1_pd(-1e6);
  const __m256d hi = _mm256_set1_pd(1e6);
  // A last partial block overlaps the one before it (z is a pure function of
  // x and the statistics).
  for (std::size_t j = 0;; j += 4) {
    if (j + 4 > n) j = n - 4;
    const __m256d v = _mm256_loadu_pd(x + j);
    const __m256d present = _mm256_cmp_pd(_mm256_sub_pd(v, v), zero, _CMP_EQ_OQ);
    __m256d t = _mm256_mul_pd(_mm256_sub_pd(v, _mm256_loadu_pd(mean + j)), _mm256_loadu_pd(inv_sd + j));
    // std::clamp's order: t < lo gives lo, else hi < t gives hi, else t
    // (a NaN stays NaN).
    t = _mm256_blendv_pd(t, lo, _mm256_cmp_pd(t, lo, _CMP_LT_OQ));
    t = _mm256_blendv_pd(t, hi, _mm256_cmp_pd(hi, t, _CMP_LT_OQ));
    _mm256_storeu_pd(z + j, _mm256_and_pd(t, present));
    if (j + 4 == n) break;
  }
}
#endif

void standardizer_learn(const double* x, double weight, const StandardizerArrays& s, std::size_t n) noexcept {
#if defined(__x86_64__)
  if (n >= 4 && cpu_has_avx2()) return standardizer_learn_avx(x, weight, s, n);
#endif
  standardizer_learn_ref(x, weight, s, n);
}

void standardizer_transform(const double* x, const double* mean, const double* inv_sd, double* z,
                            std::size_t n) noexcept {
#if defined(__x86_64__)
  if (n >= 4 && cpu_has_avx2()) return standardizer_transform_avx(x, mean, inv_sd, z, n);
#endif
  standardizer_transform_ref(x, mean, inv_sd, z, n);
}

}  // namespace irithyll::linear_detail
