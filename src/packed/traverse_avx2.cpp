// AVX2 batch kernel: eight rows per register. Each step gathers the eight
// current nodes (two 4 x u64 gathers), splits them into threshold, child and
// feature lanes, gathers each row's key for its node's feature, compares, and
// moves to child + (key > threshold). Leaves are then gathered and added per
// lane in tree order, so every lane's float sum is the single path's.
// Compiled with target("avx2") attributes only. Not dispatched: on the Zen 5
// machines we run on an 8-lane gather costs ~3.9 ns, so this kernel (three
// gathers per node visit) loses to the portable loop (BENCHMARKS.md); it is
// kept, tested, and reachable through predict_batch_with(BatchKernel::kAvx2)
// for CPUs with cheap gathers.
#include "packed/compiled.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

namespace irithyll::packed::detail {

namespace {

// One step for eight rows in one tree: gather the eight current nodes (two
// 4 x u64 gathers), split threshold / child / feature, gather each row's key
// for its node's feature, and move to child + (key > threshold).
__attribute__((target("avx2"))) inline __m256i step8(const long long* tree, __m256i idx, const int* rows_keys,
                                                     __m256i lane_rows) {
  const __m256i pick_even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i lo = _mm256_i32gather_epi64(tree, _mm256_castsi256_si128(idx), 8);
  const __m256i hi = _mm256_i32gather_epi64(tree, _mm256_extracti128_si256(idx, 1), 8);
  // Each u64 is (threshold | child << 32 | feature << 48): even dwords are
  // thresholds, odd dwords child/feature.
  const __m256i a = _mm256_permutevar8x32_epi32(lo, pick_even);
  const __m256i b = _mm256_permutevar8x32_epi32(hi, pick_even);
  const __m256i thr = _mm256_permute2x128_si256(a, b, 0x20);
  const __m256i meta = _mm256_permute2x128_si256(a, b, 0x31);
  const __m256i child = _mm256_and_si256(meta, _mm256_set1_epi32(0xFFFF));
  const __m256i feat = _mm256_srli_epi32(meta, 16);
  const __m256i key = _mm256_i32gather_epi32(rows_keys, _mm256_add_epi32(lane_rows, feat), 4);
  // cmpgt gives -1 where the row goes right; child - (-1) = right child.
  return _mm256_sub_epi32(child, _mm256_cmpgt_epi32(key, thr));
}

}  // namespace

__attribute__((target("avx2"))) void predict_keys_avx2(const Compiled& c, const std::int32_t* keys, std::size_t n,
                                                       float* out) {
  const std::size_t nt = c.tree_base.size();
  const auto nk = static_cast<std::int32_t>(c.n_keys);
  const __m256i lane_rows = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(nk));
  const auto* nodes = reinterpret_cast<const long long*>(c.nodes.data());
  const std::uint32_t* base = c.tree_base.data();
  const std::uint32_t* depth = c.tree_depth.data();
  for (std::size_t r0 = 0; r0 + 8 <= n; r0 += 8) {
    const int* rows_keys = keys + r0 * c.n_keys;
    __m256 sum = _mm256_set1_ps(c.base);
    __m256i isum = _mm256_setzero_si256();
    std::size_t t = 0;
    // Four trees at once: four independent gather chains hide the latency of
    // each other (a single chain is latency-bound: gather, gather, compare).
    for (; t + 4 <= nt; t += 4) {
      __m256i i0 = _mm256_setzero_si256(), i1 = i0, i2 = i0, i3 = i0;
      std::uint32_t d = depth[t];
      for (std::uint32_t j = 1; j < 4; ++j) d = depth[t + j] > d ? depth[t + j] : d;
      for (std::uint32_t s = 0; s < d; ++s) {
        i0 = step8(nodes + base[t], i0, rows_keys, lane_rows);
        i1 = step8(nodes + base[t + 1], i1, rows_keys, lane_rows);
        i2 = step8(nodes + base[t + 2], i2, rows_keys, lane_rows);
        i3 = step8(nodes + base[t + 3], i3, rows_keys, lane_rows);
      }
      const __m256i ix[4] = {i0, i1, i2, i3};
      for (std::uint32_t j = 0; j < 4; ++j) {  // tree order, as the single path adds
        if (c.integer_leaves)
          isum = _mm256_add_epi32(isum, _mm256_i32gather_epi32(c.leaf_i32.data() + base[t + j], ix[j], 4));
        else
          sum = _mm256_add_ps(sum, _mm256_i32gather_ps(c.leaf_f32.data() + base[t + j], ix[j], 4));
      }
    }
    for (; t < nt; ++t) {
      __m256i idx = _mm256_setzero_si256();
      for (std::uint32_t s = 0; s < depth[t]; ++s) idx = step8(nodes + base[t], idx, rows_keys, lane_rows);
      if (c.integer_leaves)
        isum = _mm256_add_epi32(isum, _mm256_i32gather_epi32(c.leaf_i32.data() + base[t], idx, 4));
      else
        sum = _mm256_add_ps(sum, _mm256_i32gather_ps(c.leaf_f32.data() + base[t], idx, 4));
    }
    if (c.integer_leaves) {
      const __m256 deq = _mm256_div_ps(_mm256_cvtepi32_ps(isum), _mm256_set1_ps(c.leaf_scale));
      sum = _mm256_add_ps(_mm256_set1_ps(c.base), deq);
    }
    _mm256_storeu_ps(out + r0, sum);
  }
}

}  // namespace irithyll::packed::detail

#else

namespace irithyll::packed::detail {
void predict_keys_avx2(const Compiled& c, const std::int32_t* keys, std::size_t n, float* out) {
  predict_keys_portable(c, keys, n, out);
}
}  // namespace irithyll::packed::detail

#endif
