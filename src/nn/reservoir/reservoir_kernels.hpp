// Reservoir kernels: the fused cycle-reservoir state update and a vectorised
// hyperbolic tangent it relies on.
//
// cycle_step computes, for a ring of n leaky-tanh neurons driven by d inputs,
//
//   pre_i = w_cyc[i-1] * s[i-1] + b_i + sum_j w_in[j*n + i] * u_j   (i-1 mod n)
//   s_i  <- (1 - leak) * s_i + leak * tanh(pre_i)
//
// (Rodan & Tino 2011, "Minimum complexity echo state network", simple cycle
// reservoir). The input matrix is stored input-major (column j of W_in is
// contiguous) so that every term is a unit-stride axpy over the neurons.
//
// `_ref` versions define the semantics with std::tanh; the dispatched entry
// points use AVX2+FMA when the CPU has it. tanh_fast agrees with std::tanh to
// kTanhAbsTolerance absolute (tanh is evaluated as 1 - 2/(e^{2|x|}+1) with a
// degree-12 polynomial exp), so a step agrees with the reference to a few
// times that. Cost O(n*d) per step; no allocation (scratch has n doubles);
// thread-safe (pure functions).
#pragma once

#include <cstddef>

namespace irithyll::nn {

inline constexpr double kTanhAbsTolerance = 4e-16 * 8;

void tanh_ref(const double* x, double* y, std::size_t n) noexcept;
void tanh_fast(const double* x, double* y, std::size_t n) noexcept;

// REQUIRES: n >= 1; scratch has n doubles and aliases nothing else.
void cycle_step_ref(std::size_t n, std::size_t d, const double* w_cyc, const double* w_in, const double* bias,
                    const double* u, double leak, double* state, double* scratch) noexcept;
void cycle_step(std::size_t n, std::size_t d, const double* w_cyc, const double* w_in, const double* bias,
                const double* u, double leak, double* state, double* scratch) noexcept;

}  // namespace irithyll::nn
