#include <cmath>

#include "irithyll/interval.hpp"

namespace irithyll {

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) return std::nan("");
  // Phi(z) = erfc(-z / sqrt 2) / 2 is increasing: bisect on [-40, 40], which
  // holds every double p in (0, 1), then polish with Newton steps.
  double lo = -40.0, hi = 40.0;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  double z = 0.5 * (lo + hi);
  for (int i = 0; i < 2; ++i) {
    const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2.0 * 3.14159265358979323846);
    if (pdf < 1e-300) break;
    z -= (0.5 * std::erfc(-z / std::sqrt(2.0)) - p) / pdf;
  }
  return z;
}

}  // namespace irithyll
