// ComplexDiagonalSsm: a diagonal SSM with N complex states whose step size,
// input and output projections are supplied per step (the selective part is
// left to the caller), scalar in, scalar out:
//
//   a_n = -exp(log_re_n) + i im_n                (Re a_n < 0: stable)
//   Tustin:           h_n <- abar_n h_n + bbar_n (B_n x)
//                     abar, bbar from the complex bilinear map (bilinear_complex)
//   ExpTrapezoidal:   h_n <- alpha_n h_n + beta_n (B_n x)_{t-1} + gamma (B_n x)_t
//                     alpha = e^{Delta a}, beta = (1 - lambda) Delta alpha,
//                     gamma = lambda Delta  (Mamba-3, Lahoti et al. 2026, sec. 3.1)
//   output:           y = sum_n (C_re,n Re h_n + C_im,n Im h_n)
//
// lambda = 1 is exponential Euler (Mamba-2), lambda = 1/2 the trapezoid; the
// Tustin form ignores lambda. The exp-trapezoidal form keeps the previous
// step's input term (B x)_{t-1}; reset() clears it with the state.
//
// log_a is interleaved [log(-Re a_0), Im a_0, log(-Re a_1), Im a_1, ...];
// make(N, method) uses s4d_inv_complex. The state is interleaved the same way
// (length 2N: Re h_0, Im h_0, ...).
//
// Bad step arguments (wrong span lengths, non-finite values, Delta < 0,
// lambda outside [0, 1]) leave the state untouched and return NaN.
// Cost per step: N complex exponentials (or N complex divisions for Tustin)
// plus O(N) multiply-adds; no allocation after construction. Thread safety:
// one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::nn {

enum class ComplexDiscretization : std::uint8_t { kTustin = 0, kExpTrapezoidal = 1 };

class ComplexDiagonalSsm {
 public:
  ComplexDiagonalSsm() = default;
  // REQUIRES (checked): 1 <= n_state <= 65536.
  static Result<ComplexDiagonalSsm> make(std::size_t n_state, ComplexDiscretization method);
  // REQUIRES (checked): log_a non-empty, of even length, all finite.
  static Result<ComplexDiagonalSsm> make_with_init(std::span<const double> log_a, ComplexDiscretization method);

  // Real B and C (b.size() == c.size() == n_state()): returns sum_n c_n Re h_n.
  double step(double delta, std::span<const double> b, std::span<const double> c, double x, double lambda) noexcept;
  // Complex B and C: B_n = b_re_n + i b_im_n; returns sum_n (c_re Re h + c_im Im h).
  double step_complex(double delta, std::span<const double> b_re, std::span<const double> b_im,
                      std::span<const double> c_re, std::span<const double> c_im, double x, double lambda) noexcept;

  // Zeroes the state and the remembered input term.
  void reset() noexcept;
  // |h_n|, n = 0..N-1. REQUIRES: out.size() == n_state().
  void state_energies(std::span<double> out) const noexcept;
  std::vector<double> state_energies() const;

  std::size_t n_state() const noexcept { return log_a_.size() / 2; }
  ComplexDiscretization method() const noexcept { return method_; }
  std::span<const double> state() const noexcept { return h_; }
  std::span<const double> log_a() const noexcept { return log_a_; }

 private:
  // b_im / c_im empty means zero imaginary parts.
  double advance(double delta, std::span<const double> b_re, std::span<const double> b_im,
                 std::span<const double> c_re, std::span<const double> c_im, double x, double lambda) noexcept;

  ComplexDiscretization method_ = ComplexDiscretization::kTustin;
  std::vector<double> log_a_;    // 2N, interleaved [log(-Re a), Im a]
  std::vector<double> h_;        // 2N, interleaved (Re, Im)
  std::vector<double> prev_bx_;  // 2N, (B x) of the previous step (exp-trapezoidal only)
};

}  // namespace irithyll::nn
