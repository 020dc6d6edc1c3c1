#include "nn/reservoir/reservoir_kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define IRITHYLL_RESERVOIR_X86 1
#endif

#include "core/cpu_features.hpp"

namespace irithyll::nn {

namespace {

// pre = rolled cycle term + bias + W_in u; shared by both paths so that they
// differ only in how tanh and the leak are evaluated.
void cycle_preactivation(std::size_t n, std::size_t d, const double* w_cyc, const double* w_in,
                         const double* bias, const double* u, const double* state, double* pre) noexcept {
  pre[0] = w_cyc[n - 1] * state[n - 1] + bias[0];
  for (std::size_t i = 1; i < n; ++i) pre[i] = w_cyc[i - 1] * state[i - 1] + bias[i];
  for (std::size_t j = 0; j < d; ++j) {
    const double uj = u[j];
    const double* col = w_in + j * n;
    for (std::size_t i = 0; i < n; ++i) pre[i] += uj * col[i];
  }
}

#ifdef IRITHYLL_RESERVOIR_X86
// tanh for 4 lanes: sign(x) * (1 - 2 / (e^{2|x|} + 1)). |x| is clamped at 20,
// where tanh is 1 to double precision. e^t uses t = k ln2 + r, |r| <= ln2/2,
// and a degree-12 Taylor polynomial (truncation < 2e-16 relative).
__attribute__((target("avx2,fma"))) inline __m256d tanh4(__m256d x) {
  const __m256d sign_mask = _mm256_set1_pd(-0.0);
  const __m256d sign = _mm256_and_pd(x, sign_mask);
  __m256d ax = _mm256_andnot_pd(sign_mask, x);
  ax = _mm256_min_pd(ax, _mm256_set1_pd(20.0));
  const __m256d t = _mm256_add_pd(ax, ax);
  const __m256d k = _mm256_round_pd(_mm256_mul_pd(t, _mm256_set1_pd(1.4426950408889634)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(6.93147180369123816490e-01), t);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(1.90821492927058770002e-10), r);
  __m256d p = _mm256_set1_pd(1.0 / 479001600.0);
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 39916800.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 3628800.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 362880.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 40320.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 5040.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 720.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 120.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 24.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 6.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(0.5));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  // 2^k by building the exponent field; k is in [0, 58] here.
  const __m128i k32 = _mm256_cvtpd_epi32(k);
  const __m256i k64 = _mm256_cvtepi32_epi64(k32);
  const __m256i bits = _mm256_slli_epi64(_mm256_add_epi64(k64, _mm256_set1_epi64x(1023)), 52);
  const __m256d e = _mm256_mul_pd(p, _mm256_castsi256_pd(bits));
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d th = _mm256_sub_pd(one, _mm256_div_pd(_mm256_set1_pd(2.0), _mm256_add_pd(e, one)));
  return _mm256_or_pd(th, sign);
}

__attribute__((target("avx2,fma"))) void tanh_avx2(const double* x, double* y, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, tanh4(_mm256_loadu_pd(x + i)));
  if (i < n) {
    double in[4] = {0, 0, 0, 0}, out[4];
    std::memcpy(in, x + i, (n - i) * sizeof(double));
    _mm256_storeu_pd(out, tanh4(_mm256_loadu_pd(in)));
    std::memcpy(y + i, out, (n - i) * sizeof(double));
  }
}

__attribute__((target("avx2,fma"))) void cycle_step_avx2(std::size_t n, std::size_t d, const double* w_cyc,
                                                         const double* w_in, const double* bias, const double* u,
                                                         double leak, double* state, double* pre) noexcept {
  pre[0] = w_cyc[n - 1] * state[n - 1] + bias[0];
  std::size_t i = 1;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(pre + i, _mm256_fmadd_pd(_mm256_loadu_pd(w_cyc + i - 1), _mm256_loadu_pd(state + i - 1),
                                              _mm256_loadu_pd(bias + i)));
  for (; i < n; ++i) pre[i] = w_cyc[i - 1] * state[i - 1] + bias[i];
  for (std::size_t j = 0; j < d; ++j) {
    const __m256d uj = _mm256_set1_pd(u[j]);
    const double* col = w_in + j * n;
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4)
      _mm256_storeu_pd(pre + k, _mm256_fmadd_pd(uj, _mm256_loadu_pd(col + k), _mm256_loadu_pd(pre + k)));
    for (; k < n; ++k) pre[k] += u[j] * col[k];
  }
  const __m256d lv = _mm256_set1_pd(leak);
  const __m256d keep = _mm256_set1_pd(1.0 - leak);
  i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d th = tanh4(_mm256_loadu_pd(pre + i));
    _mm256_storeu_pd(state + i, _mm256_fmadd_pd(keep, _mm256_loadu_pd(state + i), _mm256_mul_pd(lv, th)));
  }
  if (i < n) {
    tanh_avx2(pre + i, pre + i, n - i);
    for (; i < n; ++i) state[i] = (1.0 - leak) * state[i] + leak * pre[i];
  }
}

#endif

}  // namespace

void tanh_ref(const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::tanh(x[i]);
}

void tanh_fast(const double* x, double* y, std::size_t n) noexcept {
#ifdef IRITHYLL_RESERVOIR_X86
  if (cpu_has_avx2_fma()) return tanh_avx2(x, y, n);
#endif
  tanh_ref(x, y, n);
}

void cycle_step_ref(std::size_t n, std::size_t d, const double* w_cyc, const double* w_in, const double* bias,
                    const double* u, double leak, double* state, double* scratch) noexcept {
  cycle_preactivation(n, d, w_cyc, w_in, bias, u, state, scratch);
  for (std::size_t i = 0; i < n; ++i) state[i] = (1.0 - leak) * state[i] + leak * std::tanh(scratch[i]);
}

void cycle_step(std::size_t n, std::size_t d, const double* w_cyc, const double* w_in, const double* bias,
                const double* u, double leak, double* state, double* scratch) noexcept {
#ifdef IRITHYLL_RESERVOIR_X86
  if (cpu_has_avx2_fma()) return cycle_step_avx2(n, d, w_cyc, w_in, bias, u, leak, state, scratch);
#endif
  cycle_step_ref(n, d, w_cyc, w_in, bias, u, leak, state, scratch);
}

}  // namespace irithyll::nn
