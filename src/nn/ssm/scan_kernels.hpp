// Internal kernels of the selective scan (Mamba-1 inner loop): for each channel d
// and state n,
//   h[d*N+n] = alpha[n] h[d*N+n] + bb[n] x[d],    y[d] = sum_n c[n] h[d*N+n] + skip[d] x[d]
// where alpha = e^{Delta A} and bb = ((e^{Delta A}-1)/A) B are shared by every
// channel (Delta is a scalar), so the step costs N exps, not d_in*N. The `peek`
// form returns y without storing h (read-only predict). `_ref` defines the
// semantics; the dispatched form uses AVX2+FMA when the CPU has it and agrees
// to a few ulps (tolerance in tests/nn_ssm/scan_kernels_test.cpp).
#pragma once

#include <cstddef>

namespace irithyll::nn::detail {

void scan_update_ref(double* h, const double* alpha, const double* bb, const double* c, const double* x,
                     const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept;
void scan_peek_ref(const double* h, const double* alpha, const double* bb, const double* c, const double* x,
                   const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept;

void scan_update(double* h, const double* alpha, const double* bb, const double* c, const double* x,
                 const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept;
void scan_peek(const double* h, const double* alpha, const double* bb, const double* c, const double* x,
               const double* skip, double* y, std::size_t d_in, std::size_t n) noexcept;

// "avx2" or "scalar".
const char* scan_backend() noexcept;

}  // namespace irithyll::nn::detail
