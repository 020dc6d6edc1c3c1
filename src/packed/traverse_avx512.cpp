// AVX-512 batch kernel over the heap table (compiled.hpp): sixteen rows per
// zmm, no gathers. Per 16-row block the features are transposed
// feature-major and turned into keys sixteen at a time (up to 16 registers);
// then for each tree (four interleaved), level by level:
//   key  levels 0-2: blends of whole key registers driven by the path so far
//        (1, 2 and 4 candidate features); deeper: the node's feature byte by
//        vpermb, then a log2(n_keys)-level blend tree on its bits;
//   thr  levels 0-3 vpermd from thr_a, level 4 from thr_b, level 5 vpermt2d;
//   step g = 2g + (key > thr)   (1-based heap: a compare mask, an add and a masked sub);
// and the leaf at slot g & 63 comes from two vpermt2d and a blend. Leaves are
// added per lane in tree order, so every lane's f32 sum is the single path's.
// Templated on the padded depth D and the blend-tree height KB, so the level
// loop is straight-line code. Cost per tree and 16 rows: about 12 + 15 (D-3)
// vector ops. Compiled with target attributes only; callers dispatch on
// cpu_has_avx512().
#include <cstring>

#include "packed/compiled.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 headers build unmasked intrinsics on _mm512_undefined_*()
// (a self-initialised vector), which -W(maybe-)uninitialized reports once they
// are inlined into target-attribute functions; the values are never read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#define IRITHYLL_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define IRITHYLL_AVX512_INLINE __attribute__((target("avx512f,avx512bw,avx512vbmi"), always_inline)) inline

namespace irithyll::packed::detail {

bool cpu_has_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vbmi");
  return has;
}

namespace {

// The key of each lane's node feature `feat` (one per dword) from K[0 .. 2^KB).
template <int KB>
IRITHYLL_AVX512_INLINE __m512i select_key(const __m512i* K, __m512i feat) {
  if constexpr (KB == 0) {
    (void)feat;
    return K[0];
  } else {
    __m512i v[1 << KB];
    for (int i = 0; i < (1 << KB); ++i) v[i] = K[i];
    for (int b = 0; b < KB; ++b) {
      const __mmask16 m = _mm512_test_epi32_mask(feat, _mm512_set1_epi32(1 << b));
      for (int i = 0; i < (1 << (KB - b - 1)); ++i) v[i] = _mm512_mask_blend_epi32(m, v[2 * i], v[2 * i + 1]);
    }
    return v[0];
  }
}

// g <- 2g + (key > thr) on the 1-based heap; returns the compare mask.
IRITHYLL_AVX512_INLINE __mmask16 step(__m512i& g, __m512i key, __m512i thr) {
  const __mmask16 m = _mm512_cmpgt_epi32_mask(key, thr);
  const __m512i g2 = _mm512_add_epi32(g, g);
  g = _mm512_mask_sub_epi32(g2, m, g2, _mm512_set1_epi32(-1));
  return m;
}

// Heap slot on level D reached by every lane, for N trees walked together
// (independent dependency chains, interleaved by hand so that the
// compare -> index -> permute latency of one tree hides behind the others).
template <int D, int KB, int N>
IRITHYLL_AVX512_INLINE void walk(const HeapTree* t, const __m512i* K, __m512i* g) {
  for (int i = 0; i < N; ++i) g[i] = _mm512_set1_epi32(1);
  if constexpr (D >= 1) {
    __mmask16 m0[N], m1[N];
    for (int i = 0; i < N; ++i) m0[i] = step(g[i], K[t[i].feature[1]], _mm512_set1_epi32(t[i].thr_a[1]));
    if constexpr (D >= 2) {
      for (int i = 0; i < N; ++i)
        m1[i] = step(g[i], _mm512_mask_blend_epi32(m0[i], K[t[i].feature[2]], K[t[i].feature[3]]),
                     _mm512_permutexvar_epi32(g[i], _mm512_load_si512(t[i].thr_a)));
    }
    if constexpr (D >= 3) {
      for (int i = 0; i < N; ++i) {
        const __m512i k2 =
            _mm512_mask_blend_epi32(m0[i], _mm512_mask_blend_epi32(m1[i], K[t[i].feature[4]], K[t[i].feature[5]]),
                                    _mm512_mask_blend_epi32(m1[i], K[t[i].feature[6]], K[t[i].feature[7]]));
        step(g[i], k2, _mm512_permutexvar_epi32(g[i], _mm512_load_si512(t[i].thr_a)));
      }
    }
    // vpermb takes the low byte of each dword of g as its index; the other
    // three bytes of each dword are zeroed, leaving the feature in a dword.
    const __mmask64 low_bytes = 0x1111111111111111ull;
    if constexpr (D >= 4) {
      for (int i = 0; i < N; ++i)
        step(g[i], select_key<KB>(K, _mm512_maskz_permutexvar_epi8(low_bytes, g[i], _mm512_load_si512(t[i].feature))),
             _mm512_permutexvar_epi32(g[i], _mm512_load_si512(t[i].thr_a)));
    }
    if constexpr (D >= 5) {
      for (int i = 0; i < N; ++i)
        step(g[i], select_key<KB>(K, _mm512_maskz_permutexvar_epi8(low_bytes, g[i], _mm512_load_si512(t[i].feature))),
             _mm512_permutexvar_epi32(g[i], _mm512_load_si512(t[i].thr_b)));
    }
    if constexpr (D >= 6) {
      for (int i = 0; i < N; ++i)
        step(g[i], select_key<KB>(K, _mm512_maskz_permutexvar_epi8(low_bytes, g[i], _mm512_load_si512(t[i].feature))),
             _mm512_permutex2var_epi32(_mm512_load_si512(t[i].thr_c), g[i], _mm512_load_si512(t[i].thr_c + 16)));
    }
  }
}

// Leaf slot g & 63: bit 4 picks within a vpermt2d pair, bit 5 between pairs.
IRITHYLL_AVX512_INLINE __m512i leaf_bits(const HeapTree& t, __m512i g) {
  const __m512i lo = _mm512_permutex2var_epi32(_mm512_load_si512(t.leaf), g, _mm512_load_si512(t.leaf + 16));
  const __m512i hi = _mm512_permutex2var_epi32(_mm512_load_si512(t.leaf + 32), g, _mm512_load_si512(t.leaf + 48));
  return _mm512_mask_blend_epi32(_mm512_test_epi32_mask(g, _mm512_set1_epi32(32)), lo, hi);
}

// Keys of 16 rows, feature-major: K[f] holds feature f of rows 0..15, made
// exactly as make_keys() does (feature_key for f32, saturating trunc of
// x * scale for int16), sixteen at a time. Features >= n_read read as 0.
IRITHYLL_AVX512_INLINE void block_keys(const Compiled& c, const float* rows,
                                                               std::size_t stride, std::size_t n_read, float* xt,
                                                               __m512i* K, int n_regs) {
  for (std::size_t j = 0; j < 16; ++j)
    for (std::size_t f = 0; f < n_read; ++f) xt[f * 16 + j] = rows[j * stride + f];
  for (int f = 0; f < n_regs; ++f) {
    const __m512 x = _mm512_load_ps(xt + 16 * f);
    const __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    if (c.integer_leaves) {
      const float scale = static_cast<std::uint32_t>(f) < c.n_keys ? c.feature_scale[f] : 1.0f;
      __m512 y = _mm512_mul_ps(x, _mm512_set1_ps(scale));
      y = _mm512_min_ps(_mm512_max_ps(y, _mm512_set1_ps(-32768.0f)), _mm512_set1_ps(32767.0f));
      K[f] = _mm512_maskz_mov_epi32(static_cast<__mmask16>(~nan), _mm512_cvttps_epi32(y));
    } else {
      // feature_key(): -0 -> +0, negative floats flip their magnitude bits
      // so that integer order is float order, NaN below everything.
      const __m512i b = _mm512_castps_si512(_mm512_add_ps(x, _mm512_setzero_ps()));
      const __m512i key = _mm512_xor_si512(b, _mm512_srli_epi32(_mm512_srai_epi32(b, 31), 1));
      K[f] = _mm512_mask_mov_epi32(key, nan, _mm512_set1_epi32(INT32_MIN));
    }
  }
}

template <int D, int KB>
IRITHYLL_AVX512 void run(const Compiled& c, const float* rows, std::size_t stride, std::size_t n_read,
                         std::size_t n, float* out) {
  constexpr int kRegs = 1 << KB;
  const std::size_t nt = c.heap.size();
  const HeapTree* trees = c.heap.data();
  alignas(64) float xt[kHeapMaxKeys * 16] = {};  // features >= n_read stay 0
  __m512i K[kHeapMaxKeys];
  for (std::size_t r0 = 0; r0 + 16 <= n; r0 += 16) {
    block_keys(c, rows + r0 * stride, stride, n_read, xt, K, kRegs);
    __m512i g[4];
    if (c.integer_leaves) {
      __m512i isum = _mm512_setzero_si512();
      std::size_t t = 0;
      for (; t + 4 <= nt; t += 4) {
        walk<D, KB, 4>(trees + t, K, g);
        for (int i = 0; i < 4; ++i) isum = _mm512_add_epi32(isum, leaf_bits(trees[t + i], g[i]));
      }
      for (; t < nt; ++t) {
        walk<D, KB, 1>(trees + t, K, g);
        isum = _mm512_add_epi32(isum, leaf_bits(trees[t], g[0]));
      }
      const __m512 deq = _mm512_div_ps(_mm512_cvtepi32_ps(isum), _mm512_set1_ps(c.leaf_scale));
      _mm512_storeu_ps(out + r0, _mm512_add_ps(_mm512_set1_ps(c.base), deq));
    } else {
      __m512 sum = _mm512_set1_ps(c.base);
      std::size_t t = 0;
      for (; t + 4 <= nt; t += 4) {  // four trees at a time, added in tree order
        walk<D, KB, 4>(trees + t, K, g);
        for (int i = 0; i < 4; ++i) sum = _mm512_add_ps(sum, _mm512_castsi512_ps(leaf_bits(trees[t + i], g[i])));
      }
      for (; t < nt; ++t) {
        walk<D, KB, 1>(trees + t, K, g);
        sum = _mm512_add_ps(sum, _mm512_castsi512_ps(leaf_bits(trees[t], g[0])));
      }
      _mm512_storeu_ps(out + r0, sum);
    }
  }
}

using Kernel = void (*)(const Compiled&, const float*, std::size_t, std::size_t, std::size_t, float*);

template <int D>
Kernel pick_kb(std::uint32_t n_keys) {
  if (n_keys <= 1) return run<D, 0>;
  if (n_keys <= 2) return run<D, 1>;
  if (n_keys <= 4) return run<D, 2>;
  if (n_keys <= 8) return run<D, 3>;
  return run<D, 4>;
}

Kernel pick(std::uint32_t depth, std::uint32_t n_keys) {
  switch (depth) {
    case 0: return pick_kb<0>(n_keys);
    case 1: return pick_kb<1>(n_keys);
    case 2: return pick_kb<2>(n_keys);
    case 3: return pick_kb<3>(n_keys);
    case 4: return pick_kb<4>(n_keys);
    case 5: return pick_kb<5>(n_keys);
    default: return pick_kb<6>(n_keys);
  }
}

// One sample: all split slots of a tree compared at once (four vpermd of the
// key register by feature, four compares: a 64-bit mask, bit g = "go right
// at slot g"), then D dependent scalar steps g = 2g + bit(g). The compares
// are independent across trees, so only the short bit walk is serial.
template <int D>
IRITHYLL_AVX512_INLINE std::uint32_t leaf_slot(const HeapTree& t, const std::int32_t* feature32, __m512i keys) {
  const auto* thr = t.thr_a;  // thr_a | thr_b | thr_c: slot g at thr[g] (compiled.hpp)
  // Slots in use: 1 .. 2^D - 1, so D <= 4 needs only the first 16 or 32.
  constexpr int kGroups = D <= 4 ? 1 : D == 5 ? 2 : 4;
  __mmask16 m[4] = {0, 0, 0, 0};
  for (int q = 0; q < kGroups; ++q) {
    const __m512i feat = _mm512_loadu_si512(feature32 + 16 * q);
    m[q] = _mm512_cmpgt_epi32_mask(_mm512_permutexvar_epi32(feat, keys), _mm512_load_si512(thr + 16 * q));
  }
  std::uint64_t bits;
  if constexpr (kGroups == 1)
    bits = _cvtmask16_u32(m[0]);
  else if constexpr (kGroups == 2)
    bits = _cvtmask32_u32(_mm512_kunpackw(m[1], m[0]));
  else
    bits = _cvtmask64_u64(_mm512_kunpackd(_mm512_kunpackw(m[3], m[2]), _mm512_kunpackw(m[1], m[0])));
  std::uint64_t g = 1;
  for (int l = 0; l < D; ++l) {
    // g = 2g + bit g of bits: bt sets the carry, adc doubles and adds it.
    __asm__("bt %[g], %[bits]\n\tadc %[g], %[g]" : [g] "+r"(g) : [bits] "r"(bits) : "cc");
  }
  return static_cast<std::uint32_t>(g & 63u);
}

template <int D>
IRITHYLL_AVX512 float one(const Compiled& c, const std::int32_t* keys) {
  const __m512i k = _mm512_maskz_loadu_epi32(static_cast<__mmask16>((1u << c.n_keys) - 1u), keys);
  const HeapTree* trees = c.heap.data();
  const std::int32_t* feature32 = c.heap_feature32.data();
  const std::size_t nt = c.heap.size();
  if (c.integer_leaves) {
    std::int32_t isum = 0;
    for (std::size_t t = 0; t < nt; ++t) isum += trees[t].leaf[leaf_slot<D>(trees[t], feature32 + 64 * t, k)];
    return c.base + static_cast<float>(isum) / c.leaf_scale;
  }
  float sum = c.base;
  for (std::size_t t = 0; t < nt; ++t) {
    float v;
    std::memcpy(&v, &trees[t].leaf[leaf_slot<D>(trees[t], feature32 + 64 * t, k)], sizeof v);
    sum += v;  // tree order, as every other path
  }
  return sum;
}

}  // namespace

void predict_rows_avx512(const Compiled& c, const float* rows, std::size_t stride, std::size_t n_read, std::size_t n,
                         float* out) {
  pick(c.heap_depth, c.n_keys)(c, rows, stride, n_read, n, out);
}

float predict_one_avx512(const Compiled& c, const std::int32_t* keys) {
  switch (c.heap_depth) {
    case 0: return one<0>(c, keys);
    case 1: return one<1>(c, keys);
    case 2: return one<2>(c, keys);
    case 3: return one<3>(c, keys);
    case 4: return one<4>(c, keys);
    case 5: return one<5>(c, keys);
    default: return one<6>(c, keys);
  }
}

}  // namespace irithyll::packed::detail

#else

namespace irithyll::packed::detail {
bool cpu_has_avx512() { return false; }
void predict_rows_avx512(const Compiled&, const float*, std::size_t, std::size_t, std::size_t, float*) {}
float predict_one_avx512(const Compiled&, const std::int32_t*) { return 0.0f; }
}  // namespace irithyll::packed::detail

#endif
