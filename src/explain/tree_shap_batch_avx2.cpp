// explain_batch with the group tables (tree_shap_groups.cpp) over four rows
// at once, one row per AVX2 lane. The block of rows is stored feature-major,
// so a split reads its feature for four rows with one load and routes them
// with one compare; the four keys live in one register and the four rows'
// sums in registers. Each lane adds the same table rows in the same order as
// group_shap does for its row and takes the leaf value from the same group,
// so the results are bit-identical to explain_one. Numeric splits only
// (x > threshold, NaN left): a model with category splits, sparse rows or a
// CPU without AVX2 takes the one-row loop.
//
// Work per tree and row: a quarter of the routing (one compare per split for
// four rows), the row adds unchanged; no gathers (they are slow on the Zen
// cores we run on).
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/cpu_features.hpp"
#include "irithyll/explain/tree_shap.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace irithyll {

#if defined(__x86_64__) && !defined(__clang_analyzer__)

struct TreeShapLanes {
  using TopNode = TreeExplainer::TopNode;
  using Group = TreeExplainer::Group;

  // One tree over four rows: xt holds feature f of the four rows at
  // xt + f * xs; key is scratch of four keys per node; row l's
  // contributions go to phi + l * nf and its leaf value to raw[l], for the
  // first `lanes` rows. V: 4-double vectors per table row (dense_stride_ / 4).
  template <std::size_t V>
  __attribute__((target("avx2"))) static void tree(const TopNode* top, const TopNode* top_end, const Group* g,
                                                   const Group* g_end, std::uint32_t root, const double* xt,
                                                   std::size_t xs, const double* table, const double* values,
                                                   std::uint64_t* key, double* phi, double* raw, std::size_t nf,
                                                   std::size_t lanes) {
    const __m256i one = _mm256_set1_epi64x(1);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(key + 4 * std::size_t{root}), _mm256_setzero_si256());
    for (; top != top_end; ++top) {
      const __m256d x = _mm256_loadu_pd(xt + static_cast<std::size_t>(top->split.feature) * xs);
      const __m256d gt = _mm256_cmp_pd(x, _mm256_set1_pd(top->split.threshold), _CMP_GT_OQ);
      const __m256i right = _mm256_srli_epi64(_mm256_castpd_si256(gt), 63);
      const __m256i up = _mm256_slli_epi64(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key + 4 * std::size_t{top->self})), 1);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(key + 4 * std::size_t{top->left}),
                          _mm256_or_si256(up, _mm256_xor_si256(right, one)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(key + 4 * std::size_t{top->right}), _mm256_or_si256(up, right));
    }
    __m256d acc[4][V];
    for (std::size_t l = 0; l < 4; ++l)
      for (std::size_t v = 0; v < V; ++v) acc[l][v] = _mm256_setzero_pd();
    alignas(32) std::uint64_t index[4];
    // Per lane, where in values its leaf value is: from the one group whose
    // key is at least its reach (keys are below 2^kGroupMaxBits, so the
    // signed compare is exact).
    __m256i hit = _mm256_setzero_si256();
    for (; g != g_end; ++g) {
      __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key + 4 * std::size_t{g->root}));
      for (std::uint32_t j = 0; j < g->n_inner; ++j) {
        const __m256d x = _mm256_loadu_pd(xt + static_cast<std::size_t>(g->inner[j].feature) * xs);
        const __m256d gt = _mm256_cmp_pd(x, _mm256_set1_pd(g->inner[j].threshold), _CMP_GT_OQ);
        k = _mm256_or_si256(_mm256_slli_epi64(k, 1), _mm256_srli_epi64(_mm256_castpd_si256(gt), 63));
      }
      _mm256_store_si256(reinterpret_cast<__m256i*>(index), k);
      const __m256i reached = _mm256_cmpgt_epi64(k, _mm256_set1_epi64x(static_cast<long long>(g->reach) - 1));
      const __m256i at = _mm256_add_epi64(k, _mm256_set1_epi64x(static_cast<long long>(g->value) - g->reach));
      hit = _mm256_blendv_epi8(hit, at, reached);
      const double* base = table + g->table;
      for (std::size_t l = 0; l < 4; ++l) {
        const double* row = base + index[l] * (4 * V);
        for (std::size_t v = 0; v < V; ++v) acc[l][v] = _mm256_add_pd(acc[l][v], _mm256_loadu_pd(row + 4 * v));
      }
    }
    alignas(32) double sum[4 * V];
    _mm256_store_si256(reinterpret_cast<__m256i*>(index), hit);
    for (std::size_t l = 0; l < lanes; ++l) {
      for (std::size_t v = 0; v < V; ++v) _mm256_store_pd(sum + 4 * v, acc[l][v]);
      for (std::size_t f = 0; f < nf; ++f) phi[l * nf + f] += sum[f];
      raw[l] += values[index[l]];
    }
  }

  template <std::size_t V>
  static void block(const TreeExplainer& e, std::size_t k, std::size_t m, double* phi, double* raw) {
    const std::size_t nf = e.n_features_, xs = TreeExplainer::kBatchBlock;
    for (std::size_t t = 0; t < e.roots_[k].size(); ++t) {
      const TopNode* top = e.top_.data() + e.top_begin_[k][t];
      const TopNode* top_end = e.top_.data() + e.top_begin_[k][t + 1];
      const Group* g = e.groups_.data() + e.group_begin_[k][t];
      const Group* g_end = e.groups_.data() + e.group_begin_[k][t + 1];
      for (std::size_t r = 0; r < m; r += 4)
        tree<V>(top, top_end, g, g_end, e.roots_[k][t], e.block_xt_.data() + r, xs, e.group_data(),
                e.group_value_.data(), e.lane_key_.data(), phi + r * nf, raw + r, nf, std::min<std::size_t>(4, m - r));
    }
  }
};

bool TreeExplainer::batch_lanes(const double* rows, std::size_t n_rows, std::size_t output, double* phi,
                                double* raw) const {
  if (!groups_built_ || !dense_ || categorical_ || dense_stride_ % 4 != 0 || dense_stride_ > 16 || !cpu_has_avx2())
    return false;
  const std::size_t nf = n_features_;
  block_xt_.resize(nf * kBatchBlock);
  lane_key_.resize(4 * nodes_.size());
  for (std::size_t first = 0; first < n_rows; first += kBatchBlock) {
    const std::size_t m = std::min(kBatchBlock, n_rows - first);
    // Feature-major copy, cleaned as clean() does; lanes past the last row
    // read 0 (routed like any number, never written back).
    std::fill(block_xt_.begin(), block_xt_.end(), 0.0);
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t f = 0; f < nf; ++f) {
        const double v = rows[(first + r) * nf + f];
        block_xt_[f * kBatchBlock + r] =
            !nonfinite_is_missing_ || std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN();
      }
    double* p = phi + first * nf;
    double* w = raw + first;
    std::fill(p, p + m * nf, 0.0);
    std::fill(w, w + m, bias_[output]);
    switch (dense_stride_ / 4) {
      case 1: TreeShapLanes::block<1>(*this, output, m, p, w); break;
      case 2: TreeShapLanes::block<2>(*this, output, m, p, w); break;
      case 3: TreeShapLanes::block<3>(*this, output, m, p, w); break;
      default: TreeShapLanes::block<4>(*this, output, m, p, w); break;
    }
  }
  return true;
}

#else

bool TreeExplainer::batch_lanes(const double*, std::size_t, std::size_t, double*, double*) const { return false; }

#endif

}  // namespace irithyll
