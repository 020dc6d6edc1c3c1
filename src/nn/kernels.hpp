// Dense f64 kernels used by every neural model: dot product, matrix-vector
// products and axpy. Matrices are flat row-major (element (i,j) at i*cols+j).
//
// Each kernel has a plain scalar `_ref` that defines its semantics and a
// dispatched entry point that picks the fastest implementation the CPU
// supports at run time (matvec: AVX-512 where available, then AVX2+FMA, else
// the reference; the others: AVX2+FMA or the reference).
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

// Name of the implementation chosen at run time ("avx512", "avx2" or "scalar").
const char* kernels_backend() noexcept;

// For tests and benchmarks: whether the CPU runs each fast path, and the
// matvec variants called directly (each falls back to matvec_ref where the
// CPU or compiler lacks it, so callers check kernels_has_* first).
bool kernels_has_avx2() noexcept;
bool kernels_has_avx512() noexcept;
void matvec_avx2_kernel(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;
void matvec_avx512_kernel(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept;

}  // namespace irithyll::nn
