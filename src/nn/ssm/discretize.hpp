// Discretisation of the continuous state-space recurrence h' = a h + b x for a
// step size Delta (S4, Gu et al. 2022; Mamba, Gu & Dao 2023; Mamba-3, Lahoti
// et al. 2026, sec. 3.1). All functions are pure, O(1), allocation-free and
// thread-safe.
//
//   ZOH:        abar = e^{Delta a},  bbar = (e^{Delta a} - 1) / a   (-> Delta as a -> 0)
//   bilinear:   abar = (1 + Delta a/2)/(1 - Delta a/2),  bbar = Delta/(1 - Delta a/2)
//   complex Tustin: the bilinear map with complex a (reduces to it when Im a = 0)
//   exp-trapezoidal (Mamba-3): alpha = e^{Delta a},  beta = (1 - lambda) Delta alpha,
//               gamma = lambda Delta, used in the three-term recurrence
//               h_t = alpha h_{t-1} + beta (B x)_{t-1} + gamma (B x)_t.
//               lambda = 1 is exponential Euler (Mamba-2), lambda = 1/2 the trapezoid.
#pragma once

namespace irithyll::nn {

struct DiscreteReal {
  double a_bar = 0.0;
  double b_bar = 0.0;
};

struct DiscreteComplex {
  double a_re = 0.0, a_im = 0.0;
  double b_re = 0.0, b_im = 0.0;
};

struct ExpTrapezoidal {
  double alpha_re = 0.0, alpha_im = 0.0;  // e^{Delta a}
  double beta_re = 0.0, beta_im = 0.0;    // (1 - lambda) Delta alpha
  double gamma = 0.0;                     // lambda Delta (real)
};

// |a| below this uses the limit (e^{Delta a} - 1)/a -> Delta (L'Hopital).
inline constexpr double kZohSmallA = 1e-12;

DiscreteReal zoh(double a, double delta) noexcept;
DiscreteReal bilinear(double a, double delta) noexcept;
DiscreteComplex bilinear_complex(double a_re, double a_im, double delta) noexcept;
ExpTrapezoidal exp_trapezoidal(double a_re, double a_im, double delta, double lambda) noexcept;

// ZOH input coefficient given alpha = e^{Delta a} already computed: shares one
// exp between the two coefficients (what the selective scan does per state).
// For |Delta a| < 1e-2 the difference alpha - 1 loses digits, so a 5-term series
// of expm1(x)/x is used there instead (truncation error < x^5/720 < 2e-13 relative).
inline double zoh_b_from_alpha(double alpha, double a, double delta) noexcept {
  const double x = delta * a;
  if (x < 1e-2 && x > -1e-2)
    return delta * (1.0 + x * (0.5 + x * (1.0 / 6.0 + x * (1.0 / 24.0 + x * (1.0 / 120.0)))));
  return (alpha - 1.0) / a;
}

}  // namespace irithyll::nn
