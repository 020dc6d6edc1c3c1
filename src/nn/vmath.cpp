#include "irithyll/nn/vmath.hpp"
#include "cpu_features.hpp"

#include <cmath>

#include "irithyll/nn/primitives.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#define IRITHYLL_VMATH_X86 1
#endif

namespace irithyll::nn {

void vexp_ref(const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}
void vsigmoid_ref(const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] = sigmoid(x[i]);
}
void vtanh_ref(const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::tanh(x[i]);
}
void vsoftplus_ref(const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] = softplus(x[i]);
}

#ifdef IRITHYLL_VMATH_X86
namespace {

#define IRITHYLL_AVX512 __attribute__((target("avx512f,avx512dq")))

// GCC 12's AVX-512 intrinsic headers trip its own -Wmaybe-uninitialized
// (they start from _mm512_undefined_pd()); a false positive in the system
// header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (Cody & Waite).
constexpr double kLog2e = 1.4426950408889634074;
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;

// expm1(r) for |r| <= ln2/2: r + r^2 (1/2! + r/3! + ... + r^11/13!).
IRITHYLL_AVX512 inline __m512d expm1_poly(__m512d r) noexcept {
  constexpr double kInvFact[14] = {1.0,
                                   1.0,
                                   1.0 / 2,
                                   1.0 / 6,
                                   1.0 / 24,
                                   1.0 / 120,
                                   1.0 / 720,
                                   1.0 / 5040,
                                   1.0 / 40320,
                                   1.0 / 362880,
                                   1.0 / 3628800,
                                   1.0 / 39916800,
                                   1.0 / 479001600,
                                   1.0 / 6227020800.0};
  __m512d q = _mm512_set1_pd(kInvFact[13]);
  for (int i = 12; i >= 2; --i) q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(kInvFact[i]));
  return _mm512_fmadd_pd(_mm512_mul_pd(r, r), q, r);
}

// x = k ln2 + r with k = round(x / ln2); returns r, k in *k.
IRITHYLL_AVX512 inline __m512d reduce(__m512d x, __m512d* k) noexcept {
  *k = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(kLog2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512d r = _mm512_fnmadd_pd(*k, _mm512_set1_pd(kLn2Hi), x);
  return _mm512_fnmadd_pd(*k, _mm512_set1_pd(kLn2Lo), r);
}

// 2^k for integer k with -1022 <= k <= 1023, built from the exponent bits.
IRITHYLL_AVX512 inline __m512d pow2(__m512i k) noexcept {
  return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_add_epi64(k, _mm512_set1_epi64(1023)), 52));
}

IRITHYLL_AVX512 inline __m512d exp8(__m512d x) noexcept {
  // Beyond these the result is inf / 0 anyway; clamping keeps k in range.
  // max/min return their second operand when one input is NaN, so NaN passes.
  x = _mm512_min_pd(_mm512_set1_pd(710.0), _mm512_max_pd(_mm512_set1_pd(-746.0), x));
  __m512d kd;
  const __m512d p = expm1_poly(reduce(x, &kd));
  // 2^k as 2^k1 * 2^k2 (k1 = floor(k/2)): each factor stays normal for
  // k in [-1076, 1024], and only the last product rounds, so subnormal
  // results and overflow to inf come out as from one exact scaling.
  const __m512i k = _mm512_cvtpd_epi64(kd);
  const __m512i k1 = _mm512_srai_epi64(k, 1);
  const __m512i k2 = _mm512_sub_epi64(k, k1);
  return _mm512_mul_pd(_mm512_mul_pd(_mm512_add_pd(_mm512_set1_pd(1.0), p), pow2(k1)), pow2(k2));
}

IRITHYLL_AVX512 inline __m512d sigmoid8(__m512d x) noexcept {
  const __m512d en = exp8(_mm512_sub_pd(_mm512_setzero_pd(), _mm512_abs_pd(x)));
  const __mmask8 nonneg = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GE_OQ);
  // x >= 0: 1 / (1 + e^-x); x < 0 (or NaN): e^x / (1 + e^x), as the reference.
  const __m512d num = _mm512_mask_blend_pd(nonneg, en, _mm512_set1_pd(1.0));
  return _mm512_div_pd(num, _mm512_add_pd(_mm512_set1_pd(1.0), en));
}

IRITHYLL_AVX512 inline __m512d tanh8(__m512d x) noexcept {
  // tanh(20) rounds to 1; the clamp keeps 2^k normal. min returns its second
  // operand (a) when a is NaN.
  const __m512d a = _mm512_min_pd(_mm512_set1_pd(20.0), _mm512_abs_pd(x));
  __m512d kd;
  const __m512d p = expm1_poly(reduce(_mm512_mul_pd(_mm512_set1_pd(-2.0), a), &kd));
  const __m512d s = pow2(_mm512_cvtpd_epi64(kd));
  const __m512d e = _mm512_fmadd_pd(s, p, _mm512_sub_pd(s, _mm512_set1_pd(1.0)));  // expm1(-2a) in (-1, 0]
  const __m512d t = _mm512_abs_pd(_mm512_div_pd(e, _mm512_add_pd(e, _mm512_set1_pd(2.0))));
  return _mm512_or_pd(t, _mm512_and_pd(x, _mm512_set1_pd(-0.0)));
}

// softplus with the reference's branches: x for x > 20, e^x below -20, else
// log1p(e^x) = log(u) + (e - (u - 1)) / u with u = 1 + e (the second term
// restores what rounding 1 + e lost). log(u) = m ln2 + log(f), u = 2^m f,
// f in [sqrt(1/2), sqrt(2)), log(f) = 2 atanh(s), s = (f - 1)/(f + 1),
// |s| <= 0.172: the odd series to s^23 leaves < 1e-18 relative.
IRITHYLL_AVX512 inline __m512d softplus8(__m512d x) noexcept {
  const __m512d e = exp8(x);
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d u = _mm512_add_pd(one, e);
  __m512d m = _mm512_getexp_pd(u);
  __m512d f = _mm512_getmant_pd(u, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src);
  const __mmask8 big = _mm512_cmp_pd_mask(f, _mm512_set1_pd(1.4142135623730951), _CMP_GT_OQ);
  f = _mm512_mask_mul_pd(f, big, f, _mm512_set1_pd(0.5));
  m = _mm512_mask_add_pd(m, big, m, one);
  const __m512d sv = _mm512_div_pd(_mm512_sub_pd(f, one), _mm512_add_pd(f, one));
  const __m512d z = _mm512_mul_pd(sv, sv);
  __m512d poly = _mm512_set1_pd(1.0 / 23.0);
  for (int k = 21; k >= 1; k -= 2) poly = _mm512_fmadd_pd(poly, z, _mm512_set1_pd(1.0 / k));
  const __m512d log_f = _mm512_mul_pd(_mm512_add_pd(sv, sv), poly);
  const __m512d corr = _mm512_div_pd(_mm512_sub_pd(e, _mm512_sub_pd(u, one)), u);
  const __m512d log_u = _mm512_fmadd_pd(m, _mm512_set1_pd(kLn2Hi),
                                        _mm512_add_pd(_mm512_fmadd_pd(m, _mm512_set1_pd(kLn2Lo), log_f), corr));
  __m512d r = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, _mm512_set1_pd(-20.0), _CMP_LT_OQ), log_u, e);
  return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, _mm512_set1_pd(20.0), _CMP_GT_OQ), r, x);
}

// Two vectors per iteration: the maps are ~20-deep dependency chains, so two
// independent chains side by side fill the FMA pipes better (four measured
// slower here: the polynomial constants no longer fit in registers).
template <__m512d (*F)(__m512d)>
IRITHYLL_AVX512 void apply(const double* x, double* y, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512d a = F(_mm512_loadu_pd(x + i));
    const __m512d b = F(_mm512_loadu_pd(x + i + 8));
    _mm512_storeu_pd(y + i, a);
    _mm512_storeu_pd(y + i + 8, b);
  }
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, F(_mm512_loadu_pd(x + i)));
  if (i < n) {
    const auto m = static_cast<__mmask8>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_pd(y + i, m, F(_mm512_maskz_loadu_pd(m, x + i)));
  }
}

const bool kUseAvx512 = detail::cpu_has_avx512();

}  // namespace

void vexp(const double* x, double* y, std::size_t n) noexcept {
  if (kUseAvx512) {
    apply<exp8>(x, y, n);
  } else {
    vexp_ref(x, y, n);
  }
}
void vsigmoid(const double* x, double* y, std::size_t n) noexcept {
  if (kUseAvx512) {
    apply<sigmoid8>(x, y, n);
  } else {
    vsigmoid_ref(x, y, n);
  }
}
void vtanh(const double* x, double* y, std::size_t n) noexcept {
  if (kUseAvx512) {
    apply<tanh8>(x, y, n);
  } else {
    vtanh_ref(x, y, n);
  }
}
void vsoftplus(const double* x, double* y, std::size_t n) noexcept {
  if (kUseAvx512) {
    apply<softplus8>(x, y, n);
  } else {
    vsoftplus_ref(x, y, n);
  }
}
const char* vmath_backend() noexcept { return kUseAvx512 ? "avx512" : "scalar"; }
#else
void vexp(const double* x, double* y, std::size_t n) noexcept { vexp_ref(x, y, n); }
void vsigmoid(const double* x, double* y, std::size_t n) noexcept { vsigmoid_ref(x, y, n); }
void vtanh(const double* x, double* y, std::size_t n) noexcept { vtanh_ref(x, y, n); }
void vsoftplus(const double* x, double* y, std::size_t n) noexcept { vsoftplus_ref(x, y, n); }
const char* vmath_backend() noexcept { return "scalar"; }
#endif

}  // namespace irithyll::nn
