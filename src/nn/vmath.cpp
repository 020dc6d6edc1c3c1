#include "nn/vmath.hpp"
#include "cpu_features.hpp"

#include <cmath>

#include "nn/primitives.hpp"

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
// Below -750, e^x is 0 in double, so sigmoid is 0 and SiLU's limit is -0.
constexpr double kSiluLo = -750.0;
void vsilu_ref(const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] = x[i] < kSiluLo ? -0.0 : x[i] * sigmoid(x[i]);
}

#ifdef IRITHYLL_VMATH_X86
namespace {

#define IRITHYLL_AVX512 __attribute__((target("avx512f,avx512dq")))
#define IRITHYLL_AVX2 __attribute__((target("avx2,fma")))

// GCC 12's AVX-512 intrinsic headers trip its own -Wmaybe-uninitialized
// (they start from _mm512_undefined_pd()); a false positive in the system
// header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^21 (Cody & Waite); the
// eighths below stay exact because dividing by 8 only moves the exponent.
constexpr double kLog2e = 1.4426950408889634074;
constexpr double k8Log2e = 0x1.71547652b82fep+3;
constexpr double kLn2Hi = 0x1.62e42fee00000p-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
// Adding 1.5 * 2^52 rounds a double of magnitude < 2^51 to an integer and
// leaves that integer (two's complement, mod 2^51) in the low mantissa bits.
constexpr double kShifter = 0x1.8p52;
// exp clamps its argument here: beyond, the result is inf / 0 anyway, and the
// clamp keeps every exponent computation in range.
constexpr double kExpHi = 710.0;
constexpr double kExpLo = -746.0;

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

// ---------------------------------------------------------------- AVX-512 --

// 2^(j/8) = kTab8Hi[j] (1 + kTab8Rel[j]) to ~2^-107 relative (from a 200-bit
// evaluation). The correction is kept relative so that it folds into
// expm1(r) as p + rel: hi (1 + rel)(1 + p) = hi (1 + (p + rel)) up to
// rel p < 2^-58.
alignas(64) constexpr double kTab8Hi[8] = {0x1p+0,
                                           0x1.172b83c7d517bp+0,
                                           0x1.306fe0a31b715p+0,
                                           0x1.4bfdad5362a27p+0,
                                           0x1.6a09e667f3bcdp+0,
                                           0x1.8ace5422aa0dbp+0,
                                           0x1.ae89f995ad3adp+0,
                                           0x1.d5818dcfba487p+0};
alignas(64) constexpr double kTab8Rel[8] = {0.0,
                                            -0x1.01b15eaa59348p-55,
                                            0x1.34d754db0abb6p-55,
                                            0x1.690cebb7aafb0p-56,
                                            -0x1.3b3efbf5e2228p-54,
                                            0x1.db72fc1f0eab4p-55,
                                            0x1.c1a7792cb3387p-55,
                                            0x1.4a385a63d07a7p-56};

IRITHYLL_AVX512 inline __m512d c8(double v) noexcept { return _mm512_set1_pd(v); }

// expm1(r) for |r| <= ln2/16: r + r^2 (1/2! + r/3! + ... + r^6/8!), the
// inner degree-6 polynomial in Estrin form (depth 3 instead of 6).
IRITHYLL_AVX512 inline __m512d expm1_small(__m512d r) noexcept {
  const __m512d r2 = _mm512_mul_pd(r, r);
  const __m512d a0 = _mm512_fmadd_pd(c8(kInvFact[3]), r, c8(kInvFact[2]));
  const __m512d a1 = _mm512_fmadd_pd(c8(kInvFact[5]), r, c8(kInvFact[4]));
  const __m512d a2 = _mm512_fmadd_pd(c8(kInvFact[7]), r, c8(kInvFact[6]));
  const __m512d r4 = _mm512_mul_pd(r2, r2);
  const __m512d b0 = _mm512_fmadd_pd(a1, r2, a0);
  const __m512d b1 = _mm512_fmadd_pd(c8(kInvFact[8]), r2, a2);
  return _mm512_fmadd_pd(r2, _mm512_fmadd_pd(b1, r4, b0), r);
}

// x = (8m + j) ln2/8 + r with 8m + j = round(8x / ln2), 0 <= j < 8 (Tang's
// reduction with a table of 8). scale = m + j/8, of which scalef uses the
// floor m; hi (1 + rel) = 2^(j/8).
struct Reduced8 {
  __m512d r, scale, hi, rel;
};
IRITHYLL_AVX512 inline Reduced8 reduce8(__m512d x) noexcept {
  const __m512d shifted = _mm512_fmadd_pd(x, c8(k8Log2e), c8(kShifter));
  const __m512d k = _mm512_sub_pd(shifted, c8(kShifter));
  // permutexvar reads the low 3 bits of each lane: j = k mod 8.
  const __m512i j = _mm512_castpd_si512(shifted);
  Reduced8 out;
  out.r = _mm512_fnmadd_pd(k, c8(kLn2Lo / 8), _mm512_fnmadd_pd(k, c8(kLn2Hi / 8), x));
  out.scale = _mm512_mul_pd(k, c8(0.125));
  out.hi = _mm512_permutexvar_pd(j, _mm512_load_pd(kTab8Hi));
  out.rel = _mm512_permutexvar_pd(j, _mm512_load_pd(kTab8Rel));
  return out;
}

// e^x for x already in [kExpLo, kExpHi] (or NaN).
IRITHYLL_AVX512 inline __m512d exp_clamped8(__m512d x) noexcept {
  const Reduced8 d = reduce8(x);
  const __m512d p = _mm512_add_pd(expm1_small(d.r), d.rel);
  // 2^(j/8) e^r = hi + hi p, rounded once by the fma; scalef rounds once
  // more only where the result is subnormal.
  return _mm512_scalef_pd(_mm512_fmadd_pd(d.hi, p, d.hi), d.scale);
}

IRITHYLL_AVX512 inline __m512d exp8(__m512d x) noexcept {
  // max/min return their second operand when one input is NaN, so NaN passes.
  return exp_clamped8(_mm512_min_pd(c8(kExpHi), _mm512_max_pd(c8(kExpLo), x)));
}

IRITHYLL_AVX512 inline __m512d sigmoid8(__m512d x) noexcept {
  // -|x| (the sign bit set) needs only the lower clamp; max keeps NaN.
  const __m512d en = exp_clamped8(_mm512_max_pd(c8(kExpLo), _mm512_or_pd(x, c8(-0.0))));
  const __mmask8 nonneg = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GE_OQ);
  // x >= 0: 1 / (1 + e^-x); x < 0 (or NaN): e^x / (1 + e^x), as the reference.
  const __m512d num = _mm512_mask_blend_pd(nonneg, en, c8(1.0));
  return _mm512_div_pd(num, _mm512_add_pd(c8(1.0), en));
}

IRITHYLL_AVX512 inline __m512d silu8(__m512d x) noexcept {
  const __m512d r = _mm512_mul_pd(x, sigmoid8(x));
  return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, c8(kSiluLo), _CMP_LT_OQ), r, c8(-0.0));
}

IRITHYLL_AVX512 inline __m512d tanh8(__m512d x) noexcept {
  // tanh(20) rounds to 1; the clamp keeps 2^m normal. min returns its second
  // operand (|x|) when that is NaN.
  const __m512d a = _mm512_min_pd(c8(20.0), _mm512_abs_pd(x));
  const Reduced8 d = reduce8(_mm512_mul_pd(c8(-2.0), a));
  const __m512d p = _mm512_add_pd(expm1_small(d.r), d.rel);
  // expm1(-2a) = (S - 1) + S p with S = 2^m hi <= 1, exact (m >= -58). S - 1
  // is not exact once S < 1/2, and rounding it apart from S p costs up to an
  // ulp there, so its rounding error is recovered (Fast2Sum, |S| <= 1) and
  // added to S p before the one final rounding.
  const __m512d big_s = _mm512_scalef_pd(d.hi, d.scale);
  const __m512d s1 = _mm512_sub_pd(big_s, c8(1.0));
  const __m512d s1_err = _mm512_sub_pd(big_s, _mm512_add_pd(s1, c8(1.0)));
  const __m512d e = _mm512_add_pd(s1, _mm512_fmadd_pd(big_s, p, s1_err));
  const __m512d t = _mm512_div_pd(e, _mm512_add_pd(e, c8(2.0)));  // -tanh(a), sign of -0 unreliable
  // Magnitude bits of t, sign bit of x: bit select with imm 0xD8 = C ? B : A
  // for (A, B, C) = (t, x, sign mask).
  return _mm512_castsi512_pd(_mm512_ternarylogic_epi64(_mm512_castpd_si512(t), _mm512_castpd_si512(x),
                                                       _mm512_castpd_si512(c8(-0.0)), 0xD8));
}

// softplus with the reference's branches: x for x > 20, e^x below -20, else
// log1p(e^x) = log(u) + (e - (u - 1)) / u with u = 1 + e (the second term
// restores what rounding 1 + e lost). log(u) = m ln2 + log(f), u = 2^m f,
// f in [sqrt(1/2), sqrt(2)), log(f) = 2 atanh(s), s = (f - 1)/(f + 1),
// |s| <= 0.172: the odd series to s^23 leaves < 1e-18 relative.
IRITHYLL_AVX512 inline __m512d log_f8(__m512d s) noexcept {
  // log(f) = 2s + 2s z R(z), z = s^2, R(z) = sum_{k=1..11} z^(k-1) / (2k + 1)
  // in Estrin form. Only the final fma rounds at the result's magnitude;
  // R's own roundings are scaled by z <= 0.03.
  const __m512d z = _mm512_mul_pd(s, s);
  const __m512d z2 = _mm512_mul_pd(z, z);
  const __m512d z4 = _mm512_mul_pd(z2, z2);
  const __m512d z8 = _mm512_mul_pd(z4, z4);
  __m512d a[6];
  for (int i = 0; i < 5; ++i) a[i] = _mm512_fmadd_pd(c8(1.0 / (4 * i + 5)), z, c8(1.0 / (4 * i + 3)));
  a[5] = c8(1.0 / 23);
  const __m512d b0 = _mm512_fmadd_pd(a[1], z2, a[0]);
  const __m512d b1 = _mm512_fmadd_pd(a[3], z2, a[2]);
  const __m512d b2 = _mm512_fmadd_pd(a[5], z2, a[4]);
  const __m512d r = _mm512_fmadd_pd(b2, z8, _mm512_fmadd_pd(b1, z4, b0));
  const __m512d s2 = _mm512_add_pd(s, s);
  return _mm512_fmadd_pd(_mm512_mul_pd(s2, z), r, s2);
}

IRITHYLL_AVX512 inline __m512d softplus8(__m512d x) noexcept {
  const __m512d e = exp8(x);
  const __m512d one = c8(1.0);
  const __m512d u = _mm512_add_pd(one, e);
  __m512d m = _mm512_getexp_pd(u);
  __m512d f = _mm512_getmant_pd(u, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src);
  const __mmask8 big = _mm512_cmp_pd_mask(f, c8(1.4142135623730951), _CMP_GT_OQ);
  f = _mm512_mask_mul_pd(f, big, f, c8(0.5));
  m = _mm512_mask_add_pd(m, big, m, one);
  const __m512d sv = _mm512_div_pd(_mm512_sub_pd(f, one), _mm512_add_pd(f, one));
  const __m512d log_f = log_f8(sv);
  const __m512d corr = _mm512_div_pd(_mm512_sub_pd(e, _mm512_sub_pd(u, one)), u);
  const __m512d log_u =
      _mm512_fmadd_pd(m, c8(kLn2Hi), _mm512_add_pd(_mm512_fmadd_pd(m, c8(kLn2Lo), log_f), corr));
  __m512d r = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, c8(-20.0), _CMP_LT_OQ), log_u, e);
  return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, c8(20.0), _CMP_GT_OQ), r, x);
}

// Two vectors per iteration. With the short Estrin chains the out-of-order
// core already overlaps iterations: one or four per iteration measured within
// noise of two on Zen 5 (bench_vmath_maps).
template <__m512d (*F)(__m512d)>
IRITHYLL_AVX512 void apply8(const double* x, double* y, std::size_t n) noexcept {
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

// ------------------------------------------------------------------- AVX2 --

IRITHYLL_AVX2 inline __m256d c4(double v) noexcept { return _mm256_set1_pd(v); }

// expm1(r) for |r| <= ln2/2: r + r^2 (1/2! + r/3! + ... + r^11/13!), the
// inner degree-11 polynomial in Estrin form (depth 4 instead of 11).
IRITHYLL_AVX2 inline __m256d expm1_wide4(__m256d r) noexcept {
  const __m256d r2 = _mm256_mul_pd(r, r);
  const __m256d r4 = _mm256_mul_pd(r2, r2);
  const __m256d r8 = _mm256_mul_pd(r4, r4);
  __m256d a[6];
  for (int i = 0; i < 6; ++i) a[i] = _mm256_fmadd_pd(c4(kInvFact[2 * i + 3]), r, c4(kInvFact[2 * i + 2]));
  const __m256d b0 = _mm256_fmadd_pd(a[1], r2, a[0]);
  const __m256d b1 = _mm256_fmadd_pd(a[3], r2, a[2]);
  const __m256d b2 = _mm256_fmadd_pd(a[5], r2, a[4]);
  const __m256d q = _mm256_fmadd_pd(b2, r8, _mm256_fmadd_pd(b1, r4, b0));
  return _mm256_fmadd_pd(r2, q, r);
}

// x = k ln2 + r with k = round(x / ln2) (|x| < 2^40); returns r, k in *k.
IRITHYLL_AVX2 inline __m256d reduce4(__m256d x, __m256d* k) noexcept {
  *k = _mm256_round_pd(_mm256_mul_pd(x, c4(kLog2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return _mm256_fnmadd_pd(*k, c4(kLn2Lo), _mm256_fnmadd_pd(*k, c4(kLn2Hi), x));
}

// 2^k for an integer-valued double k in [-1022, 1023]: the shifter leaves
// k + 1023 in the low mantissa bits, and the shift moves it to the exponent
// field while pushing everything above it out.
IRITHYLL_AVX2 inline __m256d pow2_4(__m256d k) noexcept {
  const __m256d biased = _mm256_add_pd(k, c4(kShifter + 1023.0));
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(biased), 52));
}

IRITHYLL_AVX2 inline __m256d exp4(__m256d x) noexcept {
  // vminpd/vmaxpd return their second operand when one input is NaN.
  x = _mm256_min_pd(c4(kExpHi), _mm256_max_pd(c4(kExpLo), x));
  __m256d k;
  const __m256d p = expm1_wide4(reduce4(x, &k));
  // 2^k as 2^k1 * 2^k2 (k1 = floor(k/2)): both factors stay normal for k in
  // [-1076, 1024], and only the last product rounds.
  const __m256d k1 = _mm256_round_pd(_mm256_mul_pd(k, c4(0.5)), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m256d k2 = _mm256_sub_pd(k, k1);
  return _mm256_mul_pd(_mm256_mul_pd(_mm256_add_pd(c4(1.0), p), pow2_4(k1)), pow2_4(k2));
}

IRITHYLL_AVX2 inline __m256d abs4(__m256d x) noexcept { return _mm256_andnot_pd(c4(-0.0), x); }

IRITHYLL_AVX2 inline __m256d sigmoid4(__m256d x) noexcept {
  const __m256d en = exp4(_mm256_sub_pd(_mm256_setzero_pd(), abs4(x)));
  const __m256d nonneg = _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GE_OQ);
  const __m256d num = _mm256_blendv_pd(en, c4(1.0), nonneg);
  return _mm256_div_pd(num, _mm256_add_pd(c4(1.0), en));
}

IRITHYLL_AVX2 inline __m256d silu4(__m256d x) noexcept {
  const __m256d r = _mm256_mul_pd(x, sigmoid4(x));
  return _mm256_blendv_pd(r, c4(-0.0), _mm256_cmp_pd(x, c4(kSiluLo), _CMP_LT_OQ));
}

IRITHYLL_AVX2 inline __m256d tanh4(__m256d x) noexcept {
  const __m256d a = _mm256_min_pd(c4(20.0), abs4(x));
  __m256d k;
  const __m256d p = expm1_wide4(reduce4(_mm256_mul_pd(c4(-2.0), a), &k));
  const __m256d s = pow2_4(k);  // k in [-58, 0]
  const __m256d e = _mm256_fmadd_pd(s, p, _mm256_sub_pd(s, c4(1.0)));
  const __m256d t = abs4(_mm256_div_pd(e, _mm256_add_pd(e, c4(2.0))));
  return _mm256_or_pd(t, _mm256_and_pd(x, c4(-0.0)));
}

IRITHYLL_AVX2 inline __m256d log_f4(__m256d s) noexcept {
  // log(f) = 2s + 2s z R(z), z = s^2, R(z) = sum_{k=1..11} z^(k-1) / (2k + 1)
  // in Estrin form. Only the final fma rounds at the result's magnitude;
  // R's own roundings are scaled by z <= 0.03.
  const __m256d z = _mm256_mul_pd(s, s);
  const __m256d z2 = _mm256_mul_pd(z, z);
  const __m256d z4 = _mm256_mul_pd(z2, z2);
  const __m256d z8 = _mm256_mul_pd(z4, z4);
  __m256d a[6];
  for (int i = 0; i < 5; ++i) a[i] = _mm256_fmadd_pd(c4(1.0 / (4 * i + 5)), z, c4(1.0 / (4 * i + 3)));
  a[5] = c4(1.0 / 23);
  const __m256d b0 = _mm256_fmadd_pd(a[1], z2, a[0]);
  const __m256d b1 = _mm256_fmadd_pd(a[3], z2, a[2]);
  const __m256d b2 = _mm256_fmadd_pd(a[5], z2, a[4]);
  const __m256d r = _mm256_fmadd_pd(b2, z8, _mm256_fmadd_pd(b1, z4, b0));
  const __m256d s2 = _mm256_add_pd(s, s);
  return _mm256_fmadd_pd(_mm256_mul_pd(s2, z), r, s2);
}

// As softplus8, with the exponent / mantissa split done on the bits (AVX2
// has no getexp / getmant). u = 1 + e >= 1 is normal or inf / NaN; those
// lanes are either replaced by the x > 20 branch or carry NaN through corr.
IRITHYLL_AVX2 inline __m256d softplus4(__m256d x) noexcept {
  const __m256d e = exp4(x);
  const __m256d one = c4(1.0);
  const __m256d u = _mm256_add_pd(one, e);
  const __m256i bits = _mm256_castpd_si256(u);
  // Biased exponent into the mantissa of 2^52, then subtract: m exactly.
  const __m256i ebits = _mm256_or_si256(_mm256_srli_epi64(bits, 52), _mm256_castpd_si256(c4(0x1p52)));
  __m256d m = _mm256_sub_pd(_mm256_castsi256_pd(ebits), c4(0x1p52 + 1023.0));
  __m256d f = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000FFFFFFFFFFFFFLL)),
                                                  _mm256_castpd_si256(one)));
  const __m256d big = _mm256_cmp_pd(f, c4(1.4142135623730951), _CMP_GT_OQ);
  f = _mm256_blendv_pd(f, _mm256_mul_pd(f, c4(0.5)), big);
  m = _mm256_add_pd(m, _mm256_and_pd(big, one));
  const __m256d sv = _mm256_div_pd(_mm256_sub_pd(f, one), _mm256_add_pd(f, one));
  const __m256d log_f = log_f4(sv);
  const __m256d corr = _mm256_div_pd(_mm256_sub_pd(e, _mm256_sub_pd(u, one)), u);
  const __m256d log_u =
      _mm256_fmadd_pd(m, c4(kLn2Hi), _mm256_add_pd(_mm256_fmadd_pd(m, c4(kLn2Lo), log_f), corr));
  const __m256d r = _mm256_blendv_pd(log_u, e, _mm256_cmp_pd(x, c4(-20.0), _CMP_LT_OQ));
  return _mm256_blendv_pd(r, x, _mm256_cmp_pd(x, c4(20.0), _CMP_GT_OQ));
}

template <__m256d (*F)(__m256d)>
IRITHYLL_AVX2 void apply4(const double* x, double* y, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256d a = F(_mm256_loadu_pd(x + i));
    const __m256d b = F(_mm256_loadu_pd(x + i + 4));
    _mm256_storeu_pd(y + i, a);
    _mm256_storeu_pd(y + i + 4, b);
  }
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, F(_mm256_loadu_pd(x + i)));
  if (i < n) {
    // Lane l is active when l < n - i (the mask lane's sign bit is set).
    const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(n - i)),
                                            _mm256_set_epi64x(3, 2, 1, 0));
    _mm256_maskstore_pd(y + i, mask, F(_mm256_maskload_pd(x + i, mask)));
  }
}

// Asked once at static initialisation. Until then kBackend reads zero
// (kScalar) and kHasAvx2 false, so a call from another static initialiser
// still gets the reference.
enum class Backend { kScalar, kAvx2, kAvx512 };
const Backend kBackend = detail::cpu_has_avx512()     ? Backend::kAvx512
                         : detail::cpu_has_avx2_fma() ? Backend::kAvx2
                                                      : Backend::kScalar;
const bool kHasAvx2 = detail::cpu_has_avx2_fma();

}  // namespace

#define IRITHYLL_VMATH_DISPATCH(name, f8, f4)                                  \
  void name(const double* x, double* y, std::size_t n) noexcept {             \
    switch (kBackend) {                                                        \
      case Backend::kAvx512: return apply8<f8>(x, y, n);                       \
      case Backend::kAvx2: return apply4<f4>(x, y, n);                         \
      case Backend::kScalar: break;                                            \
    }                                                                          \
    name##_ref(x, y, n);                                                       \
  }                                                                            \
  void name##_avx2_kernel(const double* x, double* y, std::size_t n) noexcept { \
    if (kHasAvx2) return apply4<f4>(x, y, n);                                  \
    name##_ref(x, y, n);                                                       \
  }

IRITHYLL_VMATH_DISPATCH(vexp, exp8, exp4)
IRITHYLL_VMATH_DISPATCH(vsigmoid, sigmoid8, sigmoid4)
IRITHYLL_VMATH_DISPATCH(vtanh, tanh8, tanh4)
IRITHYLL_VMATH_DISPATCH(vsoftplus, softplus8, softplus4)
IRITHYLL_VMATH_DISPATCH(vsilu, silu8, silu4)
#undef IRITHYLL_VMATH_DISPATCH

const char* vmath_backend() noexcept {
  switch (kBackend) {
    case Backend::kAvx512: return "avx512";
    case Backend::kAvx2: return "avx2";
    case Backend::kScalar: break;
  }
  return "scalar";
}
#else
void vexp(const double* x, double* y, std::size_t n) noexcept { vexp_ref(x, y, n); }
void vsigmoid(const double* x, double* y, std::size_t n) noexcept { vsigmoid_ref(x, y, n); }
void vtanh(const double* x, double* y, std::size_t n) noexcept { vtanh_ref(x, y, n); }
void vsoftplus(const double* x, double* y, std::size_t n) noexcept { vsoftplus_ref(x, y, n); }
void vsilu(const double* x, double* y, std::size_t n) noexcept { vsilu_ref(x, y, n); }
void vexp_avx2_kernel(const double* x, double* y, std::size_t n) noexcept { vexp_ref(x, y, n); }
void vsigmoid_avx2_kernel(const double* x, double* y, std::size_t n) noexcept { vsigmoid_ref(x, y, n); }
void vtanh_avx2_kernel(const double* x, double* y, std::size_t n) noexcept { vtanh_ref(x, y, n); }
void vsoftplus_avx2_kernel(const double* x, double* y, std::size_t n) noexcept { vsoftplus_ref(x, y, n); }
void vsilu_avx2_kernel(const double* x, double* y, std::size_t n) noexcept { vsilu_ref(x, y, n); }
const char* vmath_backend() noexcept { return "scalar"; }
#endif

}  // namespace irithyll::nn
