// Dense f64 kernels used by every neural model: dot product, matrix-vector
// products and axpy. Matrices are flat row-major (element (i,j) at i*cols+j).
//
// Each kernel has a plain scalar `_ref` that defines its semantics and a
// dispatched entry point that picks the fastest implementation the CPU
// supports at run time (AVX2+FMA where available, else the reference).
// Results of the fast path agree with `_ref` to a few ulps (summation order
// differs); tests compare them with a named tolerance.
//
// Cost: O(n) / O(rows*cols); no allocation; thread-safe (pure functions).
#pragma once

#include <cstddef>
#include <span>

namespace irithyll::nn {

double dot_ref(const double* a, const double* b, std::size_t n) noexcept;
// y[r] = sum_c m[r*cols + c] * x[c]
void matvec_ref(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;
// y[c] = sum_r m[r*cols + c] * x[r]   (transpose product)
void matvec_t_ref(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;
// y += a * x
void axpy_ref(double a, const double* x, double* y, std::size_t n) noexcept;

double dot(const double* a, const double* b, std::size_t n) noexcept;
void matvec(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;
void matvec_t(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;
void axpy(double a, const double* x, double* y, std::size_t n) noexcept;

inline double dot(std::span<const double> a, std::span<const double> b) noexcept {
  return dot(a.data(), b.data(), a.size() < b.size() ? a.size() : b.size());
}

// Name of the implementation chosen at run time ("avx2" or "scalar").
const char* kernels_backend() noexcept;

}  // namespace irithyll::nn
