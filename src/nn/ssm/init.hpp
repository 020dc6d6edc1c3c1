// Initialisers for the diagonal state matrix A of an SSM, stored as
// log-magnitudes so that A = -exp(log_a) is negative (stable) by construction.
//
//   mamba_init     log_a[n] = ln(n + 1)                (Gu & Dao 2023, "S4D-Real")
//   s4d_lin_real   log_a[n] = ln(1/2)                  (Gu et al. 2022, S4D-Lin real part)
//   s4d_inv_real   log_a[n] = ln(1/2 + n/N)            (increasing decay rates)
//   s4d_lin_complex   a_n = -1/2 + i pi n              (S4D-Lin)
//   s4d_inv_complex   a_n = -1/2 + i (N/pi)(N/(2n+1) - 1)   (S4D-Inv, Gu et al. 2022 eq. 9)
//
// Complex initialisers write interleaved pairs [log(-Re a), Im a] per state.
// The Rust library's S4D-Inv complex formula was never pinned down; this one is the
// paper's. O(N), allocation-free (caller buffers), thread-safe.
#pragma once

#include <cstddef>
#include <span>

namespace irithyll::nn {

void mamba_init(std::span<double> log_a) noexcept;
void s4d_lin_real(std::span<double> log_a) noexcept;
void s4d_inv_real(std::span<double> log_a) noexcept;
// REQUIRES: out.size() is even (N = out.size() / 2 complex states).
void s4d_lin_complex(std::span<double> out) noexcept;
void s4d_inv_complex(std::span<double> out) noexcept;

}  // namespace irithyll::nn
