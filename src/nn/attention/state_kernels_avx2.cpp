// The AVX2+FMA forms of the fused state kernels (state_kernels.hpp): the
// same sweeps as the AVX-512 ones, on 4-wide registers. A group is up to four
// 4-wide column chunks (16 columns: one group per head at d_value 16); its
// readout accumulators and its slices of v and u stay in registers while the
// sweep runs down the d_key rows, so each state element is loaded and stored
// once per pass. The per-row sums are split over two accumulator sets (even
// and odd rows): with four chunks that is eight independent FMA chains, enough
// to cover the FMA latency at d_key = 16.
//
// Like the AVX-512 forms they fold a scalar gate into the delta rule's S^T kh
// and contract with FMA, so they agree with the `_ref` loops to rounding.
#include "nn/attention/state_kernels_avx2.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstdint>

namespace irithyll::nn::attn::detail {
namespace {

#define IRITHYLL_AVX2 __attribute__((target("avx2,fma")))

// Lanes [0, n) of a 4-wide chunk, as the sign-bit mask maskload/maskstore take.
IRITHYLL_AVX2 inline __m256i lanes(std::size_t n) noexcept {
  const __m256i idx = _mm256_setr_epi64x(0, 1, 2, 3);
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(n)), idx);
}

// NC chunks from column c0; only the last chunk of the last group may be
// partial (kTail), so d_value % 4 == 0 runs without masks.
template <int NC, bool kTail>
struct Group {
  std::size_t c0;
  __m256i tail;
  IRITHYLL_AVX2 Group(std::size_t c, std::size_t dv) noexcept
      : c0(c), tail(lanes(kTail ? std::min<std::size_t>(4, dv - (c + 4 * (NC - 1))) : 4)) {}
  IRITHYLL_AVX2 __m256d load(const double* row, int j) const noexcept {
    const double* p = row + c0 + 4 * static_cast<std::size_t>(j);
    return kTail && j == NC - 1 ? _mm256_maskload_pd(p, tail) : _mm256_loadu_pd(p);
  }
  IRITHYLL_AVX2 void store(double* row, int j, __m256d x) const noexcept {
    double* p = row + c0 + 4 * static_cast<std::size_t>(j);
    if (kTail && j == NC - 1) {
      _mm256_maskstore_pd(p, tail, x);
    } else {
      _mm256_storeu_pd(p, x);
    }
  }
};

template <class Kernel>
IRITHYLL_AVX2 inline void sweep(const Kernel& k, std::size_t dv) noexcept {
  std::size_t c = 0;
  for (; c + 16 <= dv; c += 16) k.run(Group<4, false>(c, dv));
  const std::size_t rest = dv - c;
  const bool tail = rest % 4 != 0;
  switch ((rest + 3) / 4) {
    case 1: tail ? k.run(Group<1, true>(c, dv)) : k.run(Group<1, false>(c, dv)); break;
    case 2: tail ? k.run(Group<2, true>(c, dv)) : k.run(Group<2, false>(c, dv)); break;
    case 3: tail ? k.run(Group<3, true>(c, dv)) : k.run(Group<3, false>(c, dv)); break;
    case 4: k.run(Group<4, true>(c, dv)); break;  // a full group would have been swept above
    default: break;
  }
}

// acc[j] = sum_i x_i (y_i) S[i, chunk j]; y may be null.
template <int NC, bool T>
IRITHYLL_AVX2 inline void row_sums(const Group<NC, T>& g, const double* s, const double* x, const double* y,
                                   std::size_t dk, std::size_t dv, __m256d* acc) noexcept {
  __m256d even[NC], odd[NC];
  for (int j = 0; j < NC; ++j) even[j] = odd[j] = _mm256_setzero_pd();
  auto coef = [x, y](std::size_t i) { return y == nullptr ? x[i] : x[i] * y[i]; };
  std::size_t i = 0;
  for (; i + 2 <= dk; i += 2) {
    const __m256d c0 = _mm256_set1_pd(coef(i)), c1 = _mm256_set1_pd(coef(i + 1));
    for (int j = 0; j < NC; ++j) {
      even[j] = _mm256_fmadd_pd(c0, g.load(s + i * dv, j), even[j]);
      odd[j] = _mm256_fmadd_pd(c1, g.load(s + (i + 1) * dv, j), odd[j]);
    }
  }
  if (i < dk) {
    const __m256d c0 = _mm256_set1_pd(coef(i));
    for (int j = 0; j < NC; ++j) even[j] = _mm256_fmadd_pd(c0, g.load(s + i * dv, j), even[j]);
  }
  for (int j = 0; j < NC; ++j) acc[j] = _mm256_add_pd(even[j], odd[j]);
}

// S[i,:] <- a_i S[i,:] + k_i X - r_i Y (removal only if R), X / Y in registers.
template <int NC, bool R>
struct WriteTerms {
  const double* a;
  std::size_t a_stride;
  const double* k;
  const double* r;
  __m256d x[NC], y[NC];
};

template <int NC, bool R, bool T>
IRITHYLL_AVX2 inline __m256d new_row(const WriteTerms<NC, R>& t, const Group<NC, T>& g, double* row, std::size_t i,
                                     int j) noexcept {
  __m256d write = _mm256_mul_pd(_mm256_set1_pd(t.k[i]), t.x[j]);
  if constexpr (R) write = _mm256_fnmadd_pd(_mm256_set1_pd(t.r[i]), t.y[j], write);
  const __m256d next = _mm256_fmadd_pd(_mm256_set1_pd(t.a[i * t.a_stride]), g.load(row, j), write);
  g.store(row, j, next);
  return next;
}

template <int NC, bool R, bool T>
IRITHYLL_AVX2 inline void write_rows(const WriteTerms<NC, R>& t, const Group<NC, T>& g, double* s, const double* q,
                                     double* o, std::size_t dk, std::size_t dv) noexcept {
  if (q == nullptr) {
    for (std::size_t i = 0; i < dk; ++i)
      for (int j = 0; j < NC; ++j) new_row(t, g, s + i * dv, i, j);
    return;
  }
  __m256d even[NC], odd[NC];
  for (int j = 0; j < NC; ++j) even[j] = odd[j] = _mm256_setzero_pd();
  std::size_t i = 0;
  for (; i + 2 <= dk; i += 2) {
    const __m256d q0 = _mm256_set1_pd(q[i]), q1 = _mm256_set1_pd(q[i + 1]);
    for (int j = 0; j < NC; ++j) {
      even[j] = _mm256_fmadd_pd(q0, new_row(t, g, s + i * dv, i, j), even[j]);
      odd[j] = _mm256_fmadd_pd(q1, new_row(t, g, s + (i + 1) * dv, i + 1, j), odd[j]);
    }
  }
  if (i < dk) {
    const __m256d q0 = _mm256_set1_pd(q[i]);
    for (int j = 0; j < NC; ++j) even[j] = _mm256_fmadd_pd(q0, new_row(t, g, s + i * dv, i, j), even[j]);
  }
  for (int j = 0; j < NC; ++j) g.store(o, j, _mm256_add_pd(even[j], odd[j]));
}

struct ReadKernel {
  const double* s;
  const double* q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX2 void run(const Group<NC, T>& g) const noexcept {
    __m256d acc[NC];
    row_sums(g, s, q, nullptr, dk, dv, acc);
    for (int j = 0; j < NC; ++j) g.store(o, j, acc[j]);
  }
};

struct DecayWriteKernel {
  double* s;
  const double* a;
  std::size_t a_stride;
  const double *k, *v, *q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX2 void run(const Group<NC, T>& g) const noexcept {
    WriteTerms<NC, false> t{a, a_stride, k, nullptr, {}, {}};
    for (int j = 0; j < NC; ++j) t.x[j] = g.load(v, j);
    write_rows(t, g, s, q, o, dk, dv);
  }
};

// (g S)^T kh = g (S^T kh) on the old state.
struct DeltaKernel {
  double* s;
  double gate;
  const double *kh, *v;
  double beta;
  const double* q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX2 void run(const Group<NC, T>& g) const noexcept {
    WriteTerms<NC, false> t{&gate, 0, kh, nullptr, {}, {}};
    row_sums(g, s, kh, nullptr, dk, dv, t.x);
    const __m256d gv = _mm256_set1_pd(gate), bv = _mm256_set1_pd(beta);
    for (int j = 0; j < NC; ++j) t.x[j] = _mm256_mul_pd(bv, _mm256_fnmadd_pd(gv, t.x[j], g.load(v, j)));
    write_rows(t, g, s, q, o, dk, dv);
  }
};

// u = (diag(w) S)^T kh on the old state.
struct Rwkv7Kernel {
  double* s;
  const double *w, *kh, *kt, *r, *v, *q;
  double* o;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX2 void run(const Group<NC, T>& g) const noexcept {
    WriteTerms<NC, true> t{w, 1, kt, r, {}, {}};
    row_sums(g, s, kh, w, dk, dv, t.y);
    for (int j = 0; j < NC; ++j) t.x[j] = g.load(v, j);
    write_rows(t, g, s, q, o, dk, dv);
  }
};

// The level stacks of the log-linear modes (level_kernels.hpp). One group of
// columns at a time, every active level in turn: a level's readout is
// accumulated in registers and added to the group's output with its weight.
inline std::uint64_t level_bits(std::uint64_t mask, std::uint32_t n_levels) noexcept {
  return n_levels >= 64 ? mask : mask & ((std::uint64_t{1} << n_levels) - 1);
}

struct LevelsReadKernel {
  const double* levels;
  std::uint64_t mask;
  std::uint32_t n_levels;
  const double *lambda, *q;
  double* out;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX2 void run(const Group<NC, T>& g) const noexcept {
    __m256d o[NC];
    for (int j = 0; j < NC; ++j) o[j] = _mm256_setzero_pd();
    for (std::uint64_t m = level_bits(mask, n_levels); m != 0; m &= m - 1) {
      const auto l = static_cast<std::size_t>(std::countr_zero(m));
      if (lambda[l] == 0.0) continue;
      __m256d acc[NC];
      row_sums(g, levels + l * dk * dv, q, nullptr, dk, dv, acc);
      const __m256d w = _mm256_set1_pd(lambda[l]);
      for (int j = 0; j < NC; ++j) o[j] = _mm256_fmadd_pd(w, acc[j], o[j]);
    }
    for (int j = 0; j < NC; ++j) g.store(out, j, o[j]);
  }
};

// One level of the paper's step on one group: row i becomes
//   alpha S[i,:] + (write kh_i) v - (alpha erase kh_i) u   (write only if W, removal only if R),
// and acc = S_new^T q over the group.
template <bool W, bool R, int NC, bool T>
struct PaperLevel {
  const Group<NC, T>& g;
  double* s;
  __m256d a;
  double write, removal;
  const double* kh;
  const __m256d* v;
  const __m256d* u;
  std::size_t dv;
  IRITHYLL_AVX2 __m256d next(std::size_t i, int j) const noexcept {
    double* row = s + i * dv;
    __m256d x = _mm256_mul_pd(a, g.load(row, j));
    if constexpr (W) x = _mm256_fmadd_pd(_mm256_set1_pd(write * kh[i]), v[j], x);
    if constexpr (R) x = _mm256_fnmadd_pd(_mm256_set1_pd(removal * kh[i]), u[j], x);
    g.store(row, j, x);
    return x;
  }
  IRITHYLL_AVX2 void rows(const double* q, std::size_t dk, __m256d* acc) const noexcept {
    __m256d even[NC], odd[NC];
    for (int j = 0; j < NC; ++j) even[j] = odd[j] = _mm256_setzero_pd();
    std::size_t i = 0;
    for (; i + 2 <= dk; i += 2) {
      const __m256d q0 = _mm256_set1_pd(q[i]), q1 = _mm256_set1_pd(q[i + 1]);
      for (int j = 0; j < NC; ++j) {
        even[j] = _mm256_fmadd_pd(q0, next(i, j), even[j]);
        odd[j] = _mm256_fmadd_pd(q1, next(i + 1, j), odd[j]);
      }
    }
    if (i < dk) {
      const __m256d q0 = _mm256_set1_pd(q[i]);
      for (int j = 0; j < NC; ++j) even[j] = _mm256_fmadd_pd(q0, next(i, j), even[j]);
    }
    for (int j = 0; j < NC; ++j) acc[j] = _mm256_add_pd(even[j], odd[j]);
  }
};

struct PaperStepKernel {
  double* levels;
  std::uint64_t mask;
  std::uint32_t n_levels;
  double alpha, erase;
  const double* kh;
  double write;
  const double *v, *lambda, *q;
  double* out;
  std::size_t dk, dv;
  template <int NC, bool T>
  IRITHYLL_AVX2 void run(const Group<NC, T>& g) const noexcept {
    __m256d o[NC], vv[NC], u[NC];
    for (int j = 0; j < NC; ++j) {
      o[j] = u[j] = _mm256_setzero_pd();
      vv[j] = g.load(v, j);
    }
    const double removal = alpha * erase;
    for (std::uint64_t m = level_bits(mask, n_levels); m != 0; m &= m - 1) {
      const auto l = static_cast<std::size_t>(std::countr_zero(m));
      double* s = levels + l * dk * dv;
      __m256d acc[NC];
      const __m256d a = _mm256_set1_pd(alpha);
      if (erase != 0.0) {
        row_sums(g, s, kh, nullptr, dk, dv, u);  // S^T kh before the transition
        if (l == 0) {
          PaperLevel<true, true, NC, T>{g, s, a, write, removal, kh, vv, u, dv}.rows(q, dk, acc);
        } else {
          PaperLevel<false, true, NC, T>{g, s, a, write, removal, kh, vv, u, dv}.rows(q, dk, acc);
        }
      } else if (l == 0) {
        PaperLevel<true, false, NC, T>{g, s, a, write, removal, kh, vv, u, dv}.rows(q, dk, acc);
      } else {
        PaperLevel<false, false, NC, T>{g, s, a, write, removal, kh, vv, u, dv}.rows(q, dk, acc);
      }
      if (lambda[l] == 0.0) continue;  // as the reference read: a zero weight skips the level
      const __m256d w = _mm256_set1_pd(lambda[l]);
      for (int j = 0; j < NC; ++j) o[j] = _mm256_fmadd_pd(w, acc[j], o[j]);
    }
    for (int j = 0; j < NC; ++j) g.store(out, j, o[j]);
  }
};

}  // namespace

IRITHYLL_AVX2 void levels_read_avx2(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                    std::size_t dv, const double* lambda, const double* q, double* out) noexcept {
  sweep(LevelsReadKernel{levels, mask, n_levels, lambda, q, out, dk, dv}, dv);
}

IRITHYLL_AVX2 void paper_step_avx2(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                   std::size_t dv, double alpha, double erase, const double* kh, double write,
                                   const double* v, const double* lambda, const double* q, double* out) noexcept {
  sweep(PaperStepKernel{levels, mask, n_levels, alpha, erase, kh, write, v, lambda, q, out, dk, dv}, dv);
}

IRITHYLL_AVX2 void read_avx2(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  sweep(ReadKernel{s, q, o, dk, dv}, dv);
}

IRITHYLL_AVX2 void decay_write_read_avx2(double* s, const double* a, std::size_t a_stride, const double* k,
                                         const double* v, const double* q, double* o, std::size_t dk,
                                         std::size_t dv) noexcept {
  sweep(DecayWriteKernel{s, a, a_stride, k, v, q, o, dk, dv}, dv);
}

IRITHYLL_AVX2 void delta_write_read_avx2(double* s, double g, const double* kh, const double* v, double beta,
                                         const double* q, double* o, std::size_t dk, std::size_t dv) noexcept {
  sweep(DeltaKernel{s, g, kh, v, beta, q, o, dk, dv}, dv);
}

IRITHYLL_AVX2 void rwkv7_write_read_avx2(double* s, const double* w, const double* kh, const double* kt,
                                         const double* r, const double* v, const double* q, double* o,
                                         std::size_t dk, std::size_t dv) noexcept {
  sweep(Rwkv7Kernel{s, w, kh, kt, r, v, q, o, dk, dv}, dv);
}

}  // namespace irithyll::nn::attn::detail

#endif
