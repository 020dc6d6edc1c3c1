// Mixed-precision matrix-vector product: f32 weights, f64 everything else.
//
//   y[r] = sum_c double(m[r*cols + c]) * x[c]
//
// Every weight is widened to f64 exactly (a float is a double with a shorter
// mantissa) and the products and sums are f64, so the result is the f64
// matvec of a matrix whose entries happen to be f32-representable; only the
// bytes streamed per row halve. That is the point: the streaming attention
// layer's projections (~100-200 KB of f64 at d_model 64, 4 heads, 16/16) do
// not fit L1, and its step is bound by reading them from L2 once per token
// (BENCHMARKS.md). A model that stores its weights as f32 values and computes
// in f64 stays reproducible by an f64 reference to rounding.
//
// `matvec_f32w_ref` is the scalar definition on a row-major matrix. The fast
// form is the packed one below (a row-major AVX kernel was measured and lost:
// the widening plus per-row reductions cost as much as the bytes saved); its
// dispatched entry point uses AVX-512, else AVX2+FMA, else its reference,
// chosen at run time, and agrees with the row-major reference to a few ulps
// per term (tests/nn/kernels_f32w_test.cpp names the tolerance).
//
// Cost: O(rows*cols) multiply-adds, 4 bytes of weight per element; no
// allocation; thread-safe (pure functions).
#pragma once

#include <cstddef>

namespace irithyll::nn {

void matvec_f32w_ref(const float* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;

// The same product on a packed copy of m laid out for streaming without
// horizontal sums: rows in blocks of 8 (the last block zero-padded), and
// block b holding, column after column, the 8 weights m[8b..8b+7][c]. Each
// x[c] is broadcast once per block and every FMA fills all 8 lanes with
// distinct rows, so no reduction tree is needed; measured here that is what
// lets the f32 form beat the f64 row-major one (the vcvtps2pd widening plus
// the per-row reductions otherwise cost as much as the bytes saved).
// pack_f32w writes f32w_packed_size(rows, cols) floats.
std::size_t f32w_packed_size(std::size_t rows, std::size_t cols) noexcept;
void pack_f32w(const float* m, std::size_t rows, std::size_t cols, float* packed) noexcept;
void matvec_f32w_packed_ref(const float* packed, const double* x, double* y, std::size_t rows,
                            std::size_t cols) noexcept;
void matvec_f32w_packed(const float* packed, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;
void matvec_f32w_packed_avx2_kernel(const float* packed, const double* x, double* y, std::size_t rows,
                                    std::size_t cols) noexcept;
void matvec_f32w_packed_avx512_kernel(const float* packed, const double* x, double* y, std::size_t rows,
                                      std::size_t cols) noexcept;

}  // namespace irithyll::nn
