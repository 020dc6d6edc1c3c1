#include "nn/ssm/discretize.hpp"

#include <cmath>

namespace irithyll::nn {

DiscreteReal zoh(double a, double delta) noexcept {
  const double x = delta * a;
  const double b = (a > kZohSmallA || a < -kZohSmallA) ? std::expm1(x) / a : delta;
  return {std::exp(x), b};
}

DiscreteReal bilinear(double a, double delta) noexcept {
  const double den = 1.0 - 0.5 * delta * a;
  return {(1.0 + 0.5 * delta * a) / den, delta / den};
}

DiscreteComplex bilinear_complex(double a_re, double a_im, double delta) noexcept {
  // abar = (1 + Delta a/2) / (1 - Delta a/2), bbar = Delta / (1 - Delta a/2), complex a.
  const double nr = 1.0 + 0.5 * delta * a_re, ni = 0.5 * delta * a_im;
  const double dr = 1.0 - 0.5 * delta * a_re, di = -0.5 * delta * a_im;
  const double inv = 1.0 / (dr * dr + di * di);
  DiscreteComplex out;
  out.a_re = (nr * dr + ni * di) * inv;
  out.a_im = (ni * dr - nr * di) * inv;
  out.b_re = delta * dr * inv;
  out.b_im = -delta * di * inv;
  return out;
}

ExpTrapezoidal exp_trapezoidal(double a_re, double a_im, double delta, double lambda) noexcept {
  const double mag = std::exp(delta * a_re);
  ExpTrapezoidal out;
  out.alpha_re = mag * std::cos(delta * a_im);
  out.alpha_im = mag * std::sin(delta * a_im);
  const double s = (1.0 - lambda) * delta;
  out.beta_re = s * out.alpha_re;
  out.beta_im = s * out.alpha_im;
  out.gamma = lambda * delta;
  return out;
}

}  // namespace irithyll::nn
