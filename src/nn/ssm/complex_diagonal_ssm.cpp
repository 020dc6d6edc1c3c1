#include "nn/ssm/complex_diagonal_ssm.hpp"

#include <cmath>
#include <algorithm>
#include <limits>
#include <string>

#include "nn/ssm/discretize.hpp"
#include "nn/ssm/init.hpp"
#include "nn/ssm/ssm_math.hpp"

namespace irithyll::nn {
namespace {

constexpr std::size_t kComplexDiagonalSsmMaxStates = 65536;

}  // namespace

Result<ComplexDiagonalSsm> ComplexDiagonalSsm::make(std::size_t n_state, ComplexDiscretization method) {
  if (n_state == 0 || n_state > kComplexDiagonalSsmMaxStates)
    return Status::invalid_argument("complex diagonal ssm: n_state must be in 1..65536");
  std::vector<double> log_a(2 * n_state);
  s4d_inv_complex(log_a);
  return make_with_init(log_a, method);
}

Result<ComplexDiagonalSsm> ComplexDiagonalSsm::make_with_init(std::span<const double> log_a,
                                                              ComplexDiscretization method) {
  if (log_a.empty() || log_a.size() % 2 != 0)
    return Status::invalid_argument("complex diagonal ssm: log_a length " + std::to_string(log_a.size()) +
                                    " must be even and > 0 (interleaved [log|Re a|, Im a] pairs)");
  if (log_a.size() / 2 > kComplexDiagonalSsmMaxStates) return Status::invalid_argument("complex diagonal ssm: more than 65536 states");
  if (!detail::all_finite(log_a)) return Status::invalid_argument("complex diagonal ssm: log_a must be finite");
  if (method != ComplexDiscretization::kTustin && method != ComplexDiscretization::kExpTrapezoidal)
    return Status::invalid_argument("complex diagonal ssm: unknown discretisation");
  ComplexDiagonalSsm out;
  out.method_ = method;
  out.log_a_.assign(log_a.begin(), log_a.end());
  out.h_.assign(log_a.size(), 0.0);
  out.prev_bx_.assign(log_a.size(), 0.0);
  return out;
}

double ComplexDiagonalSsm::step(double delta, std::span<const double> b, std::span<const double> c, double x,
                                double lambda) noexcept {
  return advance(delta, b, {}, c, {}, x, lambda);
}

double ComplexDiagonalSsm::step_complex(double delta, std::span<const double> b_re, std::span<const double> b_im,
                                        std::span<const double> c_re, std::span<const double> c_im, double x,
                                        double lambda) noexcept {
  if (b_im.size() != n_state() || c_im.size() != n_state()) return std::numeric_limits<double>::quiet_NaN();
  return advance(delta, b_re, b_im, c_re, c_im, x, lambda);
}

double ComplexDiagonalSsm::advance(double delta, std::span<const double> b_re, std::span<const double> b_im,
                                   std::span<const double> c_re, std::span<const double> c_im, double x,
                                   double lambda) noexcept {
  const std::size_t n = n_state();
  // All checks before the first write, so a refused step changes nothing.
  if (n == 0 || b_re.size() != n || c_re.size() != n || !std::isfinite(x) || !std::isfinite(delta) ||
      !(delta >= 0.0) || !(lambda >= 0.0 && lambda <= 1.0) || !detail::all_finite(b_re) || !detail::all_finite(b_im) ||
      !detail::all_finite(c_re) || !detail::all_finite(c_im))
    return std::numeric_limits<double>::quiet_NaN();
  double y = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double a_re = -std::exp(log_a_[2 * k]), a_im = log_a_[2 * k + 1];
    const double bx_re = b_re[k] * x, bx_im = b_im.empty() ? 0.0 : b_im[k] * x;
    double& hr = h_[2 * k];
    double& hi = h_[2 * k + 1];
    double nr = 0.0, ni = 0.0;
    if (method_ == ComplexDiscretization::kTustin) {
      const DiscreteComplex d = bilinear_complex(a_re, a_im, delta);
      nr = d.a_re * hr - d.a_im * hi + d.b_re * bx_re - d.b_im * bx_im;
      ni = d.a_re * hi + d.a_im * hr + d.b_re * bx_im + d.b_im * bx_re;
    } else {
      const ExpTrapezoidal e = exp_trapezoidal(a_re, a_im, delta, lambda);
      const double pr = prev_bx_[2 * k], pi = prev_bx_[2 * k + 1];
      nr = e.alpha_re * hr - e.alpha_im * hi + e.beta_re * pr - e.beta_im * pi + e.gamma * bx_re;
      ni = e.alpha_re * hi + e.alpha_im * hr + e.beta_re * pi + e.beta_im * pr + e.gamma * bx_im;
      prev_bx_[2 * k] = bx_re;
      prev_bx_[2 * k + 1] = bx_im;
    }
    hr = nr;
    hi = ni;
    y += c_re[k] * nr + (c_im.empty() ? 0.0 : c_im[k] * ni);
  }
  return y;
}

void ComplexDiagonalSsm::reset() noexcept {
  for (double& v : h_) v = 0.0;
  for (double& v : prev_bx_) v = 0.0;
}

void ComplexDiagonalSsm::state_energies(std::span<double> out) const noexcept {
  const std::size_t n = std::min(out.size(), n_state());
  for (std::size_t k = 0; k < n; ++k) out[k] = std::hypot(h_[2 * k], h_[2 * k + 1]);
}

std::vector<double> ComplexDiagonalSsm::state_energies() const {
  std::vector<double> out(n_state());
  state_energies(out);
  return out;
}

}  // namespace irithyll::nn
