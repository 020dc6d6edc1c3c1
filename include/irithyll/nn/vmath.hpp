// Vectorised elementwise exp, logistic sigmoid, tanh and softplus for the
// gate, level-mix and readout maps of the neural models.
//
// Each map has a `_ref` that defines it: std::exp, nn::sigmoid and
// nn::softplus (the branch forms in primitives.hpp) and std::tanh per element. The dispatched entry
// points use AVX-512 where the CPU has it and the reference otherwise. The
// fast exp is the textbook scheme (Cody & Waite range reduction
// x = k ln2 + r, |r| <= ln2/2, then a degree-13 Taylor polynomial for
// expm1(r), whose truncation error 0.347^14/14! < 5e-18 is below the double
// rounding), scaled by 2^k in two halves so that subnormal results come out
// right. tanh(|x|) = -e / (e + 2) with e = expm1(-2|x|), which has no
// cancellation near 0 and cannot overflow; sigmoid uses exp(-|x|) on both
// branches like the reference; softplus keeps the reference's tail branches
// and computes log1p(e^x) from a log built on the exponent / mantissa split
// (see vmath.cpp). Agreement with the references: a few ulps
// (tests/nn/vmath_test.cpp states the tolerance); NaN propagates, +-inf map
// to their limits.
//
// Cost: O(n), ~20 vector operations per 8 elements; no allocation. x and y
// may be the same array (in-place), otherwise they must not overlap.
// Thread-safe (pure functions).
#pragma once

#include <cstddef>

namespace irithyll::nn {

void vexp_ref(const double* x, double* y, std::size_t n) noexcept;
void vsigmoid_ref(const double* x, double* y, std::size_t n) noexcept;
void vtanh_ref(const double* x, double* y, std::size_t n) noexcept;
void vsoftplus_ref(const double* x, double* y, std::size_t n) noexcept;

void vexp(const double* x, double* y, std::size_t n) noexcept;
void vsigmoid(const double* x, double* y, std::size_t n) noexcept;
void vtanh(const double* x, double* y, std::size_t n) noexcept;
void vsoftplus(const double* x, double* y, std::size_t n) noexcept;

// "avx512" or "scalar" (the reference).
const char* vmath_backend() noexcept;

}  // namespace irithyll::nn
