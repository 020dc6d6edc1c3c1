// The hi32-weight matvec (kernels_hi32.hpp): grid rounding, the packed
// layout, its scalar reference and its AVX-512 / AVX2 kernels.
#include "nn/kernels_hi32.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "cpu_features.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define IRITHYLL_HAVE_X86 1
#endif

namespace irithyll::nn {

namespace {

constexpr std::uint64_t kLowWord = 0xffffffffULL;
constexpr std::uint64_t kHalfLowWord = 0x80000000ULL;
constexpr std::uint64_t kQuietBit = 1ULL << 51;

std::size_t pairs_of(std::size_t cols) noexcept { return (cols + 1) / 2; }

// Word index, inside one block's 16-word group, of row r (0..7) of the
// pair's column `odd` (0 or 1): the 128-bit lane r/2, then the column, then
// the row within the lane.
std::size_t lane_word(std::size_t r, std::size_t odd) noexcept { return 4 * (r / 2) + 2 * odd + r % 2; }

// First word of (block b, column pair p).
std::size_t group_offset(std::size_t b, std::size_t p, std::size_t blocks, std::size_t pairs) noexcept {
  const std::size_t pass = b / 4, nb = std::min<std::size_t>(4, blocks - 4 * pass);
  return (4 * pass * pairs + p * nb + b % 4) * 16;
}

}  // namespace

double to_hi32(double w) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(w);
  // Truncation alone would turn a NaN whose payload sits in the low word into
  // inf: keep it a (quiet) NaN.
  if (std::isnan(w)) return std::bit_cast<double>(((bits >> 32) << 32) | kQuietBit);
  std::uint64_t hi = bits >> 32;
  const std::uint64_t lo = bits & kLowWord;
  // Round to nearest, ties to even. A carry out of the fraction increments
  // the exponent, which is the correctly rounded result (up to inf).
  if (lo > kHalfLowWord || (lo == kHalfLowWord && (hi & 1) != 0)) ++hi;
  return std::bit_cast<double>(hi << 32);
}

std::uint32_t hi32_word(double w) noexcept { return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(w) >> 32); }

double from_hi32_word(std::uint32_t hi) noexcept {
  return std::bit_cast<double>(static_cast<std::uint64_t>(hi) << 32);
}

std::size_t hi32_packed_words(std::size_t rows, std::size_t cols) noexcept {
  return (rows + 7) / 8 * pairs_of(cols) * 16;
}

void pack_hi32(const double* m, std::size_t rows, std::size_t cols, std::uint32_t* packed) noexcept {
  const std::size_t blocks = (rows + 7) / 8, pairs = pairs_of(cols);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t p = 0; p < pairs; ++p) {
      std::uint32_t* g = packed + group_offset(b, p, blocks, pairs);
      for (std::size_t r = 0; r < 8; ++r)
        for (std::size_t odd = 0; odd < 2; ++odd) {
          const std::size_t row = 8 * b + r, col = 2 * p + odd;
          g[lane_word(r, odd)] = row < rows && col < cols ? hi32_word(to_hi32(m[row * cols + col])) : 0u;
        }
    }
}

void matvec_hi32_packed_ref(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                            std::size_t cols) noexcept {
  const std::size_t blocks = (rows + 7) / 8, pairs = pairs_of(cols);
  for (std::size_t row = 0; row < rows; ++row) {
    double s = 0.0;
    for (std::size_t c = 0; c < cols; ++c)
      s += from_hi32_word(packed[group_offset(row / 8, c / 2, blocks, pairs) + lane_word(row % 8, c % 2)]) * x[c];
    y[row] = s;
  }
}

#ifdef IRITHYLL_HAVE_X86
namespace {

#define IRITHYLL_AVX2 __attribute__((target("avx2,fma")))
#define IRITHYLL_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// One pass of NB blocks (8 NB rows) into out[0 .. 8 NB). Even and odd
// columns accumulate separately (2 NB independent FMA chains) and are added
// at the end.
template <int NB>
IRITHYLL_AVX512 void pass_avx512(const std::uint32_t* p, const double* x, double* out, std::size_t cols) noexcept {
  const __m512i zero = _mm512_setzero_si512();
  __m512d even[NB], odd[NB];
  for (int j = 0; j < NB; ++j) even[j] = odd[j] = _mm512_setzero_pd();
  const std::size_t full = cols / 2;
  for (std::size_t q = 0; q < full; ++q) {
    const __m512d x0 = _mm512_set1_pd(x[2 * q]), x1 = _mm512_set1_pd(x[2 * q + 1]);
    const std::uint32_t* g = p + q * NB * 16;
    for (int j = 0; j < NB; ++j) {
      const __m512i w = _mm512_loadu_si512(g + 16 * j);
      even[j] = _mm512_fmadd_pd(_mm512_castsi512_pd(_mm512_unpacklo_epi32(zero, w)), x0, even[j]);
      odd[j] = _mm512_fmadd_pd(_mm512_castsi512_pd(_mm512_unpackhi_epi32(zero, w)), x1, odd[j]);
    }
  }
  if (cols % 2 != 0) {
    const __m512d x0 = _mm512_set1_pd(x[cols - 1]);
    const std::uint32_t* g = p + full * NB * 16;
    for (int j = 0; j < NB; ++j)
      even[j] = _mm512_fmadd_pd(_mm512_castsi512_pd(_mm512_unpacklo_epi32(zero, _mm512_loadu_si512(g + 16 * j))), x0,
                                even[j]);
  }
  for (int j = 0; j < NB; ++j) _mm512_storeu_pd(out + 8 * j, _mm512_add_pd(even[j], odd[j]));
}

// The same pass on 256-bit registers: each 16-word group is two halves,
// rows 0-3 and rows 4-7, and both columns of a pair feed one accumulator.
template <int NB>
IRITHYLL_AVX2 void pass_avx2(const std::uint32_t* p, const double* x, double* out, std::size_t cols) noexcept {
  const __m256i zero = _mm256_setzero_si256();
  __m256d acc[NB][2];
  for (int j = 0; j < NB; ++j) acc[j][0] = acc[j][1] = _mm256_setzero_pd();
  const std::size_t full = cols / 2;
  for (std::size_t q = 0; q < full; ++q) {
    const __m256d x0 = _mm256_broadcast_sd(x + 2 * q), x1 = _mm256_broadcast_sd(x + 2 * q + 1);
    const std::uint32_t* g = p + q * NB * 16;
    for (int j = 0; j < NB; ++j)
      for (int h = 0; h < 2; ++h) {
        const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + 16 * j + 8 * h));
        acc[j][h] = _mm256_fmadd_pd(_mm256_castsi256_pd(_mm256_unpacklo_epi32(zero, w)), x0, acc[j][h]);
        acc[j][h] = _mm256_fmadd_pd(_mm256_castsi256_pd(_mm256_unpackhi_epi32(zero, w)), x1, acc[j][h]);
      }
  }
  if (cols % 2 != 0) {
    const __m256d x0 = _mm256_broadcast_sd(x + cols - 1);
    const std::uint32_t* g = p + full * NB * 16;
    for (int j = 0; j < NB; ++j)
      for (int h = 0; h < 2; ++h) {
        const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + 16 * j + 8 * h));
        acc[j][h] = _mm256_fmadd_pd(_mm256_castsi256_pd(_mm256_unpacklo_epi32(zero, w)), x0, acc[j][h]);
      }
  }
  for (int j = 0; j < NB; ++j)
    for (int h = 0; h < 2; ++h) _mm256_storeu_pd(out + 8 * j + 4 * h, acc[j][h]);
}

using PassFn = void (*)(const std::uint32_t*, const double*, double*, std::size_t) noexcept;

// Walks the passes; the pass holding the zero-padded rows of the last block
// writes through scratch so that nothing lands past y[rows - 1].
void run_passes(const PassFn (&pass)[5], const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                std::size_t cols) noexcept {
  const std::size_t blocks = (rows + 7) / 8, pairs = pairs_of(cols);
  alignas(64) double tail[32];
  for (std::size_t b = 0; b < blocks; b += 4) {
    const std::size_t nb = std::min<std::size_t>(4, blocks - b), r0 = 8 * b;
    const std::size_t n = std::min(8 * nb, rows - r0);
    double* out = n == 8 * nb ? y + r0 : tail;
    pass[nb](packed + b * 16 * pairs, x, out, cols);
    if (out == tail) std::copy(tail, tail + n, y + r0);
  }
}

constexpr PassFn kAvx512Passes[5] = {nullptr, &pass_avx512<1>, &pass_avx512<2>, &pass_avx512<3>, &pass_avx512<4>};
constexpr PassFn kAvx2Passes[5] = {nullptr, &pass_avx2<1>, &pass_avx2<2>, &pass_avx2<3>, &pass_avx2<4>};

const bool kUseAvx2 = detail::cpu_has_avx2_fma();
const bool kUseAvx512 = detail::cpu_has_avx512();

}  // namespace

void matvec_hi32_packed(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                        std::size_t cols) noexcept {
  if (kUseAvx512) {
    run_passes(kAvx512Passes, packed, x, y, rows, cols);
  } else if (kUseAvx2) {
    run_passes(kAvx2Passes, packed, x, y, rows, cols);
  } else {
    matvec_hi32_packed_ref(packed, x, y, rows, cols);
  }
}
void matvec_hi32_packed_avx2_kernel(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                                    std::size_t cols) noexcept {
  if (kUseAvx2) {
    run_passes(kAvx2Passes, packed, x, y, rows, cols);
  } else {
    matvec_hi32_packed_ref(packed, x, y, rows, cols);
  }
}
void matvec_hi32_packed_avx512_kernel(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                                      std::size_t cols) noexcept {
  if (kUseAvx512) {
    run_passes(kAvx512Passes, packed, x, y, rows, cols);
  } else {
    matvec_hi32_packed_ref(packed, x, y, rows, cols);
  }
}
const char* hi32_backend() noexcept { return kUseAvx512 ? "avx512" : kUseAvx2 ? "avx2" : "scalar"; }
#else
void matvec_hi32_packed(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                        std::size_t cols) noexcept {
  matvec_hi32_packed_ref(packed, x, y, rows, cols);
}
void matvec_hi32_packed_avx2_kernel(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                                    std::size_t cols) noexcept {
  matvec_hi32_packed_ref(packed, x, y, rows, cols);
}
void matvec_hi32_packed_avx512_kernel(const std::uint32_t* packed, const double* x, double* y, std::size_t rows,
                                      std::size_t cols) noexcept {
  matvec_hi32_packed_ref(packed, x, y, rows, cols);
}
const char* hi32_backend() noexcept { return "scalar"; }
#endif

}  // namespace irithyll::nn
