// Vectorised elementwise exp, logistic sigmoid, tanh, softplus and SiLU for
// the gate, level-mix and readout maps of the neural models.
//
// Each map has a `_ref` that defines it: std::exp, nn::sigmoid and
// nn::softplus (the branch forms in primitives.hpp) and std::tanh per
// element; silu_ref is x * nn::sigmoid(x), with -0 below x = -750 (where
// sigmoid is 0 and x * 0 would make -inf a NaN; the limit is -0). The
// fast silu is x times the fast sigmoid, one more rounding: a few ulps like
// sigmoid, except where sigmoid(x) is subnormal (x < -708), whose absolute
// error is below the smallest normal. The dispatched entry points use AVX-512 where the CPU has it,
// AVX2+FMA where it has only that, and the reference otherwise.
//
// exp follows the table-driven scheme of Tang (ACM TOMS 15(2), 1989) with a
// small table: x = (8m + j) ln2/8 + r, |r| <= ln2/16, so
// e^x = 2^m 2^(j/8) e^r. On AVX-512 the eight values 2^(j/8) (each as a
// double and a relative correction) sit in two registers and are picked with
// lane permutes; expm1(r) is the degree-8 Taylor polynomial (truncation
// < 2e-18 relative) in Estrin form, to keep the dependency chain short; 2^m
// is applied by scalef, exact except where the result is subnormal (one
// more rounding there) or overflows to inf. The AVX2 path has no lane
// permute for doubles, so it uses the plain Cody & Waite reduction
// (|r| <= ln2/2, degree-13 Taylor in Estrin form, truncation < 5e-18) and
// scales by 2^k in two normal halves. tanh(|x|) = -e / (e + 2) with
// e = expm1(-2|x|), which has no cancellation near 0 and cannot overflow;
// sigmoid uses exp(-|x|) on both branches like the reference; softplus keeps
// the reference's tail branches and computes log1p(e^x) from a log built on
// the exponent / mantissa split (see vmath.cpp). Agreement with the
// references: a few ulps worst case, a fraction of an ulp on average
// (tests/nn/vmath_test.cpp states both budgets); NaN propagates, +-inf map
// to their limits.
//
// Cost: O(n), ~20-30 vector operations per 8 (AVX-512) or 4 (AVX2) elements;
// no allocation. x and y may be the same array (in-place), otherwise they
// must not overlap. Thread-safe (pure functions).
#pragma once

#include <cstddef>

namespace irithyll::nn {

void vexp_ref(const double* x, double* y, std::size_t n) noexcept;
void vsigmoid_ref(const double* x, double* y, std::size_t n) noexcept;
void vtanh_ref(const double* x, double* y, std::size_t n) noexcept;
void vsoftplus_ref(const double* x, double* y, std::size_t n) noexcept;
void vsilu_ref(const double* x, double* y, std::size_t n) noexcept;

void vexp(const double* x, double* y, std::size_t n) noexcept;
void vsigmoid(const double* x, double* y, std::size_t n) noexcept;
void vtanh(const double* x, double* y, std::size_t n) noexcept;
void vsoftplus(const double* x, double* y, std::size_t n) noexcept;
void vsilu(const double* x, double* y, std::size_t n) noexcept;

// "avx512", "avx2" or "scalar" (the reference).
const char* vmath_backend() noexcept;

// The AVX2+FMA kernels called directly, whatever the dispatch picked (for
// tests and benchmarks on AVX-512 machines); each falls back to its `_ref`
// where the CPU or compiler lacks AVX2+FMA.
void vexp_avx2_kernel(const double* x, double* y, std::size_t n) noexcept;
void vsigmoid_avx2_kernel(const double* x, double* y, std::size_t n) noexcept;
void vtanh_avx2_kernel(const double* x, double* y, std::size_t n) noexcept;
void vsoftplus_avx2_kernel(const double* x, double* y, std::size_t n) noexcept;
void vsilu_avx2_kernel(const double* x, double* y, std::size_t n) noexcept;

}  // namespace irithyll::nn
