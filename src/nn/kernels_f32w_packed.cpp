// The mixed-precision matvec (kernels_f32w.hpp): the row-major scalar
// definition, and the packed (8-row column-interleaved) form the attention
// layer streams, with its AVX-512 / AVX2 kernels.
#include <algorithm>
#include <cstdint>

#include "irithyll/nn/kernels_f32w.hpp"
#include "cpu_features.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define IRITHYLL_HAVE_X86 1
#endif

namespace irithyll::nn {

void matvec_f32w_ref(const float* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = m + r * cols;
    double s = 0.0;
    for (std::size_t c = 0; c < cols; ++c) s += static_cast<double>(row[c]) * x[c];
    y[r] = s;
  }
}

std::size_t f32w_packed_size(std::size_t rows, std::size_t cols) noexcept { return (rows + 7) / 8 * 8 * cols; }

void pack_f32w(const float* m, std::size_t rows, std::size_t cols, float* packed) noexcept {
  const std::size_t blocks = (rows + 7) / 8;
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t l = 0; l < 8; ++l) {
        const std::size_t r = 8 * b + l;
        packed[(b * cols + c) * 8 + l] = r < rows ? m[r * cols + c] : 0.0f;
      }
}

void matvec_f32w_packed_ref(const float* packed, const double* x, double* y, std::size_t rows,
                            std::size_t cols) noexcept {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* p = packed + (r / 8) * 8 * cols + r % 8;
    double s = 0.0;
    for (std::size_t c = 0; c < cols; ++c) s += static_cast<double>(p[8 * c]) * x[c];
    y[r] = s;
  }
}

#ifdef IRITHYLL_HAVE_X86
namespace {

// Rows of the last (partial) block are written through a scratch copy so the
// kernels never store past y[rows - 1].
void store_partial(const double* lanes, double* y, std::size_t n) noexcept { std::copy(lanes, lanes + n, y); }

__attribute__((target("avx2,fma"))) void packed_avx2(const float* packed, const double* x, double* y,
                                                     std::size_t rows, std::size_t cols) noexcept {
  const std::size_t blocks = (rows + 7) / 8;
  for (std::size_t b = 0; b < blocks; ++b) {
    const float* p = packed + b * 8 * cols;
    __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
    for (std::size_t c = 0; c < cols; ++c) {
      const __m256d xv = _mm256_broadcast_sd(x + c);
      lo = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(p + 8 * c)), xv, lo);
      hi = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(p + 8 * c + 4)), xv, hi);
    }
    alignas(32) double out[8];
    _mm256_store_pd(out, lo);
    _mm256_store_pd(out + 4, hi);
    store_partial(out, y + 8 * b, std::min<std::size_t>(8, rows - 8 * b));
  }
}

#define IRITHYLL_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// NB blocks (8 NB rows) per pass: NB independent FMA chains hide the FMA
// latency, and the stream of weights is read strictly in address order.
template <int NB>
IRITHYLL_AVX512 __attribute__((always_inline)) inline void packed_pass(const float* p, const double* x, double* y,
                                                                     std::size_t cols) noexcept {
  __m512d acc[NB];
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j) acc[j] = _mm512_setzero_pd();
  for (std::size_t c = 0; c < cols; ++c) {
    const __m512d xv = _mm512_set1_pd(x[c]);
#pragma GCC unroll 8
    for (int j = 0; j < NB; ++j)
      acc[j] = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_loadu_ps(p + static_cast<std::size_t>(j) * 8 * cols + 8 * c)),
                               xv, acc[j]);
  }
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j) _mm512_storeu_pd(y + 8 * j, acc[j]);
}

IRITHYLL_AVX512 void packed_avx512(const float* packed, const double* x, double* y, std::size_t rows,
                                   std::size_t cols) noexcept {
  const std::size_t full = rows / 8;  // blocks whose 8 rows all exist
  std::size_t b = 0;
  for (; b + 4 <= full; b += 4) packed_pass<4>(packed + b * 8 * cols, x, y + 8 * b, cols);
  for (; b < full; ++b) packed_pass<1>(packed + b * 8 * cols, x, y + 8 * b, cols);
  if (rows % 8 != 0) {
    alignas(64) double out[8];
    packed_pass<1>(packed + b * 8 * cols, x, out, cols);
    store_partial(out, y + 8 * b, rows % 8);
  }
}

const bool kUseAvx2 = detail::cpu_has_avx2_fma();
const bool kUseAvx512 = detail::cpu_has_avx512();

}  // namespace

void matvec_f32w_packed(const float* packed, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  if (kUseAvx512) {
    packed_avx512(packed, x, y, rows, cols);
  } else if (kUseAvx2) {
    packed_avx2(packed, x, y, rows, cols);
  } else {
    matvec_f32w_packed_ref(packed, x, y, rows, cols);
  }
}
void matvec_f32w_packed_avx2_kernel(const float* packed, const double* x, double* y, std::size_t rows,
                                    std::size_t cols) noexcept {
  if (kUseAvx2) {
    packed_avx2(packed, x, y, rows, cols);
  } else {
    matvec_f32w_packed_ref(packed, x, y, rows, cols);
  }
}
void matvec_f32w_packed_avx512_kernel(const float* packed, const double* x, double* y, std::size_t rows,
                                      std::size_t cols) noexcept {
  if (kUseAvx512) {
    packed_avx512(packed, x, y, rows, cols);
  } else {
    matvec_f32w_packed_ref(packed, x, y, rows, cols);
  }
}
#else
void matvec_f32w_packed(const float* packed, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  matvec_f32w_packed_ref(packed, x, y, rows, cols);
}
void matvec_f32w_packed_avx2_kernel(const float* packed, const double* x, double* y, std::size_t rows,
                                    std::size_t cols) noexcept {
  matvec_f32w_packed_ref(packed, x, y, rows, cols);
}
void matvec_f32w_packed_avx512_kernel(const float* packed, const double* x, double* y, std::size_t rows,
                                      std::size_t cols) noexcept {
  matvec_f32w_packed_ref(packed, x, y, rows, cols);
}
#endif

}  // namespace irithyll::nn
