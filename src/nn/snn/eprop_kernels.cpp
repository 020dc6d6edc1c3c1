#include "nn/snn/eprop_kernels.hpp"

#include "nn/snn/q14.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define IRITHYLL_SNN_X86 1
#endif

#include "core/cpu_features.hpp"

namespace irithyll::nn {

void eprop_row_ref(std::int16_t* e, std::int16_t* w, const std::int16_t* psi, const std::int16_t* learning,
                   std::size_t n, std::int32_t trace, std::int32_t kappa, std::int32_t eta) noexcept {
  const std::int32_t one_minus_kappa = q14::kOne - kappa;
  for (std::size_t j = 0; j < n; ++j) {
    const std::int32_t ej = q14::mul(e[j], kappa) + q14::mul(one_minus_kappa, q14::mul(psi[j], trace));
    e[j] = q14::sat16(ej);
    const std::int32_t g = q14::sat16(q14::mul(e[j], learning[j]));
    w[j] = q14::sat16(static_cast<std::int32_t>(w[j]) + q14::mul(eta, g));
  }
}

#ifdef IRITHYLL_SNN_X86
namespace {

__attribute__((target("avx2"))) inline __m256i mulq(__m256i a, __m256i b, __m256i half) {
  return _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(a, b), half), 14);
}
// 16 int32 lanes (two registers) -> 16 saturated int16 in order.
__attribute__((target("avx2"))) inline __m256i pack16(__m256i lo, __m256i hi) {
  return _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xD8);
}
__attribute__((target("avx2"))) inline __m256i lo32(__m256i v) {
  return _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v));
}
__attribute__((target("avx2"))) inline __m256i hi32(__m256i v) {
  return _mm256_cvtepi16_epi32(_mm256_extracti128_si256(v, 1));
}

// mulhrs computes (x*y + 2^14) >> 15 on int16 lanes, which is exactly the Q14
// product (a*b + 2^13) >> 14 when x = 2a; the REQUIRES bounds on kappa, eta
// and psi keep every doubled operand inside int16. Only e*L (two unbounded
// int16 values) needs the 32-bit path.
__attribute__((target("avx2"))) void eprop_row_avx2(std::int16_t* e, std::int16_t* w, const std::int16_t* psi,
                                                    const std::int16_t* learning, std::size_t n, std::int32_t trace,
                                                    std::int32_t kappa, std::int32_t eta) noexcept {
  const __m256i half = _mm256_set1_epi32(q14::kHalf);
  const __m256i k2 = _mm256_set1_epi16(static_cast<std::int16_t>(2 * kappa));
  const __m256i omk2 = _mm256_set1_epi16(static_cast<std::int16_t>(2 * (q14::kOne - kappa)));
  const __m256i tr = _mm256_set1_epi16(static_cast<std::int16_t>(trace));
  const __m256i eta2 = _mm256_set1_epi16(static_cast<std::int16_t>(2 * eta));
  std::size_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m256i e16 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(e + j));
    const __m256i p16 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(psi + j));
    const __m256i l16 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(learning + j));
    const __m256i w16 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + j));
    const __m256i x = _mm256_mulhrs_epi16(_mm256_add_epi16(p16, p16), tr);  // mul(psi, trace)
    const __m256i enew = _mm256_adds_epi16(_mm256_mulhrs_epi16(e16, k2), _mm256_mulhrs_epi16(omk2, x));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(e + j), enew);
    const __m256i g = pack16(mulq(lo32(enew), lo32(l16), half), mulq(hi32(enew), hi32(l16), half));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(w + j), _mm256_adds_epi16(w16, _mm256_mulhrs_epi16(eta2, g)));
  }
  if (j < n) eprop_row_ref(e + j, w + j, psi + j, learning + j, n - j, trace, kappa, eta);
}

__attribute__((target("avx2"))) void accumulate_row_avx2(std::int32_t* acc, const std::int16_t* row,
                                                         std::size_t n) noexcept {
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const __m256i r = _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + j)));
    __m256i* a = reinterpret_cast<__m256i*>(acc + j);
    _mm256_storeu_si256(a, _mm256_add_epi32(_mm256_loadu_si256(a), r));
  }
  for (; j < n; ++j) acc[j] += row[j];
}

}  // namespace
#endif

void eprop_row(std::int16_t* e, std::int16_t* w, const std::int16_t* psi, const std::int16_t* learning, std::size_t n,
               std::int32_t trace, std::int32_t kappa, std::int32_t eta) noexcept {
#ifdef IRITHYLL_SNN_X86
  if (cpu_has_avx2()) return eprop_row_avx2(e, w, psi, learning, n, trace, kappa, eta);
#endif
  eprop_row_ref(e, w, psi, learning, n, trace, kappa, eta);
}

void accumulate_row(std::int32_t* acc, const std::int16_t* row, std::size_t n) noexcept {
#ifdef IRITHYLL_SNN_X86
  if (cpu_has_avx2()) return accumulate_row_avx2(acc, row, n);
#endif
  for (std::size_t j = 0; j < n; ++j) acc[j] += row[j];
}

}  // namespace irithyll::nn
