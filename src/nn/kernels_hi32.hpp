// Matrix-vector product on "hi32" weights: f64 values whose low 32 bits are
// zero, stored as their high 32-bit word. All arithmetic is f64.
//
//   y[r] = sum_c m[r*cols + c] * x[c]
//
// A hi32 value keeps the sign, the full 11-bit exponent and 20 fraction bits
// of an IEEE-754 double: 21 significant bits (relative spacing 2^-20, f32
// has 2^-23), the whole f64 range, inf and NaN. Such a weight is a double
// with a shorter mantissa, so the product is the f64 matvec of a matrix whose
// entries happen to lie on that grid, and an f64 reference fed the same values
// reproduces it to summation-order rounding.
//
// Why not f32 weights: the streaming attention layer's projections (~80-130
// KB at d_model 64, 4 heads, 16/16) do not fit L1, and widening f32 to f64
// (vcvtps2pd) runs at one 8-lane instruction per cycle on the CPUs measured
// here, slower than L2 delivers the bytes. Widening a hi32 word is an integer
// interleave with zero (vpunpckl/hdq), two per 16 weights, so the same 4 bytes
// per weight stream at L2 speed: 0.68x the f32 kernel's time at 320 x 64
// (BENCHMARKS.md). Weights that are random features (the attention layer's)
// lose nothing measurable at 21 bits.
//
// `to_hi32` rounds a double to the grid (nearest, ties to even; NaN stays
// NaN, overflow goes to inf as in any narrowing). The scalar definition is
// the plain f64 `matvec_ref` (kernels.hpp) on the row-major matrix of grid
// values; the packed reference below sums in the same order, to the bit. The
// fast form's dispatched entry point uses AVX-512, else AVX2+FMA, else the
// packed reference, chosen at run time, and agrees with `matvec_ref` to a few
// ulps per term (tests/nn/kernels_hi32_test.cpp names the tolerance).
//
// Cost: O(rows*cols) multiply-adds, 4 bytes of weight per element; no
// allocation; thread-safe (pure functions).
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::nn {

double to_hi32(double w) noexcept;
// The high word of a grid value (exact; to_hi32 first if w may be off-grid),
// and back: every word is the high half of some grid value.
std::uint32_t hi32_word(double w) noexcept;
double from_hi32_word(std::uint32_t hi) noexcept;

// The packed copy, laid out for streaming without horizontal sums or
// shuffles across 128-bit lanes:
//  - rows in blocks of 8 (the last zero-padded), columns in pairs (an odd
//    last column paired with a zero column);
//  - for block b and column pair p, 16 words: in each 128-bit lane L
//    (L = 0..3), rows 2L and 2L+1 of column 2p, then the same rows of column
//    2p+1. Interleaving a lane with zero (low / high halves) yields the 8
//    rows of column 2p / 2p+1 as doubles in row order;
//  - blocks in passes of four (the last pass may hold fewer): a pass is
//    stored column pair after column pair, each pair's 16-word groups for
//    the pass's blocks side by side, so a pass is one sequential stream.
// Every 16-word group starts on a 64-byte boundary when `packed` does
// (the kernels' full-width loads then never split a cache line).
// pack_hi32 writes hi32_packed_words(rows, cols) words, rounding each weight
// with to_hi32.
std::size_t hi32_packed_words(std::size_t rows, std::size_t cols) noexcept;
void pack_hi32(const double* m, std::size_t rows, std::size_t cols, std::uint32_t* packed) noexcept;
void matvec_hi32_packed_ref(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                            std::size_t cols) noexcept;
void matvec_hi32_packed(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                        std::size_t cols) noexcept;
// The dispatched paths, callable directly so tests can compare each with the
// reference (each falls back to the reference when the CPU lacks it).
void matvec_hi32_packed_avx2_kernel(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                                    std::size_t cols) noexcept;
void matvec_hi32_packed_avx512_kernel(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                                      std::size_t cols) noexcept;
const char* hi32_backend() noexcept;  // "avx512", "avx2" or "scalar"

}  // namespace irithyll::nn
